import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { type FeedSource, type RowIssue, readFeed } from './feeds/index.js';
import { type Listing, ListingStrings, normalizeRow, type RunListing, SpilledListing } from './listing.js';
import { startWorker } from './worker.js';

export interface FeedReport {
  path: string;
  retailer: string;
  rows: number;
  listings: number;
  rejected: number;
  warnings: number;
  /** why the feed failed as a whole; null when it was read */
  error: string | null;
  /** why a guard held this feed back (its retailer keeps its previous listings); null when accepted */
  held: string | null;
  /** listings of this retailer kept from the previous catalog because its feed failed or was held */
  carried_over: number;
  /** listings of the previous catalog this feed no longer has: kept without an offer (legacy) */
  gone: number;
}

export interface ReadResult {
  /** in feed order; each is a {@link SpilledListing} once the run spills (see {@link ListingSpill}) */
  listings: RunListing[];
  issues: RowIssue[];
  reports: FeedReport[];
}

/**
 * Where a large run's listings go as they are read (issue 20): once `at` listings have been
 * read, those held so far and every one read after go to `put`, which stores the listing and
 * returns what stays in memory of it.
 */
export interface ListingSpill {
  readonly at: number;
  put(listing: Listing): SpilledListing;
}

/** One feed read on its own: what `readFeeds` merges, in feed order. */
export interface FeedRead {
  rows: number;
  rejected: number;
  /** the accepted listings, duplicates within the feed left out */
  listings: RunListing[];
  /** the row issues in row order, each with the line it belongs to */
  issues: RowIssue[];
  /** why the feed failed as a whole; null when it was read */
  error: string | null;
}

/** Reads and normalizes one feed; ids repeated within it are bad rows (the first row counts). */
export async function readOneFeed(feed: FeedSource): Promise<FeedRead> {
  const read: FeedRead = { rows: 0, rejected: 0, listings: [], issues: [], error: null };
  const seenHere = new Set<string>();
  try {
    if (!existsSync(feed.path)) throw new Error('file not found');
    for await (const row of readFeed(feed.path)) {
      read.rows++;
      if ('error' in row) {
        read.rejected++;
        read.issues.push({ ...row, retailer: feed.retailer, severity: 'error', reason: row.error });
        continue;
      }
      const result = normalizeRow(row, feed.retailer);
      for (const i of result.issues) read.issues.push(i);
      if (result.listing && seenHere.has(result.listing.itemId)) {
        read.rejected++;
        read.issues.push(duplicateIssue(feed.retailer, result.listing));
      } else if (result.listing) {
        seenHere.add(result.listing.itemId);
        if (feed.sourceType) result.listing.sourceType = feed.sourceType;
        read.listings.push(result.listing);
      } else read.rejected++;
    }
    if (read.rows === 0) throw new Error('the feed has no rows');
    if (read.listings.length === 0)
      throw new Error('no usable rows (are the column names Merchant Center attribute names?)');
  } catch (error) {
    return { rows: 0, rejected: 0, listings: [], issues: [], error: (error as Error).message };
  }
  return read;
}

const duplicateIssue = (retailer: string, listing: RunListing): RowIssue => ({
  file: listing.file,
  line: listing.line,
  retailer,
  severity: 'error',
  reason: `duplicate id "${listing.itemId}": the first row with this id is used`,
  item_id: listing.itemId,
});

/** Threads that read feeds beside this one: one per further core, at most three. */
const readerThreads = () => Math.min(3, Math.max(0, availableParallelism() - 1));
/**
 * Feeds smaller than this in all are read on this thread alone: starting a worker (loading the
 * reader modules again, ~1 s from TypeScript sources) costs more than it saves on small runs.
 */
const THREADED_BYTES = 32 * 2 ** 20;

const totalBytes = (feeds: readonly FeedSource[]) =>
  feeds.reduce((n, f) => {
    try {
      return n + statSync(f.path).size;
    } catch {
      return n;
    }
  }, 0);

/**
 * Reads every feed: this thread and worker threads (feed-worker.ts) each take the next unread
 * feed, so parsing and normalizing use every core; where a worker cannot start, this thread
 * reads the rest. Results are merged in feed order, so the outcome does not depend on which
 * thread read what.
 */
async function readAll(
  feeds: readonly FeedSource[],
  threads: number,
  onRead: (index: number, read: FeedRead) => void,
): Promise<void> {
  let next = 0;
  const take = () => (next < feeds.length ? next++ : -1);
  const here = async () => {
    for (let i = take(); i >= 0; i = take()) onRead(i, await readOneFeed(feeds[i]!));
  };
  const inWorker = async () => {
    let worker: Worker;
    try {
      worker = startWorker('feed-worker', null);
    } catch {
      return here();
    }
    // one feed at a time; a worker that fails leaves its feed and the rest to this thread
    let dead = false;
    let pending: ((read: FeedRead | null) => void) | null = null;
    const settle = (read: FeedRead | null) => {
      const resolve = pending;
      pending = null;
      resolve?.(read);
    };
    worker.on('message', (read: FeedRead) => settle(read));
    for (const event of ['error', 'exit'])
      worker.on(event, () => {
        dead = true;
        settle(null);
      });
    try {
      for (let i = take(); i >= 0; i = take()) {
        const feed = feeds[i]!;
        const read = dead
          ? null
          : await new Promise<FeedRead | null>((resolve) => {
              pending = resolve;
              worker.postMessage(feed);
            });
        onRead(i, read ?? (await readOneFeed(feed)));
      }
    } finally {
      await worker.terminate();
    }
  };
  const workers = Math.max(0, Math.min(threads, feeds.length - 1));
  await Promise.all([here(), ...Array.from({ length: workers }, inWorker)]);
}

/**
 * Reads and normalizes every feed. A bad row becomes an issue with file and line and the rest
 * of its feed still counts; a feed that cannot be read at all (missing, unknown format, broken
 * XML, no usable row) fails alone, and none of its rows are used.
 */
export async function readFeeds(
  feeds: readonly FeedSource[],
  progress: (event: { phase: string; done?: number; total?: number }) => void,
  /** worker threads beside this one; default: one per further core once the feeds are large */
  threads = totalBytes(feeds) >= THREADED_BYTES ? readerThreads() : 0,
  /** where the listings go from the moment `spill.at` have been read; default: they stay in memory */
  spill?: ListingSpill,
): Promise<ReadResult> {
  const reads: FeedRead[] = new Array(feeds.length);
  // listings read so far; from `spill.at` on, each feed's listings leave the heap as it arrives
  let count = 0;
  let spilling = false;
  const spillRead = (read: FeedRead) => {
    read.listings = read.listings.map((l) => (l instanceof SpilledListing ? l : spill!.put(l)));
  };
  await readAll(feeds, threads, (index, read) => {
    reads[index] = read;
    count += read.listings.length;
    if (spill && !spilling && count >= spill.at) {
      spilling = true;
      for (const held of reads) if (held) spillRead(held);
    } else if (spilling) spillRead(read);
    progress({ phase: `read ${feeds[index]!.retailer}`, done: read.rows });
  });
  const listings: RunListing[] = [];
  const issues: RowIssue[] = [];
  const reports: FeedReport[] = [];
  // item ids are unique per retailer (Merchant Center's rule); a repeated id is a bad row
  const seenIds = new Map<string, Set<string>>();
  const strings = new ListingStrings();
  for (const [index, feed] of feeds.entries()) {
    const read = reads[index]!;
    const report: FeedReport = {
      path: feed.path,
      retailer: feed.retailer,
      rows: read.rows,
      listings: 0,
      rejected: read.rejected,
      warnings: 0,
      error: read.error,
      held: null,
      carried_over: 0,
      gone: 0,
    };
    reports.push(report);
    const unreadable = (reason: string) => {
      report.rows = 0;
      report.rejected = 0;
      report.error = reason;
      issues.push({
        file: feed.path,
        line: 0,
        retailer: feed.retailer,
        severity: 'error',
        reason: `feed unreadable: ${reason}`,
      });
    };
    if (read.error) {
      unreadable(read.error);
      continue;
    }
    const seen = seenIds.get(feed.retailer) ?? new Set<string>();
    seenIds.set(feed.retailer, seen);
    // ids an earlier feed of the same retailer had: bad rows of this one, reported in row order
    let feedIssues = read.issues;
    let feedListings = read.listings;
    if (seen.size > 0 && read.listings.some((l) => seen.has(l.itemId))) {
      const repeated = read.listings.filter((l) => seen.has(l.itemId));
      feedListings = read.listings.filter((l) => !seen.has(l.itemId));
      // as if read row by row: a feed whose every row repeats an earlier feed has no usable row
      if (feedListings.length === 0) {
        unreadable('no usable rows (are the column names Merchant Center attribute names?)');
        continue;
      }
      report.rejected += repeated.length;
      feedIssues = mergeByLine(
        read.issues,
        repeated.map((l) => duplicateIssue(feed.retailer, l)),
      );
    }
    for (const l of feedListings) seen.add(l.itemId);
    report.listings = feedListings.length;
    report.warnings = feedIssues.filter((i) => i.severity === 'warning').length;
    for (const l of feedListings) listings.push(l instanceof SpilledListing ? l : strings.share(l));
    for (const i of feedIssues) issues.push(i);
  }
  return { listings, issues, reports };
}

/** Issues of both lists in line order; at one line, `first`'s before `second`'s. */
function mergeByLine(first: RowIssue[], second: RowIssue[]): RowIssue[] {
  const out: RowIssue[] = [];
  let j = 0;
  for (const issue of first) {
    while (j < second.length && second[j]!.line < issue.line) out.push(second[j++]!);
    out.push(issue);
  }
  while (j < second.length) out.push(second[j++]!);
  return out;
}
