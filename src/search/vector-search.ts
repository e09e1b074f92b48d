import { dot, dotInt8 } from './dot.js';
import type { Ranked } from './keyword.js';
import type { VectorMatrix } from './snapshot-state.js';

/**
 * Exact nearest neighbours by cosine (vectors are unit length, so a dot product): a full
 * scan of the snapshot's matrix. sqlite-vec has no build for this Node, and an exact scan
 * over 35k × 256 float32 is a few milliseconds, so an approximate index would buy nothing.
 * `allow` restricts the scan to products that pass the filters (by rowid).
 */
export function vectorRanking(
  matrix: VectorMatrix,
  query: Float32Array,
  options: { limit: number; allow?: ((rowid: number) => boolean) | null; minScore?: number },
): Ranked[] {
  const { dims, rowids } = matrix;
  if (dims === 0 || query.length !== dims) return [];
  const score = scorer(matrix, query);
  const k = Math.max(1, options.limit);
  const minScore = options.minScore ?? -Infinity;
  const topScore: number[] = [];
  const topRow: number[] = [];
  const n = rowids.length;
  for (let row = 0; row < n; row++) {
    const rowid = rowids[row]!;
    if (options.allow && !options.allow(rowid)) continue;
    const s = score(row);
    if (s < minScore) continue;
    if (topScore.length === k && s <= topScore[k - 1]!) continue;
    // insertion into the sorted top-k (k is small next to n)
    let at = topScore.length < k ? topScore.length : k - 1;
    while (at > 0 && topScore[at - 1]! < s) at--;
    topScore.splice(at, 0, s);
    topRow.splice(at, 0, rowid);
    if (topScore.length > k) {
      topScore.pop();
      topRow.pop();
    }
  }
  return topRow.map((rowid, i) => ({ rowid, score: topScore[i]! }));
}

/** Cosine of the query with each given product (reranking a known candidate set). */
export function vectorScores(
  matrix: VectorMatrix,
  query: Float32Array,
  rowids: number[],
): Map<number, number> {
  const out = new Map<number, number>();
  const { dims, rowOf } = matrix;
  if (dims === 0 || query.length !== dims) return out;
  const score = scorer(matrix, query);
  for (const rowid of rowids) {
    const row = rowid < rowOf.length ? rowOf[rowid]! : -1;
    if (row < 0) continue;
    out.set(rowid, score(row));
  }
  return out;
}

/** The cosine of `query` with a row of the matrix, for either kind of components. */
function scorer(matrix: VectorMatrix, query: Float32Array): (row: number) => number {
  const { dims } = matrix;
  if (matrix.scales === null) {
    const data = matrix.data;
    return (row) => dot(data, row * dims, query, dims);
  }
  const { data, scales } = matrix;
  return (row) => dotInt8(data, row * dims, query, dims) * scales[row]!;
}

/** Adds `weight` × a row of the matrix to `out` (a centroid of rows). */
export function addRow(matrix: VectorMatrix, row: number, out: Float32Array, weight = 1): void {
  const { dims, data } = matrix;
  const w = matrix.scales === null ? weight : weight * matrix.scales[row]!;
  for (let i = 0; i < dims; i++) out[i]! += w * data[row * dims + i]!;
}
