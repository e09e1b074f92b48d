import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoDay, priceHistory, saleEvents } from './history.js';
import { Random } from './random.js';

describe('demo price history', () => {
  const endMs = Date.UTC(2026, 10, 21);
  const history = (seed: number) =>
    priceHistory({
      rnd: new Random(seed),
      listPrice: 999,
      drift: -0.1,
      retailerFactor: 1,
      events: saleEvents([2025, 2026]),
      endMs,
      days: 365,
      discontinuedFromDay: null,
    });

  it('starts a year back and only records changes', () => {
    const points = history(1);
    expect(points[0]?.day).toBe(isoDay(endMs - 364 * 86_400_000));
    for (let i = 1; i < points.length; i++) {
      const [a, b] = [points[i - 1]!, points[i]!];
      expect(a.day < b.day).toBe(true);
      expect(a.price !== b.price || a.salePrice !== b.salePrice || a.inStock !== b.inStock).toBe(true);
    }
  });

  it('trends and runs sales below the regular price', () => {
    const points = history(2);
    expect(points.at(-1)!.price).toBeLessThan(points[0]!.price);
    for (const p of points) if (p.salePrice !== null) expect(p.salePrice).toBeLessThan(p.price);
    expect(points.some((p) => p.salePrice !== null)).toBe(true);
  });

  it('regression: a one-day history (demo --history-days 0) prices the feed, not NaN', () => {
    const [point] = priceHistory({
      rnd: new Random(4),
      listPrice: 999,
      drift: -0.1,
      retailerFactor: 1,
      events: [],
      endMs,
      days: 1,
      discontinuedFromDay: null,
    });
    expect(Number.isFinite(point?.price)).toBe(true);
  });

  it('regression: walking only the change days gives the points of a day-by-day walk', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.integer({ min: 30, max: 400 }),
        fc.option(fc.integer({ min: 0, max: 400 })),
        fc.double({ min: -0.3, max: 0.1, noNaN: true }),
        (seed, days, discontinuedFromDay, drift) => {
          const args = {
            listPrice: 10 + (seed % 3000),
            drift,
            retailerFactor: 0.97,
            events: saleEvents([2025, 2026]),
            endMs,
            days,
            discontinuedFromDay,
          };
          expect(priceHistory({ ...args, rnd: new Random(seed) })).toEqual(
            priceHistory({ ...args, rnd: new Random(seed), everyDay: true }),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is deterministic for a seed', () => {
    expect(history(3)).toEqual(history(3));
  });
});
