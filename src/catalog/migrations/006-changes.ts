/**
 * The change feed (issue 22): what each publish changed against the one before it, carried
 * forward from snapshot to snapshot so that a replica, which reads only its own snapshot,
 * can answer `GET /v2/changes?since=` across several publishes.
 *
 * - `product_fingerprints`: per product, a hash of each aspect the feed reports (name,
 *   price, stock, offers, specs, details), written by the ingest that built the snapshot;
 *   the next ingest compares its own with these.
 * - `change_publishes`: one row per publish still in the log (`version` counts publishes
 *   up; `head_seq` is the sequence number of the last change that publish recorded, so
 *   numbering carries on even when a publish changed nothing).
 * - `changes`: one row per product added, changed or removed, numbered by `seq` across
 *   publishes. A removed product keeps its last id, slug and name, and `merged_into` when
 *   its listings now belong to another product.
 */
export const sql = `
CREATE TABLE product_fingerprints (
  product_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  price TEXT NOT NULL,
  stock TEXT NOT NULL,
  offers TEXT NOT NULL,
  specs TEXT NOT NULL,
  details TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE change_publishes (
  version INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL,
  published_at TEXT NOT NULL,
  head_seq INTEGER NOT NULL,
  -- 1 when there was no previous change log to compare with: nothing is recorded
  baseline INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE changes (
  seq INTEGER PRIMARY KEY,
  version INTEGER NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('added', 'changed', 'removed')),
  product_id TEXT NOT NULL,
  slug TEXT NOT NULL,
  name TEXT NOT NULL,
  aspects_json TEXT NOT NULL DEFAULT '[]',
  merged_into TEXT
);
`;
