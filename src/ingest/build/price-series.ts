import { type Db, encodeSeries, fillDaily, type PriceObservation } from '../../catalog/index.js';

/** Products whose observations are read at once. */
const CHUNK = 500;

/**
 * Stores every product's daily best price series (see catalog PriceSeries) up to `day`, so
 * price intelligence and signals read one row instead of a year of observations. Runs after
 * the last price observation is written (today's, carried over and imported history).
 */
export function writePriceSeries(db: Db, day: string): number {
  const ids = db.prepare('SELECT id FROM products ORDER BY id').pluck().all() as string[];
  const observations = db
    .prepare(
      `SELECT o.product_id, po.offer_id, po.day, po.price, po.in_stock
       FROM offers o JOIN price_observations po ON po.offer_id = o.id
       WHERE o.product_id IN (SELECT value FROM json_each(?)) AND po.day <= ?
       ORDER BY o.product_id, po.day`,
    )
    .raw();
  const insert = db.prepare('INSERT INTO product_price_series (id, first_day, cents) VALUES (?, ?, ?)');
  let written = 0;
  const write = (id: string, rows: PriceObservation[]) => {
    const points = fillDaily(rows, day);
    const first = points[0];
    const cents = encodeSeries(points);
    // a price too large for cents is left out: readers compute that series from observations
    if (!first || !cents) return;
    insert.run(id, first.date, cents);
    written++;
  };
  db.transaction(() => {
    for (let at = 0; at < ids.length; at += CHUNK) {
      let current: string | null = null;
      let rows: PriceObservation[] = [];
      for (const [productId, offerId, obsDay, price, inStock] of observations.all(
        JSON.stringify(ids.slice(at, at + CHUNK)),
        day,
      ) as [string, string, string, number, number][]) {
        if (productId !== current) {
          if (current !== null) write(current, rows);
          current = productId;
          rows = [];
        }
        rows.push({ offer_id: offerId, day: obsDay, price, in_stock: inStock });
      }
      if (current !== null) write(current, rows);
    }
  })();
  return written;
}
