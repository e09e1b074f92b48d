import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { dayNumber, openWritable, toCents } from '../catalog/index.js';
import { parsePrice } from './normalize/index.js';

/**
 * The first half of a price-history import, which needs no catalog: reads a history CSV
 * (`retailer,id,date,price,sale_price,availability`) and stages its rows in a scratch SQLite
 * file, in file order with their line numbers. Runs in a worker thread while the main thread
 * resolves and writes the catalog (see history.ts); the second half joins the staged rows to
 * the snapshot's offers in one statement.
 *
 * Staged tables:
 *   listings — each retailer + id the file names, once, with its numbers of rows and of rows
 *              with a problem: the import
 *              looks each listing's offer up once instead of once per row (a year of prices
 *              is hundreds of rows per listing)
 *   rows     — every row naming a retailer, id and date, by its listing; `problem` is why its
 *              price is unusable (null when usable): such a row is rejected only if its offer
 *              exists, as before. Days and prices as price_observations stores them: day
 *              numbers and cents.
 *   rejected — rows lacking retailer, id or date
 */
export interface StagedHistory {
  rows: number;
  rejected: number;
  error: string | null;
}

const IN_STOCK = new Set(['in_stock', 'in stock', 'instock', 'available', 'preorder', 'backorder']);
/** Rows written per transaction of the scratch file. */
const BATCH = 5000;

export async function stageHistory(path: string, stagePath: string): Promise<StagedHistory> {
  const staged: StagedHistory = { rows: 0, rejected: 0, error: null };
  const db = openWritable(stagePath);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec(`DROP TABLE IF EXISTS listings; DROP TABLE IF EXISTS rows; DROP TABLE IF EXISTS rejected;
             CREATE TABLE listings (id INTEGER PRIMARY KEY, retailer TEXT NOT NULL, item_id TEXT NOT NULL,
               rows INTEGER NOT NULL, problems INTEGER NOT NULL);
             CREATE TABLE rows (line INTEGER NOT NULL, listing INTEGER NOT NULL,
               day INTEGER NOT NULL, cents INTEGER, original_cents INTEGER, in_stock INTEGER, problem TEXT);
             CREATE TABLE rejected (line INTEGER NOT NULL, retailer TEXT NOT NULL, reason TEXT NOT NULL);`);
    const insertRow = db.prepare('INSERT INTO rows VALUES (?,?,?,?,?,?,?)');
    const insertRejected = db.prepare('INSERT INTO rejected VALUES (?,?,?)');
    // retailer → id → [listing number, rows, rows with a problem]
    const listings = new Map<string, Map<string, [number, number, number]>>();
    let listingCount = 0;
    const listingOf = (retailer: string, id: string, problem: boolean): number => {
      let ids = listings.get(retailer);
      if (!ids) {
        ids = new Map();
        listings.set(retailer, ids);
      }
      const known = ids.get(id);
      if (known) {
        known[1]++;
        if (problem) known[2]++;
        return known[0];
      }
      ids.set(id, [++listingCount, 1, problem ? 1 : 0]);
      return listingCount;
    };
    const batch: unknown[][] = [];
    const flush = db.transaction((items: unknown[][]) => {
      for (const r of items) (r.length === 3 ? insertRejected : insertRow).run(...r);
    });
    try {
      const parser = createReadStream(path).pipe(
        parse({
          columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()),
          bom: true,
          info: true,
          skip_empty_lines: true,
        }),
      );
      for await (const { record, info } of parser as AsyncIterable<{
        record: Record<string, string>;
        info: { lines: number };
      }>) {
        staged.rows++;
        const retailer = record.retailer?.trim() ?? '';
        const id = record.id?.trim() ?? '';
        const date = record.date?.trim() ?? '';
        const day = /^\d{4}-\d{2}-\d{2}$/.test(date) ? dayNumber(date) : Number.NaN;
        if (!retailer || !id || !Number.isFinite(day)) {
          staged.rejected++;
          batch.push([info.lines, retailer, 'history row needs retailer, id and date (YYYY-MM-DD)']);
        } else {
          const price = parsePrice(record.price ?? '');
          if (!price.ok)
            batch.push([
              info.lines,
              listingOf(retailer, id, true),
              day,
              null,
              null,
              null,
              `history price: ${price.reason}`,
            ]);
          else {
            const sale = record.sale_price?.trim() ? parsePrice(record.sale_price, price.currency) : null;
            const onSale = sale?.ok && sale.amount < price.amount;
            const availability = (record.availability ?? 'in stock').trim().toLowerCase().replace(/-/g, '_');
            batch.push([
              info.lines,
              listingOf(retailer, id, false),
              day,
              toCents(onSale ? sale.amount : price.amount),
              onSale ? toCents(price.amount) : null,
              IN_STOCK.has(availability) ? 1 : 0,
              null,
            ]);
          }
        }
        if (batch.length >= BATCH) flush(batch.splice(0));
      }
    } catch (error) {
      // what was read before the error is still imported, as a streaming import would have
      staged.error = (error as Error).message;
    }
    flush(batch.splice(0));
    const insertListing = db.prepare('INSERT INTO listings VALUES (?,?,?,?,?)');
    db.transaction(() => {
      for (const [retailer, ids] of listings)
        for (const [id, [n, rows, problems]] of ids) insertListing.run(n, retailer, id, rows, problems);
    })();
    return staged;
  } finally {
    db.close();
  }
}
