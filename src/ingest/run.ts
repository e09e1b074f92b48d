import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  catalogMigrations,
  currentSnapshotPath,
  discardSnapshot,
  migrate,
  newSnapshotPath,
  openWritable,
  publishSnapshot,
} from '../catalog/index.js';
import { type Content, loadContent } from '../content/index.js';
import { buildSearchIndex } from '../search/index.js';
import { assembleProduct } from './build/assemble.js';
import { type Classification, Classifier } from './build/classify.js';
import { readPrevious } from './build/previous.js';
import { writeReference } from './build/reference.js';
import type { Resolver } from './build/resolver.js';
import { writeProducts } from './build/write-products.js';
import { type FeedSource, type RowIssue, readFeed } from './feeds/index.js';
import { type Listing, normalizeRow } from './listing.js';
import { slugify, stableUuid } from './normalize/index.js';
import { resolveListings } from './resolve/index.js';

export interface IngestOptions {
  dataDir: string;
  feeds: FeedSource[];
  /** authored content; loaded from the project's data/ folder when omitted */
  content?: Content;
  /** the day of the price observations (YYYY-MM-DD, UTC); default today */
  day?: string;
  /** entity resolution; default {@link resolveListings} (`resolveByIdentifiers` is the GTIN+MPN baseline) */
  resolver?: Resolver;
  /** progress callback: phase name and counts */
  onProgress?: (event: { phase: string; done?: number; total?: number }) => void;
}

export interface FeedReport {
  path: string;
  retailer: string;
  rows: number;
  listings: number;
  rejected: number;
  warnings: number;
  error: string | null;
}

export interface IngestReport {
  run_id: string;
  day: string;
  published: boolean;
  snapshot: string | null;
  feeds: FeedReport[];
  products: number;
  offers: number;
  issues: RowIssue[];
  duration_ms: number;
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The write path: reads every feed, normalizes, classifies and resolves listings into
 * products, writes a complete new snapshot beside the published one and publishes it
 * atomically. A feed that cannot be read fails alone; if none can be read, nothing is published.
 */
export async function runIngest(options: IngestOptions): Promise<IngestReport> {
  const started = Date.now();
  const now = new Date().toISOString();
  const day = options.day ?? today();
  const content = options.content ?? loadContent();
  const progress = options.onProgress ?? (() => {});
  const issues: RowIssue[] = [];
  const feedReports: FeedReport[] = [];
  const listings: Listing[] = [];

  for (const feed of options.feeds) {
    const report: FeedReport = {
      path: feed.path,
      retailer: feed.retailer,
      rows: 0,
      listings: 0,
      rejected: 0,
      warnings: 0,
      error: null,
    };
    feedReports.push(report);
    const feedListings: Listing[] = [];
    const feedIssues: RowIssue[] = [];
    try {
      if (!existsSync(feed.path)) throw new Error('file not found');
      for await (const row of readFeed(feed.path)) {
        report.rows++;
        const result = normalizeRow(row, feed.retailer);
        feedIssues.push(...result.issues);
        if (result.listing) feedListings.push(result.listing);
        else report.rejected++;
        if (report.rows % 5000 === 0) progress({ phase: `read ${feed.retailer}`, done: report.rows });
      }
      if (report.rows > 0 && feedListings.length === 0)
        throw new Error('no usable rows (is the header row a Merchant Center header?)');
    } catch (error) {
      report.error = `${(error as Error).message}`;
      issues.push({
        file: feed.path,
        line: 0,
        retailer: feed.retailer,
        severity: 'error',
        reason: `feed unreadable: ${report.error}`,
      });
      continue;
    }
    report.listings = feedListings.length;
    report.warnings = feedIssues.filter((i) => i.severity === 'warning').length;
    listings.push(...feedListings);
    issues.push(...feedIssues);
  }

  const base = { run_id: randomUUID(), day, feeds: feedReports, issues, products: 0, offers: 0 };
  if (listings.length === 0) {
    return { ...base, published: false, snapshot: null, duration_ms: Date.now() - started };
  }

  const previous = readPrevious(currentSnapshotPath(options.dataDir));
  const path = newSnapshotPath(options.dataDir);
  const db = openWritable(path);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    migrate(db, catalogMigrations);
    let productCount = 0;
    db.transaction(() => {
      progress({ phase: 'reference data' });
      const reference = writeReference(db, content, now);
      const insertRetailer = db.prepare(
        'INSERT INTO retailers (id, slug, name, is_active, created_at) VALUES (?, ?, ?, 1, ?)',
      );
      for (const slug of new Set(listings.map((l) => l.retailer))) {
        if (reference.retailerIdBySlug.has(slug)) continue;
        const id = stableUuid(`retailer:${slug}`);
        insertRetailer.run(
          id,
          slug,
          slug.replace(/(^|-)(\w)/g, (_, dash: string, c: string) => (dash ? ' ' : '') + c.toUpperCase()),
          now,
        );
        reference.retailerIdBySlug.set(slug, id);
      }

      progress({ phase: 'classify', total: listings.length });
      const classifier = new Classifier(reference.types.values());
      const classifications = new Map<string, Classification>();
      for (const l of listings) classifications.set(l.key, classifier.classify(l));

      progress({ phase: 'resolve', total: listings.length });
      const byKey = new Map(listings.map((l) => [l.key, l]));
      const resolved = (options.resolver ?? ((records) => resolveListings(records)))(
        listings.map((l) => ({
          key: l.key,
          source: l.retailer,
          title: l.title,
          description: l.description,
          brand: reference.brands.resolve(l.brandName)?.name ?? null,
          gtin: l.gtin14,
          mpn: l.mpn,
          price: l.price,
          productType: typeForResolver(classifications.get(l.key)),
          specs: l.rawSpecs,
          itemGroupId: l.itemGroupId,
          color: l.color,
          size: l.size,
        })),
      );

      progress({ phase: 'assemble', total: resolved.products.length });
      const ctx = {
        reference,
        previous,
        classifications,
        now,
        usedIds: new Set<string>(),
        usedSlugs: new Set<string>(),
      };
      const products = resolved.products.map((r) =>
        assembleProduct(
          r,
          r.keys.map((k) => byKey.get(k)!),
          ctx,
        ),
      );
      const typesWithKnowledge = new Set(
        content.knowledge.filter((k) => k.entries.length > 0).map((k) => k.product_type),
      );
      progress({ phase: 'write', total: products.length });
      writeProducts(db, products, resolved.groups, { reference, previous, day, now, typesWithKnowledge });
      progress({ phase: 'search index' });
      buildSearchIndex(db);
      productCount = products.length;
    })();

    if (previous.path) {
      // price history carries over: offer ids are stable, today's rows were written above
      db.prepare('ATTACH DATABASE ? AS prev').run(previous.path);
      db.exec(`INSERT OR IGNORE INTO price_observations SELECT * FROM prev.price_observations
               WHERE offer_id IN (SELECT id FROM offers) AND day <> '${day}'`);
      db.exec('DETACH DATABASE prev');
    }
    const offerCount = (db.prepare('SELECT count(*) FROM offers').pluck().get() as number) ?? 0;
    const report: IngestReport = {
      ...base,
      products: productCount,
      offers: offerCount,
      published: true,
      snapshot: path,
      duration_ms: Date.now() - started,
    };
    const meta = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
    meta.run('built_at', now);
    meta.run('day', day);
    meta.run('run_id', report.run_id);
    db.prepare(
      'INSERT INTO ingest_runs (id, day, started_at, finished_at, report_json) VALUES (?,?,?,?,?)',
    ).run(
      report.run_id,
      day,
      new Date(started).toISOString(),
      new Date().toISOString(),
      JSON.stringify({ ...report, issues: issues.slice(0, 1000), issue_count: issues.length }),
    );
    db.exec('ANALYZE');
    db.close();
    publishSnapshot(options.dataDir, path);
    return report;
  } catch (error) {
    if (db.open) db.close();
    discardSnapshot(path);
    throw error;
  }
}

/** `retailer=path` or a bare path whose file name (without extension) names the retailer. */
export function parseFeedArgument(arg: string): FeedSource {
  const eq = arg.indexOf('=');
  if (eq > 0 && /^[a-z0-9-]+$/i.test(arg.slice(0, eq)))
    return { retailer: slugify(arg.slice(0, eq)), path: arg.slice(eq + 1) };
  const file = arg.split(/[\\/]/).pop() ?? arg;
  return { retailer: slugify(file.replace(/\.[^.]+$/, '')) || 'retailer', path: arg };
}

/**
 * A product type conflict pushes two listings apart, so the resolver only sees confident
 * classifications: a weak guess from one title word must not split a real match.
 */
const typeForResolver = (c: Classification | undefined): string | null =>
  c?.type && c.confidence >= 0.5 ? c.type.slug : null;
