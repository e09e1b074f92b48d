/**
 * Sparse TF-IDF vectors over interned term ids, kept sorted so a cosine is one merge pass.
 */

/** Term ids in ascending order with their L2-normalized weights. */
export interface SparseVector {
  ids: Int32Array;
  weights: Float64Array;
}

/**
 * Builds a normalized vector from term ids and a weight per id. Each term counts once: a
 * word repeated in one title is not more telling.
 */
export function buildVector(termIds: readonly number[], weightOf: (id: number) => number): SparseVector {
  const sorted = Int32Array.from(termIds).sort();
  let m = 0;
  for (let i = 0; i < sorted.length; i++)
    if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[m++] = sorted[i]!;
  const ids = sorted.slice(0, m);
  const weights = new Float64Array(m);
  let norm = 0;
  for (let i = 0; i < m; i++) {
    const w = weightOf(ids[i]!);
    weights[i] = w;
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < m; i++) weights[i]! /= norm;
  return { ids, weights };
}

/** Cosine of two normalized vectors. */
export function cosine(a: SparseVector, b: SparseVector): number {
  let i = 0;
  let j = 0;
  let dot = 0;
  while (i < a.ids.length && j < b.ids.length) {
    const x = a.ids[i]!;
    const y = b.ids[j]!;
    if (x === y) {
      dot += a.weights[i]! * b.weights[j]!;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return dot;
}
