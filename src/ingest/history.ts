import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import type { Db } from '../catalog/index.js';
import type { RowIssue } from './feeds/index.js';
import { parsePrice } from './normalize/index.js';

export interface HistoryReport {
  path: string;
  rows: number;
  imported: number;
  /** rows naming a retailer + id that has no offer in this catalog */
  unknown_offers: number;
  rejected: number;
  error: string | null;
}

const IN_STOCK = new Set(['in_stock', 'in stock', 'instock', 'available', 'preorder', 'backorder']);

/**
 * Imports past price observations from a CSV with the header
 * `retailer,id,date,price,sale_price,availability` into the snapshot being built. A day the
 * feeds already observed keeps the feed's row. Rows for offers this catalog does not have are
 * counted (with the first few as warnings), never fatal.
 */
export async function importHistory(db: Db, path: string, issues: RowIssue[]): Promise<HistoryReport> {
  const report: HistoryReport = { path, rows: 0, imported: 0, unknown_offers: 0, rejected: 0, error: null };
  const offerOf = db.prepare(
    `SELECT o.id FROM offers o JOIN retailers r ON r.id = o.retailer_id
     WHERE r.slug = ? AND o.retailer_item_id = ?`,
  );
  const insert = db.prepare(
    'INSERT OR IGNORE INTO price_observations (offer_id, day, price, original_price, in_stock) VALUES (?,?,?,?,?)',
  );
  const problem = (line: number, reason: string, retailer = '') => {
    if (issues.filter((i) => i.file === path).length < 50)
      issues.push({ file: path, line, retailer, severity: 'warning', reason });
  };
  const cache = new Map<string, string | null>();
  try {
    const parser = createReadStream(path).pipe(
      parse({
        columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()),
        bom: true,
        info: true,
        skip_empty_lines: true,
      }),
    );
    const batch: unknown[][] = [];
    const flush = db.transaction((rows: unknown[][]) => {
      for (const r of rows) report.imported += insert.run(...r).changes;
    });
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      report.rows++;
      const retailer = record.retailer?.trim() ?? '';
      const id = record.id?.trim() ?? '';
      const day = record.date?.trim() ?? '';
      if (!retailer || !id || !/^\d{4}-\d{2}-\d{2}$/.test(day)) {
        report.rejected++;
        problem(info.lines, 'history row needs retailer, id and date (YYYY-MM-DD)', retailer);
        continue;
      }
      const key = `${retailer}\u0000${id}`;
      let offerId = cache.get(key);
      if (offerId === undefined) {
        offerId = (offerOf.pluck().get(retailer, id) as string | undefined) ?? null;
        cache.set(key, offerId);
      }
      if (!offerId) {
        report.unknown_offers++;
        problem(info.lines, `history for unknown offer ${retailer}/${id}`, retailer);
        continue;
      }
      const price = parsePrice(record.price ?? '');
      if (!price.ok) {
        report.rejected++;
        problem(info.lines, `history price: ${price.reason}`, retailer);
        continue;
      }
      const sale = record.sale_price?.trim() ? parsePrice(record.sale_price, price.currency) : null;
      const onSale = sale?.ok && sale.amount < price.amount;
      const availability = (record.availability ?? 'in stock').trim().toLowerCase().replace(/-/g, '_');
      batch.push([
        offerId,
        day,
        onSale ? sale.amount : price.amount,
        onSale ? price.amount : null,
        IN_STOCK.has(availability) ? 1 : 0,
      ]);
      if (batch.length >= 5000) flush(batch.splice(0));
    }
    flush(batch.splice(0));
  } catch (error) {
    report.error = (error as Error).message;
    issues.push({
      file: path,
      line: 0,
      retailer: '',
      severity: 'error',
      reason: `history unreadable: ${report.error}`,
    });
  }
  return report;
}
