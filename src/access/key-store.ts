import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { type Db, migrate, openWritable, stmt } from '../catalog/index.js';
import type { KeyAdmin, KeyDirectory } from './key-directory.js';
import { type ApiKeyRecord, generateKey, hashKey, KEY_PATTERN, type KeyEnv, type KeyType } from './keys.js';
import { sql as accessV1 } from './migrations/001-access.js';
import type { PlanId } from './plans.js';
import type { UsageSink } from './stores/counter-store.js';
import { UsageRepo } from './usage.js';

/**
 * The longest a server keeps answering with what it remembers of a key after another process
 * (the CLI, another server on the same access.db) revoked it or changed its plan, ms.
 */
export const KEY_RECHECK_MS = 100;

const accessMigrations = [{ version: 1, sql: accessV1 }];

/** A row of api_keys: the record's own columns as they are, the rest in snake_case and JSON. */
type KeyRow = Omit<ApiKeyRecord, 'allowedOrigins' | 'createdAt' | 'revokedAt'> & {
  allowed_origins_json: string;
  created_at: string;
  revoked_at: string | null;
};

/** Field by field: `SELECT *` rows also hold the key's hash, which a record never carries. */
const toRecord = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  prefix: r.prefix,
  last4: r.last4,
  type: r.type,
  env: r.env,
  plan: r.plan,
  name: r.name,
  allowedOrigins: JSON.parse(r.allowed_origins_json) as string[],
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

/**
 * Keys and monthly usage in `<dataDir>/access.db` (SQLite, WAL). The CLI and running servers
 * open the same file, so a key created or revoked by the CLI takes effect on the next request.
 */
export class KeyStore implements KeyDirectory, KeyAdmin {
  readonly db: Db;
  /**
   * active records by the presented key, valid while no other connection has written
   * access.db; keyed by the key itself so a known key skips hashing (only the hash is stored)
   */
  readonly #active = new LRUCache<string, ApiKeyRecord>({ max: 10_000 });
  #dataVersion = -1;
  /** when access.db was last asked whether another connection wrote it (ms; -Infinity: never) */
  #checkedAt = Number.NEGATIVE_INFINITY;
  readonly #now: () => number;

  constructor(dataDir: string, options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
    mkdirSync(dataDir, { recursive: true });
    this.db = openWritable(join(dataDir, 'access.db'), { wal: true });
    migrate(this.db, accessMigrations);
  }

  create(args: {
    type: KeyType;
    env: KeyEnv;
    plan: PlanId;
    name?: string | null;
    allowedOrigins?: string[];
  }): { key: string; record: ApiKeyRecord } {
    const { key, hash, record } = generateKey(args);
    stmt(
      this.db,
      `INSERT INTO api_keys (id, hash, last4, prefix, type, env, plan, name, allowed_origins_json, created_at)
       VALUES (?,?,?,?,?,?,?,?,?,?)`,
    ).run(
      record.id,
      hash,
      record.last4,
      record.prefix,
      record.type,
      record.env,
      record.plan,
      record.name,
      JSON.stringify(record.allowedOrigins),
      record.createdAt,
    );
    return { key, record };
  }

  /**
   * The active record of a presented key; null for malformed, unknown or revoked keys.
   * Records are remembered until access.db changes: `PRAGMA data_version` moves when another
   * connection (the CLI, another server) commits, and it is asked at most every
   * `KEY_RECHECK_MS`, so a key revoked or re-planned elsewhere stops working (or gets its new
   * plan) within that long. This store's own changes clear the records at once, and a key
   * not remembered (created elsewhere a moment ago) is looked up at once.
   */
  authenticate(key: string): ApiKeyRecord | null {
    const now = this.#now();
    if (now - this.#checkedAt >= KEY_RECHECK_MS || now < this.#checkedAt) {
      // a WAL read transaction (two lock syscalls): asked once per event-loop turn, the check
      // and the turn's setImmediate were 0.9 µs a request at eight requests a turn (0.4 now)
      this.#checkedAt = now;
      const version = stmt(this.db, 'PRAGMA data_version').pluck().get() as number;
      if (version !== this.#dataVersion) {
        this.#active.clear();
        this.#dataVersion = version;
      }
    }
    // a remembered key was well-formed when it was first looked up
    const known = this.#active.get(key);
    if (known) return known;
    if (!KEY_PATTERN.test(key)) return null;
    const hash = hashKey(key);
    const row = stmt(this.db, 'SELECT * FROM api_keys WHERE hash = ? AND revoked_at IS NULL').get(hash) as
      | KeyRow
      | undefined;
    if (!row) return null;
    const record = toRecord(row);
    this.#active.set(key, record);
    return record;
  }

  list(): ApiKeyRecord[] {
    return (stmt(this.db, 'SELECT * FROM api_keys ORDER BY created_at').all() as KeyRow[]).map(toRecord);
  }

  /** Finds a key by id, or by its last four characters when they are unique. */
  find(idOrLast4: string): ApiKeyRecord | null {
    const rows = stmt(this.db, 'SELECT * FROM api_keys WHERE id = ? OR last4 = ?').all(
      idOrLast4,
      idOrLast4,
    ) as KeyRow[];
    return rows.length === 1 && rows[0] ? toRecord(rows[0]) : null;
  }

  revoke(id: string): boolean {
    this.#active.clear();
    return (
      stmt(this.db, 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(
        new Date().toISOString(),
        id,
      ).changes === 1
    );
  }

  setPlan(id: string, plan: PlanId): boolean {
    this.#active.clear();
    return stmt(this.db, 'UPDATE api_keys SET plan = ? WHERE id = ?').run(plan, id).changes === 1;
  }

  /** Origins listed on any active publishable key (CORS preflights carry no key). */
  publishableOrigins(): Set<string> {
    const rows = stmt(
      this.db,
      "SELECT allowed_origins_json FROM api_keys WHERE type = 'publishable' AND revoked_at IS NULL",
    ).all() as { allowed_origins_json: string }[];
    return new Set(rows.flatMap((r) => JSON.parse(r.allowed_origins_json) as string[]));
  }

  usageSink(): UsageSink {
    return new UsageRepo(this.db);
  }

  /** Every record with its hash, for copying the keys to Redis (`shelf keys import-to-redis`). */
  exportRecords(): { hash: string; record: ApiKeyRecord }[] {
    return (
      stmt(this.db, 'SELECT * FROM api_keys ORDER BY created_at').all() as (KeyRow & { hash: string })[]
    ).map((r) => ({ hash: r.hash, record: toRecord(r) }));
  }

  close(): void {
    this.db.close();
  }
}
