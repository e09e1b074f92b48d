import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { downsample, HISTORY_POINTS } from './prices.js';

const day = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
const history = fc
  .array(fc.integer({ min: 100, max: 500_000 }), { minLength: 0, maxLength: 365 })
  .map((cents) => cents.map((c, i) => ({ date: day(i), price: c / 100 })));

describe('downsample (price history shown to agents)', () => {
  it('keeps at most HISTORY_POINTS points in date order, the latest point and the lowest price', () => {
    fc.assert(
      fc.property(history, (h) => {
        const out = downsample(h);
        expect(out.length).toBeLessThanOrEqual(HISTORY_POINTS);
        if (!h.length) {
          expect(out).toEqual([]);
          return;
        }
        expect(out.at(-1)).toEqual(h.at(-1));
        expect(Math.min(...out.map((p) => p.price))).toBe(Math.min(...h.map((p) => p.price)));
        const dates = out.map((p) => p.date);
        expect([...dates].sort()).toEqual(dates);
        expect(new Set(dates).size).toBe(dates.length);
      }),
    );
  });

  it('returns short histories unchanged', () => {
    const h = [
      { date: '2026-01-01', price: 10 },
      { date: '2026-01-02', price: 9 },
    ];
    expect(downsample(h)).toBe(h);
  });
});
