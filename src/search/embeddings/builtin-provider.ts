import type { Db } from '../../catalog/index.js';
import { documentCount, termVector, vectorsOf } from '../snapshot-state.js';
import { embeddingTerms, embedTerms } from './builtin.js';
import type { EmbeddingProvider } from './provider.js';

/** Query side of the built-in embeddings: the snapshot's learned word vectors, no network. */
export function embedQueryBuiltin(db: Db, text: string): Float32Array | null {
  return embedTerms(embeddingTerms(text), (t) => termVector(db, t), documentCount(db));
}

export const builtinProvider: EmbeddingProvider = {
  id: 'builtin',
  embedQuery: async (db, text) => embedQueryBuiltin(db, text),
  catalogVectors: (db) => vectorsOf(db),
};
