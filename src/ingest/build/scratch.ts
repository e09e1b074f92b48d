import { rmSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { type Db, openWritable } from '../../catalog/index.js';

/** SQLite pages the scratch file keeps in memory (KiB): the rest lives on disk. */
const CACHE_KIB = 32 * 1024;

/**
 * A numbered store of values on disk, beside the snapshot being built: what a run holds for
 * every listing or product between two phases (issue 20: at 560k products the listings alone
 * were 2.5 GB of JavaScript heap, the assembled products most of the rest). Values keep every
 * detail JSON would lose (undefined fields, Maps, NaN, -0): they go through V8's structured
 * serialization. One slot per value, written once and read by slot; nothing is ever committed
 * (no journal, one open transaction) and the file goes with {@link ScratchFile.close}.
 *
 * Without a path the values stay in memory as they are (no copy): a small run has the memory,
 * and the round trip through disk would cost it CPU (about 40 µs a listing, read twice).
 */
export class ScratchFile {
  readonly #db: Db | null;
  readonly #path: string | null;

  constructor(path: string | null) {
    this.#path = path;
    if (path === null) {
      this.#db = null;
      return;
    }
    rmSync(path, { force: true });
    this.#db = openWritable(path);
    this.#db.pragma('journal_mode = OFF');
    this.#db.pragma('synchronous = OFF');
    this.#db.pragma(`cache_size = -${CACHE_KIB}`);
    this.#db.exec('BEGIN');
  }

  /** A table of values by slot (a non-negative integer); `name` is a-z and _ only (quoted: a keyword is fine). */
  table<T>(name: string): ScratchTable<T> {
    if (!/^[a-z_]+$/.test(name)) throw new Error(`scratch table name "${name}" must be a-z and _`);
    if (this.#db === null) return memoryTable(name);
    this.#db.exec(`CREATE TABLE "${name}" (slot INTEGER PRIMARY KEY, value BLOB NOT NULL)`);
    const insert = this.#db.prepare(`INSERT INTO "${name}" (slot, value) VALUES (?, ?)`);
    const select = this.#db.prepare(`SELECT value FROM "${name}" WHERE slot = ?`).pluck();
    const db = this.#db;
    const drop = () => db.exec(`DELETE FROM "${name}"`);
    return {
      put: (slot, value) => {
        insert.run(slot, serialize(value));
      },
      get: (slot) => {
        const stored = select.get(slot) as Buffer | undefined;
        if (stored === undefined) throw new Error(`scratch table ${name} has no slot ${slot}`);
        return deserialize(stored) as T;
      },
      clear: drop,
    };
  }

  /** Closes and deletes the file (safe to call twice). */
  close(): void {
    if (this.#db?.open) this.#db.close();
    if (this.#path !== null) rmSync(this.#path, { force: true });
  }
}

function memoryTable<T>(name: string): ScratchTable<T> {
  let values = new Map<number, T>();
  return {
    put: (slot, value) => {
      values.set(slot, value);
    },
    get: (slot) => {
      if (!values.has(slot)) throw new Error(`scratch table ${name} has no slot ${slot}`);
      return values.get(slot) as T;
    },
    clear: () => {
      values = new Map();
    },
  };
}

export interface ScratchTable<T> {
  put(slot: number, value: T): void;
  get(slot: number): T;
  /** drops every value (their pages are reused by the next table) */
  clear(): void;
}
