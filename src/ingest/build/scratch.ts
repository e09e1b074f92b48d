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
      forget: () => {},
      clear: drop,
    };
  }

  /** Whether values go to disk (else they stay in memory as they are). */
  get onDisk(): boolean {
    return this.#db !== null;
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
    forget: (slot) => {
      values.delete(slot);
    },
    clear: () => {
      values = new Map();
    },
  };
}

export interface ScratchTable<T> {
  put(slot: number, value: T): void;
  get(slot: number): T;
  /**
   * The slot's value will not be read again: in memory it goes now (a run that keeps its
   * products in memory frees each once written, not all at the end); on disk the file goes at
   * close, and nothing is done.
   */
  forget(slot: number): void;
  /** drops every value (their pages are reused by the next table) */
  clear(): void;
}

/** Bytes of one chunk of {@link PackedTexts}. */
const CHUNK_BYTES = 16 * 2 ** 20;

/**
 * Texts by slot, packed as UTF-8 in large buffers outside the JS heap: for what the resolver
 * reads once or twice a listing (descriptions, specs as JSON), where a SQLite row would cost
 * more CPU than the text itself. A text's bytes are about a third of what the string and its
 * object cost in the heap. Each slot is set once.
 */
export class PackedTexts {
  readonly #chunks: Buffer[] = [];
  /** chunk index of each slot; -1 for null */
  readonly #chunk: Int32Array;
  readonly #start: Int32Array;
  readonly #end: Int32Array;
  #used = CHUNK_BYTES;

  constructor(slots: number) {
    this.#chunk = new Int32Array(slots).fill(-1);
    this.#start = new Int32Array(slots);
    this.#end = new Int32Array(slots);
  }

  put(slot: number, text: string | null): void {
    if (text === null) return;
    const bytes = Buffer.byteLength(text, 'utf8');
    if (this.#used + bytes > CHUNK_BYTES || this.#chunks.length === 0) {
      this.#chunks.push(Buffer.allocUnsafe(Math.max(CHUNK_BYTES, bytes)));
      this.#used = 0;
    }
    const chunk = this.#chunks.length - 1;
    this.#chunks[chunk]!.write(text, this.#used, 'utf8');
    this.#chunk[slot] = chunk;
    this.#start[slot] = this.#used;
    this.#end[slot] = this.#used + bytes;
    this.#used += bytes;
  }

  get(slot: number): string | null {
    const chunk = this.#chunk[slot]!;
    return chunk < 0 ? null : this.#chunks[chunk]!.toString('utf8', this.#start[slot], this.#end[slot]);
  }
}
