import { catalogMigrations, type Db, dayNumber, LEAN_VERSION, migrate } from '../../catalog/index.js';
import { stableUuid } from '../normalize/index.js';
import type { Reference } from './reference.js';

/**
 * The writes of a run that are not products: the snapshot's setup, retailers first seen in a
 * feed, the price history carried from the previous snapshot and the run's record. Every
 * value goes in as a bound parameter.
 */

/** Sets a new snapshot up for one bulk writer and creates its schema. */
export function prepareSnapshot(db: Db): void {
  // 8 KB pages, set before the first table: a products row (about 1.5 KB) left a quarter of
  // each 4 KB page unused, one more row fits the space an 8 KB page leaves. The 3,000-product
  // demo's file shrank by 2 % (41.6 → 40.8 MB); reads took the same time (issue 20)
  db.pragma('page_size = 8192');
  // nothing reads the file until it is checked and renamed: no journal, no fsync per commit
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  // random UUID keys spread inserts over some B-trees (offers, listings, GTINs): their pages
  // stay in the page cache. 64 MB holds them at the demo's size; what spills goes to the OS's
  // file cache (no journal, no fsync), not to disk reads. 256 MB had been a quarter of the
  // run's resident memory (issue 20).
  db.pragma('cache_size = -65536');
  // sorts that outgrow the page cache (the deferred CREATE INDEXes at the end of the write:
  // bulk-indexes.ts) go to a temporary file, i.e. to the OS's file cache, not to this process's
  // heap. In memory they had been the write's peak at the 35k demo (≈ 80 MB above the rest of
  // the phase) and grow with the catalog; the 15 indexes of a 35k snapshot rebuild in 0.65 s
  // of CPU this way against 0.83 s in memory
  db.pragma('temp_store = FILE');
  migrate(db, catalogMigrations);
}

/** Adds the retailers the authored content does not know, named after their slug. */
export function writeRetailers(db: Db, slugs: Iterable<string>, reference: Reference, now: string): void {
  const insert = db.prepare(
    'INSERT INTO retailers (id, slug, name, is_active, created_at) VALUES (?, ?, ?, 1, ?)',
  );
  for (const slug of new Set(slugs)) {
    if (reference.retailerIdBySlug.has(slug)) continue;
    const id = stableUuid(`retailer:${slug}`);
    insert.run(
      id,
      slug,
      slug.replace(/(^|-)(\w)/g, (_, dash: string, c: string) => (dash ? ' ' : '') + c.toUpperCase()),
      now,
    );
    reference.retailerIdBySlug.set(slug, id);
  }
}

/** This snapshot's offer `o` of the previous snapshot's offer `old`. */
const SAME_OFFER = `JOIN prev.retailers pr ON pr.id = old.retailer_id
           JOIN retailers r ON r.slug = pr.slug
           JOIN offers o ON o.retailer_id = r.id AND o.retailer_item_id = old.retailer_item_id`;

/**
 * Copies the previous snapshot's price observations of the offers this one still has, except
 * `day`'s (written fresh by this run): offer ids are stable, so history carries over. Offer
 * rowids are not (each snapshot numbers its offers anew), so rows are matched by the offer's
 * retailer slug and item id, what its id is made from (write-products.ts), through the
 * (retailer, item) key: the offers' ids are not indexed since schema version 9.
 * A snapshot before schema version 8 stores UUIDs, day text and prices (migrations/008);
 * its rows are converted.
 */
export function carryPriceHistory(db: Db, previousPath: string, day: string): void {
  db.prepare('ATTACH DATABASE ? AS prev').run(previousPath);
  try {
    const version = db.pragma('prev.user_version', { simple: true }) as number;
    // in the order of the observations' key, so the rows go into the table at a moving cursor
    db.prepare(
      version >= LEAN_VERSION
        ? `INSERT OR IGNORE INTO price_observations (offer_rowid, day, cents, original_cents, in_stock)
           SELECT o.rowid, po.day, po.cents, po.original_cents, po.in_stock
           FROM prev.price_observations po
           JOIN prev.offers old ON old.rowid = po.offer_rowid
           ${SAME_OFFER}
           WHERE po.day <> ? ORDER BY o.rowid, po.day`
        : `INSERT OR IGNORE INTO price_observations (offer_rowid, day, cents, original_cents, in_stock)
           SELECT o.rowid, CAST(julianday(po.day) - 2440587.5 AS INTEGER),
                  CAST(round(po.price * 100) AS INTEGER), CAST(round(po.original_price * 100) AS INTEGER),
                  po.in_stock
           FROM prev.price_observations po JOIN prev.offers old ON old.id = po.offer_id
           ${SAME_OFFER}
           WHERE po.day <> date(? * 86400, 'unixepoch') ORDER BY o.rowid, po.day`,
    ).run(dayNumber(day));
  } finally {
    db.exec('DETACH DATABASE prev');
  }
}

export interface RunRecord {
  run_id: string;
  day: string;
  started_at: string;
  built_at: string;
  report: unknown;
}

/** Records the run in the snapshot: `meta` (what the integrity check looks for) and `ingest_runs`. */
export function writeRunRecord(db: Db, run: RunRecord): void {
  const meta = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
  meta.run('built_at', run.built_at);
  meta.run('day', run.day);
  meta.run('run_id', run.run_id);
  db.prepare(
    'INSERT INTO ingest_runs (id, day, started_at, finished_at, report_json) VALUES (?,?,?,?,?)',
  ).run(run.run_id, run.day, run.started_at, new Date().toISOString(), JSON.stringify(run.report));
}

/** Gathers the statistics the query planner uses; the last write before the file is closed. */
export function analyzeSnapshot(db: Db): void {
  db.exec('ANALYZE');
}
