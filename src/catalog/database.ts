import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

export type Db = Database.Database;
export type Statement = Database.Statement;

/** One numbered migration; applied in order, tracked by `PRAGMA user_version`. */
export interface Migration {
  version: number;
  sql: string;
}

/** Applies every migration above the database's user_version, each in a transaction. */
export function migrate(db: Db, migrations: readonly Migration[]): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}

/** Opens a published snapshot for serving: read-only, no writes possible. */
export function openReadOnly(path: string): Db {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.pragma('query_only = true');
  db.pragma('cache_size = -65536'); // 64 MiB page cache per snapshot
  // No memory map: every page a mapped snapshot had read stayed in the process's RSS. On the
  // 35k demo the first semantic search (which loads the per-snapshot product table) mapped
  // 600 MB of the file and 60 s of mixed load 860 MB, for a 1.3 GB process. Read through the
  // page cache above instead, the file's pages stay in the kernel's cache, shared and
  // reclaimable, and the process holds at most cache_size of them.
  db.pragma('mmap_size = 0');
  // A published snapshot never changes, so take its shared lock once and keep it. In SQLite's
  // default mode every statement locks and unlocks the file and re-checks it for changes:
  // about ten syscalls, 5 µs, more than the indexed read itself (measured: 5.5 µs → 0.2 µs
  // per single-row read). Shared locks do not block other readers; nothing writes a snapshot
  // once it is published (ingest builds the next one in a new file), and a stray writer now
  // fails with SQLITE_BUSY instead of changing a file that is being served.
  db.pragma('locking_mode = EXCLUSIVE');
  return db;
}

/** Opens a database for writing (ingest, the access store). */
export function openWritable(path: string, options: { wal?: boolean } = {}): Db {
  const db = new Database(path);
  if (options.wal) db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * A memo of values by key for each connection: `remember(db, key, compute)` calls
 * `compute(db, key)` once per connection and key, and forgets the value with the connection.
 * For what a connection's life fixes: prepared statements, and anything read from a snapshot
 * (snapshots never change).
 */
export function perConnection<V>(
  options: { max?: number } = {},
): (db: Db, key: string, compute: (db: Db, key: string) => V) => V {
  type Memo = Pick<Map<string, V>, 'get' | 'set'>;
  const byDb = new WeakMap<Db, Memo>();
  return (db, key, compute) => {
    let known = byDb.get(db);
    if (!known) {
      // with `max`, the least recently used entries go first (LRUCache holds objects only)
      known = options.max ? lruMemo<V>(options.max) : new Map<string, V>();
      byDb.set(db, known);
    }
    let value = known.get(key);
    if (value === undefined) {
      value = compute(db, key);
      known.set(key, value);
    }
    return value;
  };
}

/**
 * Statement texts are fixed by the code (values are always bound, id lists go in as one JSON
 * parameter), so a few hundred cover every query; the bound is a backstop should a query
 * ever vary its text, so that the memo cannot grow without end.
 */
export const STATEMENT_MEMO_MAX = 1000;
function lruMemo<V>(max: number): Pick<Map<string, V>, 'get' | 'set'> {
  const lru = new LRUCache<string, { value: V }>({ max });
  const memo = {
    get: (key: string) => lru.get(key)?.value,
    set: (key: string, value: V) => {
      lru.set(key, { value });
      return memo as unknown as Map<string, V>;
    },
  };
  return memo;
}

const statements = perConnection<Statement>({ max: STATEMENT_MEMO_MAX });
const prepare = (db: Db, sql: string) => db.prepare(sql);

/** Prepared statements are compiled once per connection and reused. */
export function stmt(db: Db, sql: string): Statement {
  return statements(db, sql, prepare);
}

const tables = perConnection<boolean>();
const tableExists = (db: Db, name: string) =>
  stmt(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;

/** True when the database has this table; remembered per connection (snapshots do not change). */
export function hasTable(db: Db, name: string): boolean {
  return tables(db, name, tableExists);
}

const versions = perConnection<number>();
const readVersion = (db: Db) => db.pragma('user_version', { simple: true }) as number;

/** The schema version of a database (its last migration); remembered per connection. */
export function schemaVersion(db: Db): number {
  return versions(db, '', readVersion);
}
