import { type Db, dayNumber, packCents } from '../../catalog/index.js';
import { round2 } from '../../util/index.js';

/** Products whose observations are read at once. */
const CHUNK = 500;
const DAY_MS = 86_400_000;
/** Series start at most ten years back (catalog `fillDaily`). */
const MAX_DAYS = 3650;
const MAX_CENTS = 2 ** 31 - 1;

/**
 * Stores every product's daily best price series (see catalog PriceSeries) up to `day`, so
 * price intelligence and signals read one row instead of a year of observations. Runs after
 * the last price observation is written (today's, carried over and imported history).
 *
 * The same pass keeps price_observations to one row per change (migrations/008): a row that
 * repeats its offer's previous price, original price and stock (today's feed price that did
 * not move, daily rows of an imported history) says nothing the previous row does not, and is
 * deleted. Returns the number of series written.
 */
export function writePriceSeries(db: Db, day: string): number {
  const products = db.prepare('SELECT rowid, id FROM products ORDER BY id').raw().all() as [number, string][];
  // offer_rows by product rowid, not the offers view: the view joins each offer's product and
  // retailer back for their UUIDs, a fifth of this query's time with a year of history
  const observations = db
    .prepare(
      `SELECT o.product_rowid, po.offer_rowid, po.day, po.cents, po.original_cents, po.in_stock
       FROM offer_rows o JOIN price_observations po ON po.offer_rowid = o.rowid
       WHERE o.product_rowid IN (SELECT value FROM json_each(?)) AND po.day <= ?
       ORDER BY o.product_rowid, po.day`,
    )
    .raw();
  const insert = db.prepare('INSERT INTO product_price_series (id, first_day, cents) VALUES (?, ?, ?)');
  const unchanged = db.prepare('DELETE FROM price_observations WHERE offer_rowid = ? AND day = ?');
  const series = new DailyBest(dayNumber(day));
  // each offer's last row in this chunk: cents, original cents and stock
  const previous = new Map<number, [number, number | null, number]>();
  let written = 0;
  // a chunk's series by product rowid, written in id order once the chunk is read
  const chunkSeries = new Map<number, { firstDay: string; cents: Buffer }>();
  const finish = (rowid: number) => {
    const encoded = series.finish();
    // a price too large for cents is left out: readers compute that series from observations
    if (encoded) chunkSeries.set(rowid, encoded);
  };
  db.transaction(() => {
    for (let at = 0; at < products.length; at += CHUNK) {
      const chunk = products.slice(at, at + CHUNK);
      let current: number | null = null;
      previous.clear();
      chunkSeries.clear();
      // read whole (a connection cannot write while a statement iterates), one chunk at a time
      for (const [productRowid, offer, obsDay, cents, originalCents, inStock] of observations.all(
        JSON.stringify(chunk.map(([rowid]) => rowid)),
        dayNumber(day),
      ) as [number, number, number, number, number | null, number][]) {
        if (productRowid !== current) {
          if (current !== null) finish(current);
          current = productRowid;
        }
        const last = previous.get(offer);
        if (last && last[0] === cents && last[1] === originalCents && last[2] === inStock)
          unchanged.run(offer, obsDay);
        else previous.set(offer, [cents, originalCents, inStock]);
        series.add(offer, obsDay, cents / 100, inStock === 1);
      }
      if (current !== null) finish(current);
      for (const [rowid, id] of chunk) {
        const encoded = chunkSeries.get(rowid);
        if (!encoded) continue;
        insert.run(id, encoded.firstDay, encoded.cents);
        written++;
      }
    }
  })();
  return written;
}

/**
 * One product's daily best price, built from its observations in day order: the same series
 * as catalog `fillDaily` + `encodeSeries` (a price holds until its offer's next observation;
 * each day's best is the lowest in-stock price, else the lowest), computed once per change
 * instead of once per day and offer, straight into cents.
 */
export class DailyBest {
  #offers = new Map<number | string, number>();
  #prices: number[] = [];
  #inStock: boolean[] = [];
  #days: number[] = [];
  #slots: number[] = [];
  #obsPrices: number[] = [];
  #obsStock: boolean[] = [];

  constructor(readonly lastDay: number) {}

  add(offerId: number | string, day: number, price: number, inStock: boolean): void {
    let slot = this.#offers.get(offerId);
    if (slot === undefined) {
      slot = this.#offers.size;
      this.#offers.set(offerId, slot);
    }
    this.#days.push(day);
    this.#slots.push(slot);
    this.#obsPrices.push(price);
    this.#obsStock.push(inStock);
  }

  /** The series of the observations added since the last call, then forgets them; null if a price does not fit. */
  finish(): { firstDay: string; cents: Buffer } | null {
    const days = this.#days;
    const n = days.length;
    try {
      if (n === 0) return null;
      const start = Math.max(days[0]!, this.lastDay - (MAX_DAYS - 1));
      if (start > this.lastDay) return null;
      const cents = Buffer.alloc((this.lastDay - start + 1) * 4);
      const prices = this.#prices;
      const stock = this.#inStock;
      prices.length = 0;
      stock.length = 0;
      let i = 0;
      let value = 0;
      for (let d = start; d <= this.lastDay; d++) {
        if (i < n && days[i]! <= d) {
          for (; i < n && days[i]! <= d; i++) {
            const slot = this.#slots[i]!;
            while (prices.length <= slot) {
              prices.push(Number.POSITIVE_INFINITY);
              stock.push(false);
            }
            prices[slot] = this.#obsPrices[i]!;
            stock[slot] = this.#obsStock[i]!;
          }
          let bestIn = Number.POSITIVE_INFINITY;
          let bestAny = Number.POSITIVE_INFINITY;
          for (let s = 0; s < prices.length; s++) {
            const price = prices[s]!;
            if (stock[s] && price < bestIn) bestIn = price;
            if (price < bestAny) bestAny = price;
          }
          value = Math.round(round2(bestIn < Number.POSITIVE_INFINITY ? bestIn : bestAny) * 100);
          if (!(value >= 0 && value <= MAX_CENTS)) return null;
        }
        cents.writeInt32LE(value, (d - start) * 4);
      }
      return { firstDay: new Date(start * DAY_MS).toISOString().slice(0, 10), cents: packCents(cents) };
    } finally {
      this.#offers.clear();
      days.length = 0;
      this.#slots.length = 0;
      this.#obsPrices.length = 0;
      this.#obsStock.length = 0;
    }
  }
}
