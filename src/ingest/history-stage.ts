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
 *   rows     — every row naming a retailer, id and date; `problem` is why its price is unusable
 *              (null when usable): such a row is rejected only if its offer exists, as before.
 *              Days and prices as price_observations stores them: day numbers and cents.
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
    db.exec(`DROP TABLE IF EXISTS rows; DROP TABLE IF EXISTS rejected;
             CREATE TABLE rows (line INTEGER NOT NULL, retailer TEXT NOT NULL, item_id TEXT NOT NULL,
               day INTEGER NOT NULL, cents INTEGER, original_cents INTEGER, in_stock INTEGER, problem TEXT);
             CREATE TABLE rejected (line INTEGER NOT NULL, retailer TEXT NOT NULL, reason TEXT NOT NULL);`);
    const insertRow = db.prepare('INSERT INTO rows VALUES (?,?,?,?,?,?,?,?)');
    const insertRejected = db.prepare('INSERT INTO rejected VALUES (?,?,?)');
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
            batch.push([info.lines, retailer, id, day, null, null, null, `history price: ${price.reason}`]);
          else {
            const sale = record.sale_price?.trim() ? parsePrice(record.sale_price, price.currency) : null;
            const onSale = sale?.ok && sale.amount < price.amount;
            const availability = (record.availability ?? 'in stock').trim().toLowerCase().replace(/-/g, '_');
            batch.push([
              info.lines,
              retailer,
              id,
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
    return staged;
  } finally {
    db.close();
  }
}
