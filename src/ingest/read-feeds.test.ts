import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Listing, SpilledListing } from './listing.js';
import { readFeeds } from './read-feeds.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/feeds');
const dir = mkdtempSync(join(tmpdir(), 'shelf-read-feeds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readFeeds', () => {
  // a second northgate feed repeating NG-1 (a bad row of the second feed) and adding one id
  const lines = readFileSync(join(FIXTURES, 'northgate.tsv'), 'utf8').split('\n');
  const second = join(dir, 'northgate-more.tsv');
  writeFileSync(second, [lines[0], lines[1], lines[1]!.replace(/^NG-1\t/, 'NG-NEW\t')].join('\n'));
  const feeds = [
    { retailer: 'northgate', path: join(FIXTURES, 'northgate.tsv') },
    { retailer: 'voltmart', path: join(FIXTURES, 'voltmart.csv') },
    { retailer: 'missing', path: join(dir, 'missing.tsv') },
    { retailer: 'northgate', path: second },
  ];

  it('gives the same listings, issues and reports read by worker threads as on one thread', async () => {
    const alone = await readFeeds(feeds, () => {}, 0);
    const threaded = await readFeeds(feeds, () => {}, 2);
    expect(threaded).toEqual(alone);
    expect(alone.reports.map((r) => [r.retailer, r.listings, r.rejected, r.error])).toEqual([
      ['northgate', alone.reports[0]!.listings, alone.reports[0]!.rejected, null],
      ['voltmart', alone.reports[1]!.listings, alone.reports[1]!.rejected, null],
      ['missing', 0, 0, 'file not found'],
      ['northgate', 1, 1, null],
    ]);
    expect(alone.issues).toContainEqual(
      expect.objectContaining({
        file: second,
        line: 2,
        reason: 'duplicate id "NG-1": the first row with this id is used',
      }),
    );
  });

  it('hands every listing to the spill once `at` listings are read, and gives the same result', async () => {
    const alone = await readFeeds(feeds, () => {}, 0);
    const total = alone.listings.length;
    for (const at of [0, 2, total + 10]) {
      const stored: Listing[] = [];
      const spill = {
        at,
        put: (l: Listing) =>
          new SpilledListing(stored.push(l) - 1, l.key, l.retailer, l.file, l.line, l.price),
      };
      const read = await readFeeds(feeds, () => {}, 0, spill);
      const spilled = read.listings.filter((l) => l instanceof SpilledListing);
      // all or nothing: from the feed that reaches `at`, the ones before it go too
      expect(spilled.length).toBe(at <= total ? total : 0);
      const restored = read.listings.map((l) => (l instanceof SpilledListing ? stored[l.id]! : l));
      expect(restored).toEqual(alone.listings);
      expect(spilled.map((l) => [l.itemId, l.file, l.line])).toEqual(
        at <= total
          ? alone.listings.map((l) => [(l as Listing).itemId, (l as Listing).file, (l as Listing).line])
          : [],
      );
      expect(read.issues).toEqual(alone.issues);
      expect(read.reports).toEqual(alone.reports);
    }
  });
});
