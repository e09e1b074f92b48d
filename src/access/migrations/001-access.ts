/** The access store (keys and usage): the only mutable state of the read side. */
export const sql = `
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,       -- SHA-256 hex of the whole key
  last4 TEXT NOT NULL,
  prefix TEXT NOT NULL,            -- e.g. sk_shelf_live_
  type TEXT NOT NULL CHECK (type IN ('secret', 'publishable')),
  env TEXT NOT NULL CHECK (env IN ('live', 'test')),
  plan TEXT NOT NULL CHECK (plan IN ('free', 'starter', 'pro', 'enterprise')),
  name TEXT,
  allowed_origins_json TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  revoked_at TEXT
);

CREATE TABLE usage_monthly (
  key_id TEXT NOT NULL REFERENCES api_keys(id),
  month TEXT NOT NULL,             -- YYYY-MM (UTC)
  requests INTEGER NOT NULL DEFAULT 0,
  cached INTEGER NOT NULL DEFAULT 0,
  errors INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, month)
) WITHOUT ROWID;
`;
