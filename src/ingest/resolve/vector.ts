/**
 * Sparse TF-IDF vectors over interned term ids, kept sorted so a cosine is one merge pass.
 */

/** Term ids in ascending order with their L2-normalized weights. */
export interface SparseVector {
  ids: Int32Array;
  weights: Float64Array;
}

/** Builds a normalized vector from term ids (each counted once: a repeated word is not more telling) and a weight per id. */
export function buildVector(termIds: number[], weightOf: (id: number) => number): SparseVector {
  const acc = new Map<number, number>();
  for (const id of new Set(termIds)) acc.set(id, weightOf(id));
  const ids = Int32Array.from([...acc.keys()].sort((a, b) => a - b));
  const weights = new Float64Array(ids.length);
  let norm = 0;
  for (let i = 0; i < ids.length; i++) {
    const w = acc.get(ids[i]!)!;
    weights[i] = w;
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < weights.length; i++) weights[i]! /= norm;
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
