/** Rounded to two decimals (prices in major units, confidences, percentages). */
export const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * The most frequent of the values that are not null; on a tie, the one seen first. Null when
 * there is none.
 */
export function mostCommon<T>(values: readonly (T | null | undefined)[]): T | null {
  const counts = new Map<T, number>();
  for (const v of values) if (v !== null && v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
  return argMax(counts).best;
}

/** The key with the highest positive score (on a tie, the first in the map's order), and that score. */
export function argMax<T>(scores: ReadonlyMap<T, number>): { best: T | null; score: number } {
  let best: T | null = null;
  let score = 0;
  for (const [key, s] of scores)
    if (s > score) {
      best = key;
      score = s;
    }
  return { best, score };
}
