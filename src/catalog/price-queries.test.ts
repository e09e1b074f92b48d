import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { insertOffer } from '../../test/helpers/snapshot-rows.js';
import { type Db, migrate } from './database.js';
import {
  dayNumber,
  fillDaily,
  observedDailyBest,
  priceVerdict,
  retailerPriceLines,
} from './price-queries.js';
import { CATALOG_SCHEMA_VERSION, catalogMigrations, LEAN_VERSION } from './schema.js';

describe('fillDaily', () => {
  const obs = (offer_id: string, day: string, price: number, in_stock = 1) => ({
    offer_id,
    day: dayNumber(day),
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
          const observations = sorted.map((o) => ({ ...o, day: dayNumber(day(o.at)) }));
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

describe('priceVerdict', () => {
  const days = (prices: number[]) =>
    prices.map((price, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, price }));

  it('says "lowest price in N days" when the current price is the window low and the history covers the window', () => {
    const history = days([...Array(30).fill(120), 100]).slice(-30);
    const v = priceVerdict(100, history, 118, 30);
    expect(v).toMatchObject({
      kind: 'lowest',
      text: 'lowest price in 30 days',
      window_low: 100,
      window_high: 120,
      near_low: true,
    });
  });

  it('names the recorded days when the history is shorter than the window asked for', () => {
    expect(priceVerdict(90, days([100, 95, 90]), 95, 90).text).toBe('lowest price in its 3 days of history');
  });

  it('gives the distance to the 30-day average in whole percent, above and below', () => {
    const history = days([100, 90, 110, 103]);
    expect(priceVerdict(103, history, 100, 4)).toMatchObject({
      kind: 'above_average',
      text: '3 % above its 30-day average',
      vs_avg_30d_percent: 3,
    });
    expect(priceVerdict(95, days([100, 90, 110, 95]), 100, 4)).toMatchObject({
      kind: 'below_average',
      text: '5 % below its 30-day average',
    });
    expect(priceVerdict(100.2, days([100.2, 90, 110]), 100, 3)).toMatchObject({
      kind: 'at_average',
      text: 'at its 30-day average',
    });
  });

  it('one observation: the same price for its one day of history', () => {
    expect(priceVerdict(50, days([50]), 50, 90)).toMatchObject({
      kind: 'unchanged',
      text: 'same price for its 1 day of history',
      window_days: 1,
    });
  });

  it('a flat price over the whole window is "same price", not "lowest"', () => {
    expect(priceVerdict(80, days(Array(7).fill(80)), 80, 7)).toMatchObject({
      kind: 'unchanged',
      text: 'same price for 7 days',
      near_low: true,
    });
  });

  it('no offers: no price and no history', () => {
    expect(priceVerdict(null, [], null, 30)).toEqual({
      kind: 'no_price',
      text: 'no retailer has a current price',
      window_days: 0,
      window_low: null,
      window_high: null,
      vs_avg_30d_percent: null,
      near_low: false,
    });
    expect(priceVerdict(10, [], null, 30)).toMatchObject({
      kind: 'no_history',
      text: 'no price history yet',
    });
  });

  it('near_low is true within 5 % of the window low only', () => {
    expect(priceVerdict(104.9, days([100, 120, 104.9]), 110, 3).near_low).toBe(true);
    expect(priceVerdict(105.1, days([100, 120, 105.1]), 110, 3).near_low).toBe(false);
  });

  it('always gives a kind and non-empty text (property)', () => {
    fc.assert(
      fc.property(
        fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }), { nil: null }),
        fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { maxLength: 40 }),
        fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }), { nil: null }),
        fc.integer({ min: 1, max: 365 }),
        (current, prices, avg, window) => {
          const v = priceVerdict(current, days(prices.slice(0, 28)), avg, window);
          expect(v.text.length).toBeGreaterThan(0);
          expect(Number.isFinite(v.vs_avg_30d_percent ?? 0)).toBe(true);
        },
      ),
    );
  });
});

describe('price observations, as snapshots of each layout store them', () => {
  // one product, two retailers; rows only where a price or stock changed
  const changes = [
    { offer: 'a', day: '2026-11-01', price: 100, inStock: 1 },
    { offer: 'b', day: '2026-11-03', price: 80, inStock: 0 },
    { offer: 'a', day: '2026-11-05', price: 89.99, inStock: 1 },
    { offer: 'b', day: '2026-11-08', price: 85.5, inStock: 1 },
  ];
  const snapshot = (version: number): Db => {
    const db = new Database(':memory:');
    migrate(
      db,
      catalogMigrations.filter((m) => m.version <= version),
    );
    const now = '2026-11-10T00:00:00Z';
    db.prepare("INSERT INTO meta (key, value) VALUES ('day', '2026-11-10')").run();
    const retailer = db.prepare('INSERT INTO retailers (id, slug, name, created_at) VALUES (?, ?, ?, ?)');
    retailer.run('r-a', 'alpha', 'Alpha', now);
    retailer.run('r-b', 'beta', 'Beta', now);
    db.prepare('INSERT INTO products (id, slug, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(
      'p',
      'p',
      'P',
      now,
      now,
    );
    const rowid = new Map<string, number | bigint>();
    for (const o of ['a', 'b'])
      rowid.set(
        o,
        insertOffer(db, { id: o, productId: 'p', retailerId: `r-${o}`, itemId: o, title: 'P', seenAt: now }),
      );
    for (const c of changes)
      if (version >= LEAN_VERSION)
        db.prepare('INSERT INTO price_observations VALUES (?, ?, ?, NULL, ?)').run(
          rowid.get(c.offer),
          dayNumber(c.day),
          Math.round(c.price * 100),
          c.inStock,
        );
      else
        db.prepare('INSERT INTO price_observations VALUES (?, ?, ?, NULL, ?)').run(
          c.offer,
          c.day,
          c.price,
          c.inStock,
        );
    return db;
  };

  for (const version of [LEAN_VERSION - 1, LEAN_VERSION, CATALOG_SCHEMA_VERSION])
    it(`holds each price until its offer's next row (schema version ${version})`, () => {
      const db = snapshot(version);
      const best = observedDailyBest(db, 'p', '2026-11-10');
      expect(best.map((d) => d.price)).toEqual([100, 100, 100, 100, 89.99, 89.99, 89.99, 85.5, 85.5, 85.5]);
      expect(best[0]?.date).toBe('2026-11-01');
      const lines = retailerPriceLines(db, 'p', 7);
      expect(lines.map((l) => l.retailer)).toEqual(['Alpha', 'Beta']);
      expect(lines[0]?.points.map((p) => p.price)).toEqual([100, 89.99, 89.99, 89.99, 89.99, 89.99, 89.99]);
      expect(lines[1]?.points.map((p) => p.price)).toEqual([80, 80, 80, 80, 85.5, 85.5, 85.5]);
      expect(lines[1]?.points[0]?.date).toBe('2026-11-04');
    });
});
