import { constants, deflateRawSync, InflateRaw, inflateRawSync } from 'node:zlib';
// types only: this module loads with Node's zlib alone (codec.ts, the worker's entry point)
import type { Db } from './database.js';

/**
 * How stored JSON documents are packed (migrations/007-compact.ts): raw deflate with a preset
 * dictionary drawn from the snapshot's own documents. One product's JSON is a few KB, too
 * short for deflate to find much repetition inside it; the dictionary gives it the key names,
 * brands, units and URL shapes every document shares. Measured on the 2,000-product demo:
 * documents packed alone keep 32 % of their bytes, with the dictionary 19 %. zstd (with its
 * own dictionaries) is not in this Node's zlib; brotli has no custom dictionary here and,
 * alone, kept 28–32 % while compressing far slower.
 */

/** deflate's window: it looks back at most this far, so a longer dictionary is never used */
const WINDOW = 32 * 1024;

/**
 * A dictionary of documents from a sample of them (e.g. the first few hundred a writer
 * produces, in id order: ids are UUIDs, so a spread of product types). Deflate codes a match
 * more cheaply the closer it is, so the sample's tail is what counts; its last `size` bytes
 * (at most the 32 KB deflate looks back at) are kept. Packing hashes the whole dictionary
 * for every document (about 1.7 ns a byte), so a shorter one packs faster. The bytes are
 * UTF-8 text cut at an arbitrary byte: deflate does not care.
 */
export function documentDictionary(samples: readonly string[], size = WINDOW): Buffer {
  const limit = Math.min(size, WINDOW);
  const tail: Buffer[] = [];
  let bytes = 0;
  for (let i = samples.length - 1; i >= 0 && bytes < limit; i--) {
    const part = Buffer.from(samples[i] as string);
    tail.unshift(part);
    bytes += part.length;
  }
  const all = Buffer.concat(tail);
  return all.length <= limit ? all : all.subarray(all.length - limit);
}

/** deflate's level for documents */
const PACK_LEVEL = 6;

/** One document packed with the snapshot's dictionary. */
export const packDocument = (json: string, dictionary: Buffer): Buffer =>
  deflateRawSync(json, { level: PACK_LEVEL, dictionary });

/** A packed document's JSON. */
export const unpackDocument = (packed: Uint8Array, dictionary: Buffer): string =>
  inflateRawSync(packed, { dictionary }).toString();

/**
 * One document packed with dictionary number `n` of a numbered set (see storedDictionaries):
 * the number as an unsigned LEB128 varint (one byte below 128), then the raw deflate.
 * Product documents are packed so in a snapshot with numbered `documents/<n>` dictionaries
 * (before, one `documents` dictionary packed them all, read as packDocument): a dictionary
 * per product type, drawn from that type's first documents, packs a product to about two
 * thirds of the bytes and, being shorter (8 KB), in about half the time
 * (ingest/build/product-documents.ts).
 */
export function packNumbered(json: string, dictionaries: readonly Buffer[], n: number): Buffer {
  const dictionary = dictionaries[n];
  if (dictionary === undefined) throw new RangeError(`no dictionary ${n}`);
  const prefix: number[] = [];
  let rest = n;
  do {
    prefix.push(rest >= 0x80 ? (rest & 0x7f) | 0x80 : rest);
    rest >>>= 7;
  } while (rest > 0);
  return Buffer.concat([Buffer.from(prefix), packDocument(json, dictionary)]);
}

/** The dictionary number a packNumbered document starts with, and where its deflate starts. */
function numberOf(packed: Uint8Array): [n: number, at: number] {
  let n = 0;
  let at = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = packed[at++];
    if (byte === undefined || shift > 28) throw new RangeError('packed document: bad dictionary number');
    n |= (byte & 0x7f) << shift;
    if (byte < 0x80) break;
  }
  return [n, at];
}

/** A document packed by packNumbered, with the same set of dictionaries. */
export function unpackNumbered(packed: Uint8Array, dictionaries: readonly Buffer[]): string {
  const [n, at] = numberOf(packed);
  const dictionary = dictionaries[n];
  if (dictionary === undefined) throw new RangeError(`packed document: no dictionary ${n}`);
  return unpackDocument(packed.subarray(at), dictionary);
}

/**
 * What node:zlib's own synchronous calls (`inflateRawSync`) use of a stream, to reuse one:
 * its native handle and the two counters each write leaves behind (output then input bytes
 * left). Not public API, but the same calls `processChunkSync` makes in Node 20 to 24.
 */
interface ZlibEngine {
  _handle: {
    reset(): void;
    writeSync(
      flush: number,
      input: Uint8Array,
      inOffset: number,
      inLength: number,
      output: Buffer,
      outOffset: number,
      outLength: number,
    ): void;
  } | null;
  _writeState: Uint32Array;
  destroyed: boolean;
}

/**
 * Unpacks documents with one raw-inflate stream per dictionary, reset between documents,
 * instead of a new stream each (`inflateRawSync`): a stream is a Transform with its native
 * state, and making one cost as much as the inflate itself (a 4 KB product document: about
 * 30 µs a read made so, 14 µs reused, measured loaded on the 35k demo). A reset restores
 * the dictionary (raw inflate sets it at the start). Reads the same bytes as unpackNumbered
 * and unpackDocument; anything unexpected (a corrupt document) is read again the usual way,
 * which throws zlib's own error.
 */
export class DocumentInflater {
  readonly #dictionaries: readonly Buffer[];
  readonly #engines: ((InflateRaw & ZlibEngine) | undefined)[] = [];
  /** the output of the last inflate; grown when a document does not fit */
  #out = Buffer.allocUnsafeSlow(64 * 1024);

  /** `dictionaries`: the numbered set (packNumbered), or one dictionary for all (packDocument). */
  constructor(
    dictionaries: readonly Buffer[],
    readonly numbered: boolean,
  ) {
    this.#dictionaries = dictionaries;
  }

  /** A stored document's JSON (packed as packNumbered when the set is numbered, else packDocument). */
  read(packed: Uint8Array): string {
    return this.readBytes(packed).toString();
  }

  /**
   * `read` as UTF-8 bytes, for a caller that writes them somewhere at once: a view of the
   * inflater's own output, overwritten by its next read.
   */
  readBytes(packed: Uint8Array): Buffer {
    const [n, at] = this.numbered ? numberOf(packed) : [0, 0];
    const dictionary = this.#dictionaries[n];
    if (dictionary === undefined) throw new RangeError(`packed document: no dictionary ${n}`);
    for (;;) {
      const out = this.#out;
      const left = this.#inflate(n, dictionary, packed, at, out);
      if (left === null) return inflateRawSync(packed.subarray(at), { dictionary });
      if (left > 0) return out.subarray(0, out.length - left);
      // the output filled up before the stream ended: again, with room for it
      this.#out = Buffer.allocUnsafeSlow(out.length * 2);
    }
  }

  /** Inflates into `out`: the bytes of it left unused, 0 when it filled up, null when the stream failed. */
  #inflate(n: number, dictionary: Buffer, packed: Uint8Array, at: number, out: Buffer): number | null {
    let engine = this.#engines[n];
    if (!engine) {
      // its own output chunk is never used: the smallest zlib takes
      engine = new InflateRaw({ dictionary, chunkSize: constants.Z_MIN_CHUNK }) as InflateRaw & ZlibEngine;
      // a failed write destroys the stream, which then emits its error: nobody else listens
      engine.on('error', () => {});
      this.#engines[n] = engine;
    }
    const handle = engine._handle;
    // internals of node:zlib: a Node that lacks them takes the public path
    if (!handle || engine.destroyed || typeof handle.writeSync !== 'function' || !engine._writeState) {
      this.#engines[n] = undefined;
      return null;
    }
    handle.reset();
    handle.writeSync(constants.Z_FINISH, packed, at, packed.length - at, out, 0, out.length);
    if (engine.destroyed) {
      this.#engines[n] = undefined;
      return null;
    }
    return engine._writeState[0] as number;
  }
}

/**
 * The dictionary named `name` of a snapshot (see documentDictionary), empty when it has none.
 * Read once per connection (documentReader) or per run: no memoized statement needed.
 */
export function storedDictionary(db: Db, name: string): Buffer {
  return (
    (db.prepare('SELECT bytes FROM dictionaries WHERE name = ?').pluck().get(name) as Buffer | undefined) ??
    EMPTY
  );
}
const EMPTY = Buffer.alloc(0);

/**
 * A snapshot's numbered dictionaries `<name>/0`, `<name>/1`, … in order (packNumbered), empty
 * when it has none.
 */
export function storedDictionaries(db: Db, name: string): Buffer[] {
  const rows = db.prepare('SELECT name, bytes FROM dictionaries').all() as { name: string; bytes: Buffer }[];
  const out: Buffer[] = [];
  for (const row of rows) {
    const n = row.name.startsWith(`${name}/`) ? Number(row.name.slice(name.length + 1)) : Number.NaN;
    if (Number.isSafeInteger(n) && n >= 0) out[n] = row.bytes;
  }
  return Array.from(out, (d) => d ?? EMPTY);
}

/** Stores a snapshot's dictionary `name` (ingest). */
export function storeDictionary(db: Db, name: string, dictionary: Buffer): void {
  db.prepare('INSERT OR REPLACE INTO dictionaries (name, bytes) VALUES (?, ?)').run(name, dictionary);
}

/**
 * A JSON column that is packed with raw deflate since schema version 7 and plain text
 * before: a BLOB is packed (with `dictionary`, if the column has one), text is as stored.
 */
export function storedText(value: unknown, dictionary: Buffer = EMPTY): string | null {
  if (value instanceof Uint8Array) return unpackDocument(value, dictionary);
  return typeof value === 'string' ? value : null;
}

/** Packs a long JSON column that repeats itself (no dictionary). */
export const packText = (text: string): Buffer => deflateRawSync(text);
