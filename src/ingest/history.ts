import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../catalog/index.js';
import type { RowIssue } from './feeds/index.js';
import { type StagedHistory, stageHistory } from './history-stage.js';
import { startWorker } from './worker.js';

export interface HistoryReport {
  path: string;
  rows: number;
  imported: number;
  /** rows naming a retailer + id that has no offer in this catalog */
  unknown_offers: number;
  rejected: number;
  error: string | null;
}

/** Warnings per history file at most: the counts in the report say the rest. */
const MAX_WARNINGS = 50;

/** A history file being read into a scratch file (history-stage.ts), off the main thread. */
export interface HistoryStaging {
  path: string;
  staged: Promise<{ stagePath: string; result: StagedHistory }>;
  /** removes the scratch file */
  dispose(): void;
}

/**
 * Starts reading a history CSV in a worker thread, so that parsing it (millions of rows for a
 * year of daily prices) overlaps the resolve and write phases instead of following them. Where
 * a worker cannot start, the same staging runs on this thread when awaited.
 */
export function stageHistoryFile(path: string): HistoryStaging {
  const dir = mkdtempSync(join(tmpdir(), 'shelf-history-'));
  const stagePath = join(dir, 'staged.db');
  const staged = inWorker(path, stagePath)
    .catch(() => stageHistory(path, stagePath))
    .then((result) => ({ stagePath, result }));
  // awaited later; an unhandled rejection before then must not end the process
  staged.catch(() => {});
  return { path, staged, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

function inWorker(path: string, stagePath: string): Promise<StagedHistory> {
  return new Promise((resolve, reject) => {
    const worker = startWorker('history-worker', { path, stagePath });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`history worker exited with code ${code}`)));
  });
}

/**
 * Imports past price observations from a CSV with the header
 * `retailer,id,date,price,sale_price,availability` into the snapshot being built. A day the
 * feeds already observed keeps the feed's row; of two rows of one offer and day, the first in
 * the file. Rows for offers this catalog does not have are counted (with the first few as
 * warnings), never fatal.
 */
export async function importHistory(
  db: Db,
  staging: HistoryStaging,
  issues: RowIssue[],
): Promise<HistoryReport> {
  const { path } = staging;
  const { stagePath, result } = await staging.staged;
  const report: HistoryReport = {
    path,
    rows: result.rows,
    imported: 0,
    unknown_offers: 0,
    rejected: result.rejected,
    error: result.error,
  };
  db.prepare('ATTACH DATABASE ? AS staged').run(stagePath);
  try {
    // each staged listing's offer (null when this catalog has none), by the retailer's slug
    // and item id: looked up once per listing, not once per row
    db.exec(`CREATE TEMP TABLE history_offers (listing INTEGER PRIMARY KEY, offer_rowid INTEGER);
             INSERT INTO temp.history_offers
               SELECT l.id, (SELECT o.rowid FROM retailers r JOIN offers o ON o.retailer_id = r.id
                             WHERE r.slug = l.retailer AND o.retailer_item_id = l.item_id)
               FROM staged.listings l;`);
    // in the order of the observations' key, so the rows go into the table at a moving cursor
    report.imported = db
      .prepare(
        `INSERT OR IGNORE INTO price_observations (offer_rowid, day, cents, original_cents, in_stock)
         SELECT k.offer_rowid, h.day, h.cents, h.original_cents, h.in_stock
         FROM staged.rows h JOIN temp.history_offers k ON k.listing = h.listing
         WHERE h.problem IS NULL AND k.offer_rowid IS NOT NULL
         ORDER BY k.offer_rowid, h.day, h.line`,
      )
      .run().changes;
    const counts = db
      .prepare(
        `SELECT coalesce(sum(CASE WHEN k.offer_rowid IS NULL THEN l.rows END), 0) AS unknown,
                coalesce(sum(CASE WHEN k.offer_rowid IS NOT NULL THEN l.problems END), 0) AS problems
         FROM staged.listings l JOIN temp.history_offers k ON k.listing = l.id`,
      )
      .get() as { unknown: number; problems: number };
    report.unknown_offers = counts.unknown;
    report.rejected += counts.problems;
    // the first problems in line order become warnings, as a row-by-row import would report them
    const room = MAX_WARNINGS - issues.filter((i) => i.file === path).length;
    if (room > 0) {
      // rows are read only when some have a problem (a clean file skips the scan)
      const rowProblems =
        counts.unknown + counts.problems > 0
          ? `UNION ALL
             SELECT h.line, l.retailer,
                    CASE WHEN k.offer_rowid IS NULL THEN 'history for unknown offer ' || l.retailer || '/' || l.item_id
                         ELSE h.problem END
             FROM staged.rows h JOIN temp.history_offers k ON k.listing = h.listing
             JOIN staged.listings l ON l.id = h.listing
             WHERE h.problem IS NOT NULL OR k.offer_rowid IS NULL`
          : '';
      const problems = db
        .prepare(
          `SELECT line, retailer, reason FROM (
             SELECT line, retailer, reason FROM staged.rejected ${rowProblems})
           ORDER BY line LIMIT ?`,
        )
        .all(room) as { line: number; retailer: string; reason: string }[];
      for (const p of problems)
        issues.push({
          file: path,
          line: p.line,
          retailer: p.retailer,
          severity: 'warning',
          reason: p.reason,
        });
    }
  } finally {
    db.exec('DROP TABLE IF EXISTS temp.history_offers; DETACH DATABASE staged');
  }
  if (report.error)
    issues.push({
      file: path,
      line: 0,
      retailer: '',
      severity: 'error',
      reason: `history unreadable: ${report.error}`,
    });
  return report;
}
