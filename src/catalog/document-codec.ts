import { deflateRawSync, inflateRawSync } from 'node:zlib';
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
 * The dictionary of a snapshot's documents, from a sample of them (the first few hundred a
 * writer produces, in id order: ids are UUIDs, so a spread of product types). Deflate codes
 * a match more cheaply the closer it is, so the sample's tail is what counts; the last 32 KB
 * are kept. The bytes are UTF-8 text cut at an arbitrary byte: deflate does not care.
 */
export function documentDictionary(samples: readonly string[]): Buffer {
  const tail: Buffer[] = [];
  let bytes = 0;
  for (let i = samples.length - 1; i >= 0 && bytes < WINDOW; i--) {
    const part = Buffer.from(samples[i] as string);
    tail.unshift(part);
    bytes += part.length;
  }
  const all = Buffer.concat(tail);
  return all.length <= WINDOW ? all : all.subarray(all.length - WINDOW);
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
