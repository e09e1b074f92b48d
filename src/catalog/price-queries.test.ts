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
