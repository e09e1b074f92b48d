/**
 * Sparse TF-IDF vectors over interned term ids, kept sorted so a cosine is one merge pass.
 */

/**
 * Term ids in ascending order with their L2-normalized weights: `ids` and `weights` from
 * `start` to `end` (exclusive). The arrays are the pool's, shared by every vector it built: a
 * view per vector cost ≈ 230 bytes of heap a record, these four fields ≈ 40 (issue 20).
 */
export interface SparseVector {
  readonly ids: Int32Array;
  readonly weights: Float64Array;
  readonly start: number;
  readonly end: number;
}

/**
 * Builds normalized vectors from term ids and a weight per id, all in two shared arrays: each
 * vector is a range of them, so a corpus of a million titles holds two typed arrays, not two
 * million (each with its own buffer outside the heap). Each term counts once: a word
 * repeated in one title is not more telling.
 */
export class VectorPool {
  readonly #ids: Int32Array;
  readonly #weights: Float64Array;
  #used = 0;
  /** @param capacity the total number of term ids the vectors built will be given */
  constructor(capacity: number) {
    this.#ids = new Int32Array(capacity);
    this.#weights = new Float64Array(capacity);
  }

  build(termIds: readonly number[], weightOf: (id: number) => number): SparseVector {
    const start = this.#used;
    if (start + termIds.length > this.#ids.length) throw new RangeError('VectorPool: capacity exceeded');
    const sorted = this.#ids.subarray(start, start + termIds.length);
    sorted.set(termIds);
    sorted.sort();
    let m = 0;
    for (let i = 0; i < sorted.length; i++)
      if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[m++] = sorted[i]!;
    this.#used = start + m;
    const ids = this.#ids;
    const weights = this.#weights;
    const end = start + m;
    let norm = 0;
    for (let i = start; i < end; i++) {
      const w = weightOf(ids[i]!);
      weights[i] = w;
      norm += w * w;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (let i = start; i < end; i++) weights[i]! /= norm;
    return { ids, weights, start, end };
  }
}

/** Cosine of two normalized vectors. */
export function cosine(a: SparseVector, b: SparseVector): number {
  let i = a.start;
  let j = b.start;
  let dot = 0;
  while (i < a.end && j < b.end) {
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
