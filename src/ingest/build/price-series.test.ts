import { inflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeSeries, fillDaily } from '../../catalog/index.js';
import { DailyBest } from './price-series.js';

const DAY_MS = 86_400_000;
const base = Date.UTC(2016, 0, 1) / DAY_MS;
const name = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

describe('DailyBest, for any observations', () => {
  it('stores the same series as the catalog reader computes (fillDaily + encodeSeries)', () => {
    const observation = fc.record({
      offer: fc.constantFrom('a', 'b', 'c', 'd'),
      at: fc.integer({ min: 0, max: 4000 }),
      price: fc.oneof(
        fc.integer({ min: 0, max: 100_000 }).map((c) => c / 100),
        fc.double({ min: 0, max: 1e7, noNaN: true }),
        fc.constant(3e7),
      ),
      inStock: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(observation, { selector: (o) => `${o.offer}:${o.at}`, maxLength: 40 }),
        fc.integer({ min: 0, max: 4100 }),
        (raw, until) => {
          const sorted = [...raw].sort((x, y) => x.at - y.at).filter((o) => o.at <= until);
          const series = new DailyBest(base + until);
          for (const o of sorted) series.add(o.offer, base + o.at, o.price, o.inStock);
          const fast = series.finish();
          const points = fillDaily(
            sorted.map((o) => ({
              offer_id: o.offer,
              day: base + o.at,
              price: o.price,
              in_stock: o.inStock ? 1 : 0,
            })),
            name(base + until),
          );
          const cents = encodeSeries(points);
          if (!points[0] || !cents) expect(fast).toBeNull();
          else expect(fast).toEqual({ firstDay: points[0].date, cents });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('forgets one product before the next', () => {
    const series = new DailyBest(base + 2);
    series.add('a', base, 10, true);
    // stored packed (catalog packCents): three days of Int32 cents once inflated
    expect(inflateRawSync(series.finish()!.cents).length).toBe(12);
    series.add('b', base + 2, 20, false);
    const next = series.finish();
    expect(next?.firstDay).toBe(name(base + 2));
    expect(inflateRawSync(next!.cents).readInt32LE(0)).toBe(2000);
  });
});
