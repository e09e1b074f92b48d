import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_DROP, feedHoldReason, visibleShrinkReason } from './guards.js';
import type { Listing } from './listing.js';

const listings = (priced: number, unpriced = 0) =>
  Array.from({ length: priced + unpriced }, (_, i) => ({ price: i < priced ? 10 : null }) as Listing);

describe('feed guards', () => {
  it('holds a feed that lost more than the share of its previous rows, not one at the share', () => {
    expect(feedHoldReason(listings(70), 100, DEFAULT_MAX_DROP)).toBeNull();
    expect(feedHoldReason(listings(69), 100, DEFAULT_MAX_DROP)).toBe(
      '69 accepted rows against 100 in its previous feed (31 % fewer; at most 30 % allowed)',
    );
    expect(feedHoldReason(listings(3), 555, 0.3)).toMatch(/^3 accepted rows against 555 .*\(99\.5 % fewer;/);
  });

  it('holds a feed whose rows mostly lack a price, new retailers included', () => {
    expect(feedHoldReason(listings(0, 50), undefined, 0.3)).toBe(
      '50 of 50 accepted rows have no usable price (at most 30 % may lack one)',
    );
    expect(feedHoldReason(listings(7, 3), undefined, 0.3)).toBeNull();
    expect(feedHoldReason(listings(6, 4), 10, 0.3)).toMatch(/^4 of 10 accepted rows have no usable price/);
  });

  it('never holds a fully priced feed that did not shrink', () => {
    fc.assert(
      fc.property(
        fc.nat(500),
        fc.nat(500),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (previous, extra, share) => {
          expect(feedHoldReason(listings(previous + extra), previous, share)).toBeNull();
        },
      ),
    );
  });

  it('refuses a catalog that would hide more than the share of its visible products', () => {
    expect(visibleShrinkReason(31_987, 0, 0.3)).toBe(
      'visible products would drop from 31987 to 0 (100 % fewer; at most 30 % allowed)',
    );
    expect(visibleShrinkReason(555, 3, 0.3)).toMatch(/^visible products would drop from 555 to 3/);
    expect(visibleShrinkReason(100, 70, 0.3)).toBeNull();
    // a first catalog has nothing to shrink from
    expect(visibleShrinkReason(0, 0, 0.3)).toBeNull();
  });
});
