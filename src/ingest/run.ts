import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  currentSnapshotPath,
  type Db,
  discardSnapshot,
  lockCatalog,
  newSnapshotPath,
  offersByProductIndex,
  openWritable,
  publishSnapshot,
  snapshotCounts,
  sweepPartialSnapshots,
  writeNameKeys,
} from '../catalog/index.js';
import { type Content, loadContent } from '../content/index.js';
import { startSearchIndex } from '../search/index.js';
import { assembleProduct } from './build/assemble.js';
import { deferIndexes } from './build/bulk-indexes.js';
import { type ChangeSummary, keepUpdatedAt, recordChanges } from './build/changes.js';
import { type Classification, Classifications, Classifier } from './build/classify.js';
import {
  type PreviousCatalog,
  readPrevious,
  readPreviousFeedSizes,
  readPreviousListings,
  readVisibleProducts,
} from './build/previous.js';
import { writePriceSeries } from './build/price-series.js';
import { writeProductDocuments } from './build/product-documents.js';
import { type Reference, writeReference } from './build/reference.js';
import { buildRelationships } from './build/relationships.js';
import type { ResolveRecord, Resolver, VariantGroup } from './build/resolver.js';
import { PackedTexts, ScratchFile, type ScratchTable } from './build/scratch.js';
import { type StoredProducts, storedProducts, writeProducts } from './build/write-products.js';
import {
  analyzeSnapshot,
  carryPriceHistory,
  prepareSnapshot,
  writeRetailers,
  writeRunRecord,
} from './build/write-snapshot.js';
import { type FactsWorker, startFacts } from './facts.js';
import type { FeedSource, RowIssue } from './feeds/index.js';
import { DEFAULT_MAX_DROP, feedHoldReason, visibleShrinkReason } from './guards.js';
import { type HistoryReport, type HistoryStaging, importHistory, stageHistoryFile } from './history.js';
import { type Listing, ListingStrings, type RunListing, SpilledListing } from './listing.js';
import { slugify } from './normalize/index.js';
import { type FeedReport, type ListingSpill, readFeeds } from './read-feeds.js';
import { resolveListings } from './resolve/index.js';

export interface IngestOptions {
  dataDir: string;
  /** the feeds of this run; retailers not named here keep their listings */
  feeds: FeedSource[];
  /** authored content; loaded from the project's data/ folder when omitted */
  content?: Content;
  /** the day of the price observations (YYYY-MM-DD, UTC); default today */
  day?: string;
  /** entity resolution; default {@link resolveListings} (`resolveByIdentifiers` is the GTIN+MPN baseline) */
  resolver?: Resolver;
  /** CSV files of past price observations (`retailer,id,date,price,sale_price,availability`) */
  history?: string[];
  /**
   * most share (0–1) a retailer's accepted rows, or the catalog's visible products, may drop
   * by against the previous run before the guards step in (default 0.3)
   */
  maxDrop?: number;
  /** accept feeds and a catalog the guards would hold back (default false) */
  force?: boolean;
  /** retailer slugs whose listings leave the catalog in this run (the only way one leaves) */
  remove?: string[];
  /**
   * listings from which a run keeps its listings and assembled products in a scratch file
   * beside the snapshot instead of in memory, the listings from the moment this many have been
   * read (default {@link spillThreshold}: as many as half of this process's heap holds)
   */
  spillAt?: number;
  /**
   * listings from which a run that keeps them in memory, with the default resolver, computes
   * the resolver's per-record facts of part of them on a worker thread (default: never,
   * {@link FACTS_WORKER_AT}); the result is the same either way
   */
  factsWorkerAt?: number;
  /** progress callback: phase name and counts */
  onProgress?: (event: { phase: string; done?: number; total?: number }) => void;
}

/** Where a run's time went: one entry per phase, wall clock and CPU. */
export interface PhaseTiming {
  phase: string;
  wall_ms: number;
  /** the whole process's CPU time, worker threads included (they overlap other phases) */
  cpu_ms: number;
  /** resident memory at the end of the phase */
  rss_mb: number;
  /** of which the JavaScript heap in use (the rest: SQLite's page cache, buffers, code, threads) */
  heap_mb: number;
}

export interface IngestReport {
  run_id: string;
  day: string;
  published: boolean;
  snapshot: string | null;
  /** why nothing was published (null when published) */
  refused: string | null;
  feeds: FeedReport[];
  /** retailers whose fresh feed a guard held back: they keep their previous listings (`listings`) */
  held: { retailer: string; reason: string; listings: number }[];
  /** retailers not in this run: their listings are kept from the previous catalog as they were */
  kept: { retailer: string; listings: number }[];
  /** retailers removed by this run (`remove`) and how many listings they had */
  removed: { retailer: string; listings: number }[];
  products: number;
  offers: number;
  /** products shown by default (data tiers 1–2) in the previous catalog and in this run's */
  visible_products: { before: number; after: number };
  issues: RowIssue[];
  duration_ms: number;
  phases: PhaseTiming[];
  /** one entry per imported price-history file */
  history?: HistoryReport[];
  /** what this publish recorded in the change feed (GET /v2/changes) */
  changes?: ChangeSummary;
}

/** A caller's mistake in the options of {@link runIngest}; nothing was read or written. */
export class IngestInputError extends Error {
  override name = 'IngestInputError';
}

/**
 * Heap one listing costs at the peak of a run that keeps everything in memory (the end of
 * assembly: the listing, its classification, resolver record and features, its product and the
 * maps between them). Measured as the slope between two frozen-clock demo builds, live heap after
 * a full collection at the end of assembly: 61 MB at 8,423 listings (3,000 products), 441 MB at
 * 111,070 (38,969 products), 3.7 KB a listing (docs/ingest.md, "Large runs").
 */
const LISTING_HEAP_BYTES = 3_700;
/**
 * Share of V8's heap limit an in-memory run may fill at its peak. The rest is room for the
 * garbage between collections: near the limit V8 collects over and over for little (the 560k
 * run of session 9 spent most of its last 20 minutes in mark-compacts at 3.67 of 4.1 GB).
 */
const HEAP_SHARE = 0.5;

/**
 * Listings from which a run keeps them on disk between phases (build/scratch.ts): as many as
 * fill {@link HEAP_SHARE} of the heap V8 gives this process. Below it the round trip through
 * disk would only cost CPU (≈ 40 µs a listing); above it the heap would not hold the run. With
 * Node's default limit on a 64-bit machine (≈ 4 GB) that is ≈ 560,000 listings, about 200,000
 * products of the demo; a process started with a larger `--max-old-space-size` spills later.
 */
function spillThreshold(heapLimit: number = getHeapStatistics().heap_size_limit): number {
  return Math.floor((heapLimit * HEAP_SHARE) / LISTING_HEAP_BYTES);
}
/**
 * Listings from which a run computes the resolver's per-record facts of its last listings on a
 * worker thread (facts.ts) while this one classifies and builds the records. Off by default
 * (opt in with `factsWorkerAt`, e.g. 5,000: below that, starting the thread costs about what
 * it saves): on the idle 2-core machine the 35k demo's classify + resolve took 14.1 s wall
 * with it and 13.9 s without, and the listings' texts cloned to the worker raised the run's
 * peak RSS from 972 to 1,194 MB (`npm run bench:ingest`, one run each, session 11).
 */
const FACTS_WORKER_AT = Number.MAX_SAFE_INTEGER;
/**
 * Share of the listings whose facts the worker is given: this thread has classification and
 * the records to do first (≈ 0.45 of what computing every listing's facts costs), so the two
 * finish together near 0.6 (whatever the worker has not started when the resolver asks is
 * computed here).
 */
const FACTS_WORKER_SHARE = 0.6;
/** How long a listing its feed dropped keeps its product in the catalog, as legacy. */
const LEGACY_DAYS = 365;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The tables `writeProducts` fills row by row: their secondary indexes are built after it. */
const BULK_TABLES = [
  'products',
  'product_groups',
  'product_gtins',
  'product_attributes',
  'offers',
  'retailer_listings',
];

const today = () => new Date().toISOString().slice(0, 10);

/** Checks the options before anything is read or locked; throws {@link IngestInputError}. */
export function validateIngestOptions(options: IngestOptions): void {
  const fail = (message: string): never => {
    throw new IngestInputError(message);
  };
  if (typeof options.dataDir !== 'string' || options.dataDir.trim() === '')
    fail('dataDir must be a non-empty path');
  if (!Array.isArray(options.feeds)) fail('feeds must be a list of {retailer, path}');
  options.feeds.forEach((f, i) => {
    if (typeof f?.retailer !== 'string' || !SLUG.test(f.retailer))
      fail(
        `feeds[${i}].retailer must be a slug (a-z, 0-9 and single dashes), got ${JSON.stringify(f?.retailer)}`,
      );
    if (typeof f.path !== 'string' || f.path === '') fail(`feeds[${i}].path must be a file path`);
  });
  if (options.day !== undefined) {
    const valid =
      typeof options.day === 'string' &&
      /^\d{4}-\d{2}-\d{2}$/.test(options.day) &&
      new Date(`${options.day}T00:00:00Z`).toISOString().startsWith(options.day);
    if (!valid) fail(`day must be a calendar date YYYY-MM-DD, got ${JSON.stringify(options.day)}`);
  }
  if (
    options.history !== undefined &&
    !(Array.isArray(options.history) && options.history.every((h) => typeof h === 'string' && h !== ''))
  )
    fail('history must be a list of CSV file paths');
  if (
    options.maxDrop !== undefined &&
    !(typeof options.maxDrop === 'number' && options.maxDrop >= 0 && options.maxDrop <= 1)
  )
    fail(`maxDrop must be a share between 0 and 1, got ${JSON.stringify(options.maxDrop)}`);
  if (options.spillAt !== undefined && !(Number.isSafeInteger(options.spillAt) && options.spillAt >= 0))
    fail(`spillAt must be a whole number of listings, 0 or more, got ${JSON.stringify(options.spillAt)}`);
  if (
    options.factsWorkerAt !== undefined &&
    !(Number.isSafeInteger(options.factsWorkerAt) && options.factsWorkerAt >= 0)
  )
    fail(
      `factsWorkerAt must be a whole number of listings, 0 or more, got ${JSON.stringify(options.factsWorkerAt)}`,
    );
  const remove = options.remove ?? [];
  if (!Array.isArray(remove)) fail('remove must be a list of retailer slugs');
  for (const r of remove) {
    if (typeof r !== 'string' || !SLUG.test(r))
      fail(`remove: ${JSON.stringify(r)} is not a retailer slug (a-z, 0-9 and single dashes)`);
    if (options.feeds.some((f) => f.retailer === r))
      fail(`retailer "${r}" is both given a feed and removed: do one or the other`);
  }
  if (options.feeds.length === 0 && remove.length === 0)
    fail('give at least one feed, or a retailer to remove');
}

/**
 * The write path: reads the run's feeds, keeps every other retailer's listings from the
 * previous catalog (the catalog is the union of each retailer's latest accepted feed),
 * holds back feeds the guards distrust, resolves listings into products, writes a complete
 * new snapshot beside the published one, checks it and publishes it atomically. A feed
 * that cannot be read fails alone; if no feed is accepted and nothing is removed, or the
 * result would hide too many products, nothing is published.
 */
export async function runIngest(options: IngestOptions): Promise<IngestReport> {
  validateIngestOptions(options);
  const release = lockCatalog(options.dataDir);
  // history files are read on another thread while this one builds the catalog
  const staging = (options.history ?? []).map(stageHistoryFile);
  // a large run's listings go to a scratch file as they are read (opened only then)
  const spill = new RunSpill(options.dataDir, options.spillAt ?? spillThreshold());
  try {
    // what an ingest killed mid-write left behind goes first
    sweepPartialSnapshots(options.dataDir);
    return await ingestLocked(options, staging, spill);
  } finally {
    spill.close();
    // a run that ended early still waits for its readers, so their scratch files can go
    await Promise.allSettled(staging.map((s) => s.staged));
    for (const s of staging) s.dispose();
    release();
  }
}

async function ingestLocked(
  options: IngestOptions,
  staging: HistoryStaging[],
  spill: RunSpill,
): Promise<IngestReport> {
  const started = Date.now();
  const now = new Date().toISOString();
  const day = options.day ?? today();
  const maxDrop = options.maxDrop ?? DEFAULT_MAX_DROP;
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
        rss_mb: Math.round(process.memoryUsage.rss() / 2 ** 20),
        heap_mb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
      });
      phaseStart = { name: event.phase, wall: performance.now(), cpu: process.cpuUsage() };
    }
    report(event);
  };
  const read = await readFeeds(options.feeds, progress, undefined, spill);
  const { issues, reports: feedReports } = read;

  const previousPath = currentSnapshotPath(options.dataDir);
  const previousSizes = readPreviousFeedSizes(previousPath);
  const visibleBefore = readVisibleProducts(previousPath);

  // guards: a retailer whose fresh feed looks broken keeps its previous listings
  const freshByRetailer = new Map<string, RunListing[]>();
  for (const l of read.listings) {
    const list = freshByRetailer.get(l.retailer) ?? [];
    list.push(l);
    freshByRetailer.set(l.retailer, list);
  }
  const held: IngestReport['held'] = [];
  if (!options.force)
    for (const [retailer, list] of freshByRetailer) {
      const reason = feedHoldReason(list, previousSizes.get(retailer), maxDrop);
      if (!reason) continue;
      held.push({ retailer, reason, listings: previousSizes.get(retailer) ?? 0 });
      freshByRetailer.delete(retailer);
      for (const f of feedReports) if (f.retailer === retailer) f.held = reason;
    }
  const listings: RunListing[] = [...freshByRetailer.values()].flat();
  const fresh = new Set(freshByRetailer.keys());
  // `listings` is now the one list of the run's listings (handed to the write below)
  freshByRetailer.clear();
  read.listings = [];

  const base = {
    run_id: randomUUID(),
    day,
    feeds: feedReports,
    held,
    issues,
    products: 0,
    offers: 0,
  };
  const remove = new Set(options.remove ?? []);
  const removed = [...remove].map((retailer) => ({ retailer, listings: previousSizes.get(retailer) ?? 0 }));
  const refuse = (
    refused: string,
    kept: IngestReport['kept'] = [],
    visibleAfter = visibleBefore,
  ): IngestReport => ({
    ...base,
    published: false,
    snapshot: null,
    refused,
    kept,
    removed: [],
    visible_products: { before: visibleBefore, after: visibleAfter },
    duration_ms: Date.now() - started,
    phases,
  });
  const unknown = [...remove].filter((r) => !previousSizes.has(r));
  if (unknown.length > 0)
    return refuse(
      `cannot remove ${unknown.map((r) => `"${r}"`).join(', ')}: not in the published catalog (retailers: ${
        [...previousSizes.keys()].sort().join(', ') || 'none'
      })`,
    );
  // nothing fresh to publish: the published catalog stays exactly as it was
  if (fresh.size === 0 && remove.size === 0)
    return refuse(
      held.length > 0 ? 'every feed that could be read was held back by a guard' : 'no feed could be read',
    );

  const cutoff = new Date(Date.parse(`${day}T00:00:00Z`) - LEGACY_DAYS * 86_400_000).toISOString();
  const kept: IngestReport['kept'] = [];
  if (previousPath) {
    // every retailer without an accepted feed in this run keeps its listings as they were:
    // retailers not in the run, feeds that failed, feeds held back (removed ones do not)
    const carryFrom = [...previousSizes.keys()].filter((r) => !fresh.has(r) && !remove.has(r));
    const carried = readPreviousListings(previousPath, carryFrom).filter(
      (l) => !l.carriedFrom?.gone || l.carriedFrom.lastSeenAt >= cutoff,
    );
    for (const l of carried) listings.push(l);
    const activeOf = (retailer: string) =>
      carried.filter((l) => l.retailer === retailer && !l.carriedFrom?.gone).length;
    for (const f of feedReports) if (!fresh.has(f.retailer)) f.carried_over = activeOf(f.retailer);
    for (const retailer of carryFrom)
      if (!feedReports.some((f) => f.retailer === retailer))
        kept.push({ retailer, listings: activeOf(retailer) });

    // listings a feed dropped keep their product (same id, no offer, tier 3) for a year
    const freshKeys = new Set(listings.map((l) => l.key));
    const gone = readPreviousListings(previousPath, [...fresh]).filter(
      (l) => !freshKeys.has(l.key) && (l.carriedFrom?.lastSeenAt ?? '') >= cutoff,
    );
    for (const l of gone) {
      l.carriedFrom = { lastSeenAt: l.carriedFrom?.lastSeenAt ?? now, gone: true };
      listings.push(l);
    }
    for (const f of feedReports)
      if (fresh.has(f.retailer)) f.gone = gone.filter((l) => l.retailer === f.retailer).length;
  }

  // one canonical order, whatever the order of the feeds on the command line and whichever
  // retailers came fresh or carried: resolution and id assignment see the same input for the
  // same listings, so ids, offers and groups do not depend on how a run was invoked
  listings.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  // a run that spilled while reading, or that the carried listings make large, keeps every
  // listing on disk from here on (spillThreshold)
  if (spill.active || listings.length >= spill.at)
    listings.forEach((l, i) => {
      if (!(l instanceof SpilledListing)) listings[i] = spill.put(l);
    });
  const path = newSnapshotPath(options.dataDir);
  const db = openWritable(path);
  try {
    prepareSnapshot(db);
    // one transaction for the whole build (the writer has no journal: a commit per statement
    // would write the file each time); BEGIN/COMMIT by hand, as the write phase awaits its
    // packing worker
    db.exec('BEGIN');
    // the listings are handed over (`splice` empties this function's array): once the products
    // are written nothing holds them, so the phases that follow run without them in memory
    const written = await writeListings(db, listings.splice(0), {
      content,
      previousPath,
      now,
      day,
      resolver: options.resolver,
      factsWorkerAt: options.factsWorkerAt ?? FACTS_WORKER_AT,
      spill,
      progress,
    });
    // the search vectors are computed on a worker thread from the products' texts, which are
    // final once the products are written (search/build-index.ts). Started here, the worker has
    // the second core while this one builds the relationships and the keyword index (one core
    // each), and it is gone before the documents phase, whose packing takes both cores: beside
    // the documents, its heap took the 35k demo's peak RSS over 1 GB (docs/architecture.md,
    // "Scaling", sessions 9 and 13)
    const searchIndex = startSearchIndex(db, content.needs ?? []);
    progress({ phase: 'relationships' });
    buildRelationships(db, content.relatedTypes ?? []);
    progress({ phase: 'search index' });
    await searchIndex.finish();
    progress({ phase: 'documents' });
    writeProductDocuments(db);
    db.exec('COMMIT');

    // price history carries over: offer ids are stable, today's rows were written above
    if (written.previousPath) carryPriceHistory(db, written.previousPath, day);
    const history: HistoryReport[] = [];
    for (const file of staging) {
      progress({ phase: 'price history' });
      history.push(await importHistory(db, file, issues));
    }
    progress({ phase: 'price series' });
    writePriceSeries(db, day);
    const counts = snapshotCounts(db);
    const shrink = options.force
      ? null
      : visibleShrinkReason(visibleBefore, counts.visible_products, maxDrop);
    if (shrink) {
      db.close();
      discardSnapshot(path);
      return refuse(shrink, kept, counts.visible_products);
    }
    progress({ phase: 'changes' });
    const changes = recordChanges(db, written.previousPath, { run_id: base.run_id, published_at: now });
    progress({ phase: 'publish' });
    const result: IngestReport = {
      ...base,
      published: true,
      snapshot: null,
      refused: null,
      kept,
      removed,
      products: written.products,
      offers: counts.offers,
      visible_products: { before: visibleBefore, after: counts.visible_products },
      duration_ms: Date.now() - started,
      phases,
      history,
      changes,
    };
    writeRunRecord(db, {
      run_id: result.run_id,
      day,
      started_at: new Date(started).toISOString(),
      built_at: now,
      report: { ...result, issues: issues.slice(0, 1000), issue_count: issues.length },
    });
    analyzeSnapshot(db);
    db.close();
    // checked (quick_check, schema version, these counts) before it may be published
    result.snapshot = publishSnapshot(options.dataDir, path, { run_id: result.run_id, ...counts });
    progress({ phase: 'done' });
    result.duration_ms = Date.now() - started;
    return result;
  } catch (error) {
    if (db.open) db.close();
    discardSnapshot(path);
    throw error;
  }
}

/**
 * Reference data, classification, resolution, assembly and the write of products, offers,
 * prices and listings: everything that needs the listings in memory. What it builds on the
 * way (classifications, resolver records, assembled products) is scoped here and goes when
 * it returns; the later phases read the snapshot.
 */
async function writeListings(
  db: Db,
  listings: RunListing[],
  options: {
    content: Content;
    previousPath: string | null;
    now: string;
    day: string;
    resolver: Resolver | undefined;
    /** listings from which the resolver's facts are computed on a worker thread too */
    factsWorkerAt: number;
    /**
     * the run's scratch file: where a large run's listings wait (each listing is then a
     * {@link SpilledListing}) and its products between phases (closed before this returns)
     */
    spill: RunSpill;
    progress: (event: { phase: string; done?: number; total?: number }) => void;
  },
): Promise<{ products: number; previousPath: string | null }> {
  // the default resolver's per-record facts of the last listings are computed on a worker thread
  // meanwhile, where there is a second core; not in a spilling run, whose listings must not all
  // be copied to another heap
  const from = Math.floor(listings.length * (1 - FACTS_WORKER_SHARE));
  const facts =
    !options.resolver &&
    !options.spill.active &&
    listings.length >= options.factsWorkerAt &&
    availableParallelism() > 1
      ? startFacts(
          (listings.slice(from) as Listing[]).map((l) => ({
            title: l.title,
            description: l.description,
            mpn: l.mpn,
            color: l.color,
            size: l.size,
            specs: l.rawSpecs,
          })),
          from,
        )
      : null;
  try {
    return await writeResolved(db, listings, facts, options);
  } finally {
    facts?.close();
  }
}

/** {@link writeListings} once the facts worker, if any, has started. */
async function writeResolved(
  db: Db,
  listings: RunListing[],
  facts: FactsWorker | null,
  options: Parameters<typeof writeListings>[2],
): Promise<{ products: number; previousPath: string | null }> {
  let written = 0;
  let restoreIndexes = () => {};
  const { content, now, day, progress } = options;
  const previous = readPrevious(options.previousPath);
  progress({ phase: 'reference data' });
  const reference = writeReference(db, content, now, previous.brandCreatedAt);
  writeRetailers(
    db,
    listings.map((l) => l.retailer),
    reference,
    now,
  );
  // a large run's listings and assembled products wait on disk between phases (build/scratch.ts)
  const { spill } = options;
  try {
    const { products, groups } = resolveProducts(listings, spill, {
      reference,
      previous,
      now,
      resolver: options.resolver ?? ((rs) => resolveListings(rs, {}, facts ?? undefined)),
      progress,
    });
    // what classification, resolution and assembly built on the way is garbage now
    collectGarbage();
    const count = products.summaries.length;
    const typesWithKnowledge = new Set(
      content.knowledge.filter((k) => k.entries.length > 0).map((k) => k.product_type),
    );
    progress({ phase: 'write', total: count });
    // indexes are built after the bulk load, so they are packed and sorted once
    // (see bulk-indexes.ts and catalog/migrations/003-offer-reads.ts)
    restoreIndexes = deferIndexes(db, BULK_TABLES);
    await writeProducts(db, products, groups, {
      reference,
      previous,
      day,
      now,
      typesWithKnowledge,
      collect: collectGarbage,
    });
    written = count;
  } finally {
    spill.close();
  }
  // the run's products are garbage from here on: compacted, so that the pages they filled go
  // back to the system before the phases that read the snapshot (and their worker threads)
  collectGarbage({ compact: true });
  // the products and groups were written with their keys
  writeNameKeys(db, ['brands', 'product_types']);
  restoreIndexes();
  db.exec(offersByProductIndex);
  // before anything copies updated_at: unchanged products keep the previous publish's
  keepUpdatedAt(db, previous.path);
  return { products: written, previousPath: previous.path };
}

/**
 * Classifies, resolves and assembles the run's listings into products and variant groups.
 * A large run's listings are on disk already (they went there as they were read): each is read
 * back to be classified and to build its resolver record, and once more when its product is
 * assembled. A smaller run's listings leave this array as the records are built. Each product
 * goes to the scratch file as soon as it is assembled: what stays in memory is one small
 * summary a product (issue 20).
 */
function resolveProducts(
  listings: RunListing[],
  spill: RunSpill,
  options: {
    reference: Reference;
    previous: PreviousCatalog;
    now: string;
    resolver: Resolver;
    progress: (event: { phase: string; done?: number; total?: number }) => void;
  },
): { products: StoredProducts; groups: VariantGroup[] } {
  const { reference, previous, progress } = options;
  const onDisk = spill.active;
  progress({ phase: 'classify', total: listings.length });
  const classifier = new Classifier(reference.types.values());
  const classifications = new Classifications(listings.length);
  // a spilled listing is classified when it is read back below, so it is read once
  if (!onDisk)
    listings.forEach((l, slot) => {
      classifications.set(slot, classifier.classify(l as Listing));
    });

  progress({ phase: 'resolve', total: listings.length });
  // a small run's listings wait in memory until assembly (no copy); a large run's in the scratch
  // file, where each has its id since it was read, and its records read their descriptions and
  // specs (the largest parts of a record) from packed texts outside the heap
  const inMemory = onDisk ? null : spill.scratch.table<Listing>('listings');
  const ids = onDisk ? new Int32Array(listings.length) : null;
  const listingAt = (slot: number): Listing => (ids ? spill.get(ids[slot]!) : inMemory!.get(slot));
  let packed = onDisk
    ? { descriptions: new PackedTexts(listings.length), specs: new PackedTexts(listings.length) }
    : null;
  // a listing read back has its own copy of every string: the records' repeated ones are shared
  let strings: ListingStrings | null = new ListingStrings();
  const shared = (value: string | null): string | null => (value === null ? null : strings!.of(value));
  const slotOf = new Map<string, number>();
  // each listing leaves this array as it is stored, so the heap never holds both
  const handed = listings as (RunListing | undefined)[];
  let records: ResolveRecord[] | null = listings.map((entry, slot) => {
    handed[slot] = undefined;
    let l: Listing;
    if (entry instanceof SpilledListing) {
      ids![slot] = entry.id;
      l = spill.get(entry.id);
      classifications.set(slot, classifier.classify(l));
    } else {
      l = entry;
      inMemory?.put(slot, l);
    }
    slotOf.set(l.key, slot);
    const record = {
      key: l.key,
      source: l.retailer,
      title: l.title,
      description: l.description,
      brand: reference.brands.resolve(l.brandName)?.name ?? null,
      gtin: l.gtin14,
      mpn: l.mpn,
      price: l.price,
      productType: typeForResolver(classifications.at(slot)),
      specs: l.rawSpecs,
      itemGroupId: l.itemGroupId,
      color: l.color,
      size: l.size,
      previousProduct: previous.productIdByListing.get(l.key) ?? null,
    };
    if (!packed) return record;
    packed.descriptions.put(slot, l.description);
    packed.specs.put(slot, JSON.stringify(l.rawSpecs));
    record.source = shared(record.source)!;
    record.color = shared(record.color);
    record.size = shared(record.size);
    return new PackedRecord(record, slot, packed);
  });
  listings.length = 0;
  strings = null;
  const resolved = options.resolver(records);
  records = null;
  packed = null;

  // the resolver's features and candidate pairs are garbage now (most of resolve's heap)
  collectGarbage();
  progress({ phase: 'assemble', total: resolved.products.length });
  const ctx = {
    reference,
    previous,
    classifications: {
      get: (key: string) => {
        const slot = slotOf.get(key);
        return slot === undefined ? undefined : classifications.at(slot);
      },
    },
    now: options.now,
    usedIds: new Set<string>(),
    claimedIds: new Set(resolved.products.map((p) => p.previousId).filter((id): id is string => !!id)),
    usedSlugs: new Set<string>(),
  };
  const products = storedProducts(spill.scratch, reference);
  resolved.products.forEach((r, index) => {
    const product = assembleProduct(
      r,
      r.keys.map((k) => listingAt(slotOf.get(k)!)),
      ctx,
    );
    products.add(index, product);
  });
  if (onDisk) spill.clear();
  else inMemory!.clear();
  return { products, groups: resolved.groups };
}

/**
 * The run's scratch file (build/scratch.ts) and where a large run's listings go in it: from the
 * moment {@link RunSpill.at} listings have been read (readFeeds), or once the carried listings
 * make the run that large, every listing is stored there and only a {@link SpilledListing}
 * stays in memory, so the JS heap at the end of the read holds what the guards and the sort
 * need, not the listings (issue 20). A run that never spills gets an in-memory scratch file.
 */
class RunSpill implements ListingSpill {
  readonly at: number;
  readonly #dataDir: string;
  #scratch: ScratchFile | null = null;
  #listings: ScratchTable<Listing> | null = null;
  #next = 0;
  /** a feed's path and a retailer repeat in every one of its listings: one string each */
  readonly #strings = new ListingStrings();

  constructor(dataDir: string, at: number) {
    this.#dataDir = dataDir;
    this.at = at;
  }

  /** whether the listings are on disk (every listing of the run is then a {@link SpilledListing}) */
  get active(): boolean {
    return this.#listings !== null;
  }

  /** the scratch file; in memory unless the listings went to disk */
  get scratch(): ScratchFile {
    this.#scratch ??= new ScratchFile(null);
    return this.#scratch;
  }

  put(listing: Listing): SpilledListing {
    if (!this.#listings) {
      // beside the snapshot (a `building-<pid>-…` name: swept if this process dies)
      this.#scratch = new ScratchFile(newSnapshotPath(this.#dataDir).replace(/\.db$/, '.scratch.db'));
      this.#listings = this.#scratch.table<Listing>('listings');
    }
    const id = this.#next++;
    this.#listings.put(id, listing);
    return new SpilledListing(
      id,
      listing.key,
      this.#strings.of(listing.retailer),
      this.#strings.of(listing.file),
      listing.line,
      listing.price,
    );
  }

  get(id: number): Listing {
    return this.#listings!.get(id);
  }

  /** drops the stored listings (their pages are reused by the products) */
  clear(): void {
    this.#listings?.clear();
  }

  /** closes and deletes the scratch file (safe to call twice) */
  close(): void {
    this.#scratch?.close();
  }
}

/**
 * A full garbage collection, where a phase has just dropped most of what it built (after
 * resolve, after assembly, after the products are written). V8 sizes
 * its heap for throughput: it lets garbage grow to a multiple of the live heap before
 * collecting, and a page it once committed stays resident, so without these calls the
 * resolver's dead features and the assembly's dead intermediates set the run's peak RSS (1.4–1.7
 * GB at 35k products against a live heap under 0.4 GB). Three collections cost about a second
 * of CPU at that size. `gc` is reached through V8's `--expose-gc` flag, set only for the moment
 * the function is looked up (Node's `v8.setFlagsFromString`); where that fails, nothing is
 * collected by hand.
 *
 * `compact` moves every live object together (V8's `--compact-on-every-full-gc`, set for this
 * collection only), so the pages the dead ones filled are given back. A plain full collection
 * frees only the pages left empty: after the 35k demo's write, 511 MB of heap stayed committed
 * for 108 MB of live objects, and that much of the process's RSS with it. It costs the copying
 * of the live heap, so it is for where most of a large heap has just died.
 */
let gcFunction: (() => void) | undefined;
function collectGarbage(options: { compact?: boolean } = {}): void {
  // looked up at the first collection, not when this module loads: a server that imports the
  // ingest never touches V8's flags unless it runs one
  gcFunction ??= lookUpGc();
  if (!options.compact) {
    gcFunction();
    return;
  }
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    gcFunction();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

function lookUpGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (() => void) | undefined;
    setFlagsFromString('--no-expose-gc');
    return typeof gc === 'function' ? gc : () => {};
  } catch {
    return () => {};
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
 * A resolver record whose description and specs are read from packed texts when the resolver
 * asks (it reads each once or twice): in the heap they were about 0.9 KB of the 3 KB a listing
 * cost while resolve ran (issue 20).
 */
class PackedRecord implements ResolveRecord {
  readonly key: string;
  readonly source: string;
  readonly title: string;
  readonly brand: string | null;
  readonly gtin: string | null;
  readonly mpn: string | null;
  readonly price: number | null;
  readonly productType: string | null;
  readonly itemGroupId: string | null;
  readonly color: string | null;
  readonly size: string | null;
  readonly previousProduct: string | null;
  readonly #slot: number;
  readonly #packed: { descriptions: PackedTexts; specs: PackedTexts };

  constructor(
    record: Omit<Required<ResolveRecord>, 'description' | 'specs'>,
    slot: number,
    packed: { descriptions: PackedTexts; specs: PackedTexts },
  ) {
    this.key = record.key;
    this.source = record.source;
    this.title = record.title;
    this.brand = record.brand;
    this.gtin = record.gtin;
    this.mpn = record.mpn;
    this.price = record.price;
    this.productType = record.productType;
    this.itemGroupId = record.itemGroupId;
    this.color = record.color;
    this.size = record.size;
    this.previousProduct = record.previousProduct;
    this.#slot = slot;
    this.#packed = packed;
  }

  get description(): string | null {
    return this.#packed.descriptions.get(this.#slot);
  }

  get specs(): Record<string, string> {
    return JSON.parse(this.#packed.specs.get(this.#slot)!) as Record<string, string>;
  }
}

/**
 * A product type conflict pushes two listings apart, so the resolver only sees confident
 * classifications (one title word alone never reaches 0.7): a guess must not split a real match.
 */
const typeForResolver = (c: Classification | undefined): string | null =>
  c?.type && c.confidence >= 0.7 ? c.type.slug : null;
