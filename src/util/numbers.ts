/** Rounded to two decimals (prices in major units, confidences, percentages). */
export const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * The most frequent of the values that are not null; on a tie, the one seen first. Null when
 * there is none.
 */
export function mostCommon<T>(values: readonly (T | null | undefined)[]): T | null {
  const counts = new Map<T, number>();
  for (const v of values) if (v !== null && v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: T | null = null;
  let bestCount = 0;
  for (const [v, c] of counts)
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  return best;
}
