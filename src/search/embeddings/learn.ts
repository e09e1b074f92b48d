import { fold, words } from '../text.js';
import { blobBytes, writeBlob } from '../vector-blob.js';
import {
  BUILTIN_DIMS,
  embedTerms,
  idf,
  normalize,
  SELF_WEIGHT,
  spellingVector,
  type TermModelOptions,
} from './builtin.js';

/**
 * The built-in embeddings of a catalog, computed from its product texts alone (no database,
 * so a worker thread can compute them while the keyword index is built): what
 * build-index.ts writes to search_vocabulary, search_term_vectors, product_vectors and the
 * `search_embeddings` meta row. Vectors are int8 BLOBs (vector-blob.ts) back to back.
 */
export interface CatalogEmbeddings {
  /** every word of the texts (not plural-folded) and the number of texts it is in, first seen first */
  vocabulary: [string, number][];
  /** documents the statistics are over (one per text) */
  docs: number;
  /** dimensions of every vector (0 when no text has a word) */
  dims: number;
  /** the learned (folded) terms, their document frequencies and BLOBs, in one order */
  terms: string[];
  termDf: Int32Array;
  termBlobs: Uint8Array;
  /** which texts have a vector (index into the input), and their BLOBs in that order */
  productIndex: Int32Array;
  productBlobs: Uint8Array;
}

/**
 * Learns a vector per word from the catalog's own text, and embeds each text with them. A
 * word's vector is its spelling vector (builtin.ts) blended with the idf-weighted spelling
 * vectors of the words it appears beside (a one-pass co-occurrence embedding): "fridge" and
 * "refrigerator" end up close when listings use them with the same neighbours; nothing is
 * downloaded and nothing is specific to one catalog. A text is embedded as the idf-weighted
 * sum of its words' vectors (embedTerms).
 *
 * Most words of a catalog are in one text only (model codes: 90 % of the 35k demo's 44,000
 * terms), and such a word's neighbours are that text's other words. So only the words of two
 * or more texts keep float vectors for the whole run; a one-text word's vector is computed
 * when its text is embedded, from that text's sum, and written out at once. The values are
 * the same as holding every word's spelling and context at once (the same additions in the
 * same order), for a tenth of the memory: V × 2 KB had been 90 MB at 35k products and most of
 * a gigabyte at 560k (issue 20).
 */
export function learnCatalogEmbeddings(
  texts: readonly string[],
  options: TermModelOptions = {},
): CatalogEmbeddings {
  const selfWeight = options.selfWeight ?? SELF_WEIGHT;
  const D = BUILTIN_DIMS;
  const vocabulary = new Map<string, number>();
  // each text tokenized once: the vocabulary counts its words, the embeddings their folds
  const documents = texts.map((text) => {
    const ws = words(text);
    for (const w of new Set(ws)) vocabulary.set(w, (vocabulary.get(w) ?? 0) + 1);
    return ws.map(fold);
  });

  // terms numbered in first-seen order, each document as its distinct terms' numbers
  const ids = new Map<string, number>();
  const counts: number[] = [];
  const distinct = documents.map((doc) => {
    const unique = new Set(doc);
    const row = new Int32Array(unique.size);
    let k = 0;
    for (const t of unique) {
      let id = ids.get(t);
      if (id === undefined) {
        id = counts.length;
        ids.set(t, id);
        counts.push(0);
      }
      counts[id]!++;
      row[k++] = id;
    }
    return row;
  });
  const terms = [...ids.keys()];
  const docs = documents.length;
  const weight = Float64Array.from(counts, (n) => idf(n, docs));

  // the words of two or more texts, numbered apart: their spelling, context and final vectors
  // live in flat arrays (shared × 256 floats each)
  const slot = new Int32Array(terms.length).fill(-1);
  let shared = 0;
  for (let id = 0; id < terms.length; id++) if (counts[id]! > 1) slot[id] = shared++;
  const spelling = new Float32Array(shared * D);
  // views made once: a view a word occurrence costs more than the sums it feeds
  const spellings: Float32Array[] = [];
  for (let id = 0; id < terms.length; id++) {
    const s = slot[id]!;
    if (s >= 0)
      spellings[s] = spellingVector(terms[id]!, options.wordWeight, spelling.subarray(s * D, s * D + D));
  }
  // a one-text word's spelling, made when its text is read (it is read in no other)
  const own = new Float32Array(D);
  const spellingOf = (id: number): Float32Array => {
    const s = slot[id]!;
    if (s >= 0) return spellings[s]!;
    own.fill(0);
    return spellingVector(terms[id]!, options.wordWeight, own);
  };
  const sum = new Float32Array(D);
  const sumOf = (unique: Int32Array) => {
    sum.fill(0);
    for (const id of unique) {
      const w = weight[id]!;
      const v = spellingOf(id);
      for (let i = 0; i < D; i++) sum[i]! += w * v[i]!;
    }
  };
  const blend = (v: Float32Array, c: Float32Array, out: Float32Array) => {
    normalize(c);
    for (let i = 0; i < D; i++) out[i] = selfWeight * v[i]! + (1 - selfWeight) * c[i]!;
    return normalize(out);
  };

  // the shared words' contexts: the sums of the texts they are in, less their own part
  const context = new Float32Array(shared * D);
  for (const unique of distinct) {
    if (unique.length < 2) continue;
    sumOf(unique);
    for (const id of unique) {
      const s = slot[id]!;
      if (s < 0) continue;
      const w = weight[id]!;
      for (let i = 0; i < D; i++) context[s * D + i]! += sum[i]! - w * spelling[s * D + i]!;
    }
  }
  const vectors = new Float32Array(shared * D);
  const known: { df: number; vector: Float32Array }[] = [];
  for (let id = 0; id < terms.length; id++) {
    const s = slot[id]!;
    if (s < 0) continue;
    const vector = blend(
      spellings[s]!,
      context.subarray(s * D, s * D + D),
      vectors.subarray(s * D, s * D + D),
    );
    known[s] = { df: counts[id]!, vector };
  }

  const dims = terms.length > 0 ? D : 0;
  const bytes = blobBytes(dims);
  const termDf = Int32Array.from(counts);
  const termBlobs = new Uint8Array(terms.length * bytes);
  for (let id = 0; id < terms.length; id++) {
    const s = slot[id]!;
    if (s >= 0) writeBlob(known[s]!.vector, termBlobs, id * bytes);
  }

  // each text: its one-text words' vectors (from its sum), written out, then its embedding
  const ownVectors = new Map<number, { df: number; vector: Float32Array }>();
  const ownContext = new Float32Array(D);
  const lookup = (t: string) => {
    const id = ids.get(t)!;
    const s = slot[id]!;
    return s >= 0 ? known[s] : ownVectors.get(id);
  };
  const index: number[] = [];
  const productBlobs = new Uint8Array(texts.length * bytes);
  documents.forEach((doc, i) => {
    const unique = distinct[i]!;
    ownVectors.clear();
    let ownWords = 0;
    for (const id of unique) if (slot[id]! < 0) ownWords++;
    if (ownWords > 0) {
      if (unique.length >= 2) sumOf(unique);
      for (const id of unique) {
        if (slot[id]! >= 0) continue;
        const w = weight[id]!;
        const v = spellingOf(id);
        // a text of one word gives its word no context (a zero vector, as normalize leaves it)
        if (unique.length >= 2) for (let k = 0; k < D; k++) ownContext[k] = sum[k]! - w * v[k]!;
        else ownContext.fill(0);
        const vector = blend(v, ownContext, new Float32Array(D));
        writeBlob(vector, termBlobs, id * bytes);
        ownVectors.set(id, { df: 1, vector });
      }
    }
    const embedded = embedTerms(doc, lookup, docs);
    if (!embedded) return;
    writeBlob(embedded, productBlobs, index.length * bytes);
    index.push(i);
  });
  return {
    vocabulary: [...vocabulary],
    docs,
    dims,
    terms,
    termDf,
    termBlobs,
    productIndex: Int32Array.from(index),
    productBlobs: productBlobs.subarray(0, index.length * bytes),
  };
}
