import { type Db, encodeSeries, observedDailyBest } from '../../catalog/index.js';

/**
 * Stores every product's daily best price series (see catalog PriceSeries) up to `day`, so
 * price intelligence and signals read one row instead of a year of observations. Runs after
 * the last price observation is written (today's, carried over and imported history).
 */
export function writePriceSeries(db: Db, day: string): number {
  const ids = db.prepare('SELECT id FROM products').pluck().all() as string[];
  const insert = db.prepare('INSERT INTO product_price_series (id, first_day, cents) VALUES (?, ?, ?)');
  let written = 0;
  db.transaction(() => {
    for (const id of ids) {
      const points = observedDailyBest(db, id, day);
      const first = points[0];
      const cents = encodeSeries(points);
      // a price too large for cents is left out: readers compute that series from observations
      if (!first || !cents) continue;
      insert.run(id, first.date, cents);
      written++;
    }
  })();
  return written;
}
