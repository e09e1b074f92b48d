import { fold, words } from '../text.js';
import { blobBytes, writeBlob } from '../vector-blob.js';
import { embedTerms, type TermModelOptions, trainTermModel } from './builtin.js';

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

/** Learns the term model of `texts` and embeds each text with it. */
export function learnCatalogEmbeddings(
  texts: readonly string[],
  options: TermModelOptions = {},
): CatalogEmbeddings {
  const vocabulary = new Map<string, number>();
  // each text tokenized once: the vocabulary counts its words, the embeddings their folds
  const documents = texts.map((text) => {
    const ws = words(text);
    for (const w of new Set(ws)) vocabulary.set(w, (vocabulary.get(w) ?? 0) + 1);
    return ws.map(fold);
  });

  const model = trainTermModel(documents, options);
  const dims = model.vectors.values().next().value?.length ?? 0;
  const bytes = blobBytes(dims);
  const terms = [...model.vectors.keys()];
  const termDf = new Int32Array(terms.length);
  const termBlobs = new Uint8Array(terms.length * bytes);
  const known = new Map<string, { df: number; vector: Float32Array }>();
  terms.forEach((term, i) => {
    const vector = model.vectors.get(term)!;
    termDf[i] = model.df.get(term) ?? 1;
    writeBlob(vector, termBlobs, i * bytes);
    known.set(term, { df: termDf[i]!, vector });
  });

  const lookup = (t: string) => known.get(t);
  const index: number[] = [];
  const productBlobs = new Uint8Array(texts.length * bytes);
  documents.forEach((doc, i) => {
    const v = embedTerms(doc, lookup, model.docs);
    if (!v) return;
    writeBlob(v, productBlobs, index.length * bytes);
    index.push(i);
  });
  return {
    vocabulary: [...vocabulary],
    docs: model.docs,
    dims,
    terms,
    termDf,
    termBlobs,
    productIndex: Int32Array.from(index),
    productBlobs: productBlobs.subarray(0, index.length * bytes),
  };
}
