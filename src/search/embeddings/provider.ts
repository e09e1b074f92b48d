import type { Db } from '../../catalog/index.js';

/**
 * Where query vectors come from. The product vectors a provider's query vectors are compared
 * with must come from the same provider (see `vectorsFor`).
 */
export interface EmbeddingProvider {
  /** `builtin`, or `http:<model>` */
  readonly id: string;
  /** Vector of one query for this snapshot; null when the text has nothing to embed. */
  embedQuery(db: Db, text: string): Promise<Float32Array | null>;
}
