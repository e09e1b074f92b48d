// the catalog's codec module itself, not the folder's index: the index loads all of catalog/
// (2.3 s in a fresh worker thread from TypeScript sources, measured under load; this: 0.2 s)
import { packDocument, packText } from '../../catalog/document-codec.js';

/**
 * A batch of work for the pack worker: documents packed with the dictionary (`packDocument`)
 * and texts packed alone (`packText`).
 */
export interface PackRequest {
  batch: number;
  docs: string[];
  texts: string[];
}

/**
 * A packed batch: the documents' then the texts' bytes one after the other, `ends[i]` where
 * part i ends.
 */
export interface PackReply {
  batch: number;
  bytes: Uint8Array;
  ends: Uint32Array;
  /** how many of the parts are documents (the rest are texts) */
  docs: number;
}

/** What a batch packs to, in the order its documents and texts were given. */
export interface Packed {
  docs: Buffer[];
  texts: Buffer[];
}

/** Packs a batch into one buffer (one transfer across threads instead of one per document). */
export function packBatch(
  docs: readonly string[],
  texts: readonly string[],
  dictionary: Buffer,
): Omit<PackReply, 'batch'> {
  const parts = [...docs.map((d) => packDocument(d, dictionary)), ...texts.map(packText)];
  const ends = new Uint32Array(parts.length);
  let at = 0;
  parts.forEach((p, i) => {
    at += p.length;
    ends[i] = at;
  });
  // a fresh buffer of its own (Buffer.concat may hand out a slice of the shared pool)
  const bytes = new Uint8Array(at);
  at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { bytes, ends, docs: docs.length };
}

/** The documents and texts of a packed batch, each a view of its bytes. */
export const splitBatch = ({ bytes, ends, docs }: Omit<PackReply, 'batch'>): Packed => {
  const out: Buffer[] = new Array(ends.length);
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    out[i] = Buffer.from(bytes.buffer, bytes.byteOffset + start, ends[i]! - start);
    start = ends[i]!;
  }
  return { docs: out.slice(0, docs), texts: out.slice(docs) };
};
