import { randomUUID } from 'node:crypto';
import {
  catalogMigrations,
  currentSnapshotPath,
  discardSnapshot,
  migrate,
  newSnapshotPath,
  offersByProductIndex,
  openWritable,
  publishSnapshot,
  writeNameKeys,
} from '../catalog/index.js';
import { type Content, loadContent } from '../content/index.js';
import { buildSearchIndex } from '../search/index.js';
import { assembleProduct } from './build/assemble.js';
import { type Classification, Classifier } from './build/classify.js';
import { readPrevious, readPreviousListings } from './build/previous.js';
import { writePriceSeries } from './build/price-series.js';
import { writeProductDocuments } from './build/product-documents.js';
import { writeReference } from './build/reference.js';
import { buildRelationships } from './build/relationships.js';
import type { Resolver } from './build/resolver.js';
import { writeProducts } from './build/write-products.js';
import type { FeedSource, RowIssue } from './feeds/index.js';
import { type HistoryReport, importHistory } from './history.js';
import type { Listing } from './listing.js';
import { slugify, stableUuid } from './normalize/index.js';
import { type FeedReport, readFeeds } from './read-feeds.js';
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
  /** CSV files of past price observations (`retailer,id,date,price,sale_price,availability`) */
  history?: string[];
  /** progress callback: phase name and counts */
  onProgress?: (event: { phase: string; done?: number; total?: number }) => void;
}

/** Where a run's time went: one entry per phase, wall clock and CPU. */
export interface PhaseTiming {
  phase: string;
  wall_ms: number;
  cpu_ms: number;
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
  phases: PhaseTiming[];
  /** one entry per imported price-history file */
  history?: HistoryReport[];
}

/** How long a listing its feed dropped keeps its product in the catalog, as legacy. */
const LEGACY_DAYS = 365;

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
  const report = options.onProgress ?? (() => {});
  // wall and CPU time per phase, so a slow run says where the time went even on a busy machine
  const phases: PhaseTiming[] = [];
  let phaseStart = { name: 'read', wall: performance.now(), cpu: process.cpuUsage() };
  const progress = (event: { phase: string; done?: number; total?: number }) => {
    if (event.done === undefined && !event.phase.startsWith('read ')) {
      const cpu = process.cpuUsage(phaseStart.cpu);
      phases.push({
        phase: phaseStart.name,
        wall_ms: Math.round(performance.now() - phaseStart.wall),
        cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
      });
      phaseStart = { name: event.phase, wall: performance.now(), cpu: process.cpuUsage() };
    }
    report(event);
  };
  const read = await readFeeds(options.feeds, progress);
  const { issues, reports: feedReports } = read;
  const listings: Listing[] = read.listings;

  const base = { run_id: randomUUID(), day, feeds: feedReports, issues, products: 0, offers: 0 };
  // nothing fresh to publish: the published catalog stays exactly as it was
  if (listings.length === 0) {
    return { ...base, published: false, snapshot: null, duration_ms: Date.now() - started, phases };
  }

  const previousPath = currentSnapshotPath(options.dataDir);
  const failed = feedReports.filter((f) => f.error !== null).map((f) => f.retailer);
  const fresh = new Set(feedReports.filter((f) => f.error === null).map((f) => f.retailer));
  if (failed.length > 0 && previousPath) {
    // a failed feed keeps its retailer's listings from the previous catalog, prices and all
    const carried = readPreviousListings(
      previousPath,
      failed.filter((r) => !fresh.has(r)),
    );
    for (const l of carried) listings.push(l);
    for (const report of feedReports)
      if (report.error !== null)
        report.carried_over = carried.filter((l) => l.retailer === report.retailer).length;
  }
  if (previousPath) {
    // listings a feed dropped keep their product (same id, no offer, tier 3) for a year
    const freshKeys = new Set(listings.map((l) => l.key));
    const cutoff = new Date(Date.parse(`${day}T00:00:00Z`) - LEGACY_DAYS * 86_400_000).toISOString();
    const gone = readPreviousListings(previousPath, [...fresh]).filter(
      (l) => !freshKeys.has(l.key) && (l.carriedFrom?.lastSeenAt ?? '') >= cutoff,
    );
    for (const l of gone) {
      l.carriedFrom = { lastSeenAt: l.carriedFrom?.lastSeenAt ?? now, gone: true };
      listings.push(l);
    }
    for (const report of feedReports)
      if (report.error === null) report.gone = gone.filter((l) => l.retailer === report.retailer).length;
  }

  const previous = readPrevious(previousPath);
  const path = newSnapshotPath(options.dataDir);
  const db = openWritable(path);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    // random UUID keys spread inserts over every B-tree: a big page cache keeps them in memory
    db.pragma('cache_size = -262144');
    db.pragma('temp_store = MEMORY');
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
      // after the bulk load, so the index is packed (see catalog/migrations/003-offer-reads.ts)
      db.exec(offersByProductIndex);
      writeNameKeys(db);
      progress({ phase: 'relationships' });
      buildRelationships(db, content.relatedTypes ?? []);
      progress({ phase: 'search index' });
      buildSearchIndex(db);
      progress({ phase: 'documents' });
      writeProductDocuments(db);
      productCount = products.length;
    })();

    if (previous.path) {
      // price history carries over: offer ids are stable, today's rows were written above
      db.prepare('ATTACH DATABASE ? AS prev').run(previous.path);
      db.exec(`INSERT OR IGNORE INTO price_observations SELECT * FROM prev.price_observations
               WHERE offer_id IN (SELECT id FROM offers) AND day <> '${day}'`);
      db.exec('DETACH DATABASE prev');
    }
    const history: HistoryReport[] = [];
    for (const file of options.history ?? []) {
      progress({ phase: 'price history' });
      history.push(await importHistory(db, file, issues));
    }
    progress({ phase: 'price series' });
    writePriceSeries(db, day);
    const offerCount = (db.prepare('SELECT count(*) FROM offers').pluck().get() as number) ?? 0;
    progress({ phase: 'publish' });
    const result: IngestReport = {
      ...base,
      products: productCount,
      offers: offerCount,
      published: true,
      snapshot: path,
      duration_ms: Date.now() - started,
      phases,
      history,
    };
    const meta = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
    meta.run('built_at', now);
    meta.run('day', day);
    meta.run('run_id', result.run_id);
    db.prepare(
      'INSERT INTO ingest_runs (id, day, started_at, finished_at, report_json) VALUES (?,?,?,?,?)',
    ).run(
      result.run_id,
      day,
      new Date(started).toISOString(),
      new Date().toISOString(),
      JSON.stringify({ ...result, issues: issues.slice(0, 1000), issue_count: issues.length }),
    );
    db.exec('ANALYZE');
    db.close();
    publishSnapshot(options.dataDir, path);
    progress({ phase: 'done' });
    result.duration_ms = Date.now() - started;
    return result;
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
 * classifications (one title word alone never reaches 0.7): a guess must not split a real match.
 */
const typeForResolver = (c: Classification | undefined): string | null =>
  c?.type && c.confidence >= 0.7 ? c.type.slug : null;
