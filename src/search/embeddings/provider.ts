import type { Db } from '../../catalog/index.js';
import type { VectorMatrix } from '../snapshot-state.js';

/**
 * Where vectors come from. Query vectors are compared only with product vectors of the same
 * provider: `catalogVectors` gives those for a snapshot, or null while they are not ready.
 */
export interface EmbeddingProvider {
  /** `builtin`, or `http:<model>` */
  readonly id: string;
  /** Vector of one query for this snapshot; null when the text has nothing to embed. */
  embedQuery(db: Db, text: string): Promise<Float32Array | null>;
  /** The snapshot's product vectors of this provider; null when not (yet) available. */
  catalogVectors(db: Db): VectorMatrix | null;
}
