import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillDaily } from './price-queries.js';

describe('fillDaily', () => {
  const obs = (offer_id: string, day: string, price: number, in_stock = 1) => ({
    offer_id,
    day,
    price,
    in_stock,
  });

  it('carries each offer’s last price forward to every day up to `until`', () => {
    const days = fillDaily([obs('a', '2026-11-01', 100), obs('a', '2026-11-04', 90)], '2026-11-05');
    expect(days).toEqual([
      { date: '2026-11-01', price: 100 },
      { date: '2026-11-02', price: 100 },
      { date: '2026-11-03', price: 100 },
      { date: '2026-11-04', price: 90 },
      { date: '2026-11-05', price: 90 },
    ]);
  });

  it('takes the lowest in-stock price, or the lowest price when nothing is in stock', () => {
    const days = fillDaily(
      [obs('a', '2026-11-01', 100), obs('b', '2026-11-01', 80, 0), obs('a', '2026-11-02', 120, 0)],
      '2026-11-02',
    );
    expect(days).toEqual([
      { date: '2026-11-01', price: 100 },
      { date: '2026-11-02', price: 80 },
    ]);
  });

  it('is empty without observations', () => {
    expect(fillDaily([], '2026-11-02')).toEqual([]);
  });
});

describe('fillDaily, for any observations', () => {
  it('gives one point per day from the first observation to `until`, each an observed price', () => {
    const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
    const observation = fc.record({
      offer_id: fc.constantFrom('a', 'b', 'c'),
      at: fc.integer({ min: 0, max: 400 }),
      price: fc.integer({ min: 1, max: 100_000 }).map((c) => c / 100),
      in_stock: fc.constantFrom(0, 1),
    });
    fc.assert(
      fc.property(
        fc.array(observation, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 30 }),
        (raw, extra) => {
          const sorted = [...raw].sort((x, y) => x.at - y.at);
          const observations = sorted.map((o) => ({ ...o, day: day(o.at) }));
          const until = (sorted.at(-1)?.at ?? 0) + extra;
          const days = fillDaily(observations, day(until));
          expect(days.map((d) => d.date)).toEqual(
            Array.from({ length: until - (sorted[0]?.at ?? 0) + 1 }, (_, k) => day((sorted[0]?.at ?? 0) + k)),
          );
          const prices = new Set(observations.map((o) => o.price));
          for (const d of days) expect(prices.has(d.price)).toBe(true);
        },
      ),
    );
  });
});
