import type { Listing } from './listing.js';

/** Default most share a retailer's feed, or the visible catalog, may shrink by in one run. */
export const DEFAULT_MAX_DROP = 0.3;

const pct = (share: number) => `${Math.round(share * 1000) / 10} %`;

/**
 * Why a retailer's freshly read feed must not replace its listings, or null when it may.
 * A feed that lost more than `maxDrop` of the rows its previous accepted feed had is more
 * likely a truncated export than a retailer that dropped a third of its range overnight; a
 * feed whose rows mostly lack a price would turn its products into legacy (no priced offer)
 * and hide them. Either way the retailer keeps its previous listings until an operator
 * accepts the feed with `--force`.
 */
export function feedHoldReason(
  listings: readonly Pick<Listing, 'price'>[],
  previousRows: number | undefined,
  maxDrop: number,
): string | null {
  const rows = listings.length;
  if (previousRows !== undefined && previousRows > 0 && rows < previousRows * (1 - maxDrop))
    return `${rows} accepted rows against ${previousRows} in its previous feed (${pct(
      1 - rows / previousRows,
    )} fewer; at most ${pct(maxDrop)} allowed)`;
  const unpriced = listings.filter((l) => l.price === null).length;
  if (rows > 0 && unpriced > rows * maxDrop)
    return `${unpriced} of ${rows} accepted rows have no usable price (at most ${pct(maxDrop)} may lack one)`;
  return null;
}

/** Why a built catalog must not be published because it shows too few products, or null. */
export function visibleShrinkReason(before: number, after: number, maxDrop: number): string | null {
  if (before > 0 && after < before * (1 - maxDrop))
    return `visible products would drop from ${before} to ${after} (${pct(1 - after / before)} fewer; at most ${pct(
      maxDrop,
    )} allowed)`;
  return null;
}
