import type { NeedsDef } from '../content/index.js';
import { type CatalogEmbeddings, learnCatalogEmbeddings } from './embeddings/learn.js';
import { type NeedType, needIndexRows } from './needs/build.js';

/** What the vector side of the search index is computed from: no database handle. */
export interface SearchVectorsInput {
  /** each product's text (build-index.ts PRODUCT_TEXT_SQL), in the order of its rowids */
  texts: string[];
  types: NeedType[];
  needs: readonly NeedsDef[];
}

/** The built-in embeddings and the `search_needs` rows of a snapshot being built. */
export interface SearchVectors {
  embeddings: CatalogEmbeddings;
  needs: [string, Uint8Array][];
}

/**
 * Computes the vector side of the search index (the CPU-bound half of it) from plain data,
 * so that it runs the same on a worker thread (search-vectors-worker.ts) as on the caller's.
 */
export function computeSearchVectors(input: SearchVectorsInput): SearchVectors {
  const embeddings = learnCatalogEmbeddings(input.texts);
  // in the order SQLite reads search_vocabulary (by term, UTF-8 bytes): the default sort
  // (UTF-16 code units) differs from that only between characters above U+FFFF and those
  // from U+E000 to U+FFFF, and need building reads only ASCII words from it (those with a
  // pretrained vector)
  const catalogWords = embeddings.vocabulary.map(([term]) => term).sort();
  return { embeddings, needs: needIndexRows(input.types, input.needs, catalogWords) };
}

/** The buffers of a result that a worker hands over instead of copying. */
export function transferables(v: SearchVectors): ArrayBuffer[] {
  const { termDf, termBlobs, productIndex, productBlobs } = v.embeddings;
  return [termDf, termBlobs, productIndex, productBlobs].map((a) => a.buffer as ArrayBuffer);
}
