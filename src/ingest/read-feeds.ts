import { existsSync } from 'node:fs';
import { type FeedSource, type RowIssue, readFeed } from './feeds/index.js';
import { type Listing, normalizeRow } from './listing.js';

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
  listings: Listing[];
  issues: RowIssue[];
  reports: FeedReport[];
}

/**
 * Reads and normalizes every feed. A bad row becomes an issue with file and line and the rest
 * of its feed still counts; a feed that cannot be read at all (missing, unknown format, broken
 * XML, no usable row) fails alone, and none of its rows are used.
 */
export async function readFeeds(
  feeds: readonly FeedSource[],
  progress: (event: { phase: string; done?: number; total?: number }) => void,
): Promise<ReadResult> {
  const listings: Listing[] = [];
  const issues: RowIssue[] = [];
  const reports: FeedReport[] = [];
  // item ids are unique per retailer (Merchant Center's rule); a repeated id is a bad row
  const seenIds = new Map<string, Set<string>>();
  for (const feed of feeds) {
    const seen = seenIds.get(feed.retailer) ?? new Set<string>();
    seenIds.set(feed.retailer, seen);
    const report: FeedReport = {
      path: feed.path,
      retailer: feed.retailer,
      rows: 0,
      listings: 0,
      rejected: 0,
      warnings: 0,
      error: null,
      held: null,
      carried_over: 0,
      gone: 0,
    };
    reports.push(report);
    const feedListings: Listing[] = [];
    const feedIssues: RowIssue[] = [];
    // ids of this feed count for the retailer only once the feed has been read whole
    const seenHere = new Set<string>();
    try {
      if (!existsSync(feed.path)) throw new Error('file not found');
      for await (const row of readFeed(feed.path)) {
        report.rows++;
        if ('error' in row) {
          report.rejected++;
          feedIssues.push({ ...row, retailer: feed.retailer, severity: 'error', reason: row.error });
          continue;
        }
        const result = normalizeRow(row, feed.retailer);
        for (const i of result.issues) feedIssues.push(i);
        if (result.listing && (seen.has(result.listing.itemId) || seenHere.has(result.listing.itemId))) {
          report.rejected++;
          feedIssues.push({
            file: row.file,
            line: row.line,
            retailer: feed.retailer,
            severity: 'error',
            reason: `duplicate id "${result.listing.itemId}": the first row with this id is used`,
            item_id: result.listing.itemId,
          });
        } else if (result.listing) {
          seenHere.add(result.listing.itemId);
          if (feed.sourceType) result.listing.sourceType = feed.sourceType;
          feedListings.push(result.listing);
        } else report.rejected++;
        if (report.rows % 5000 === 0) progress({ phase: `read ${feed.retailer}`, done: report.rows });
      }
      if (report.rows === 0) throw new Error('the feed has no rows');
      if (feedListings.length === 0)
        throw new Error('no usable rows (are the column names Merchant Center attribute names?)');
    } catch (error) {
      report.error = (error as Error).message;
      report.rows = 0;
      report.rejected = 0;
      issues.push({
        file: feed.path,
        line: 0,
        retailer: feed.retailer,
        severity: 'error',
        reason: `feed unreadable: ${report.error}`,
      });
      continue;
    }
    for (const id of seenHere) seen.add(id);
    report.listings = feedListings.length;
    report.warnings = feedIssues.filter((i) => i.severity === 'warning').length;
    for (const l of feedListings) listings.push(l);
    for (const i of feedIssues) issues.push(i);
  }
  return { listings, issues, reports };
}
