import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSnapshotPath } from '../src/catalog/index.js';
import { type FeedSource, IngestInputError, runIngest } from '../src/ingest/index.js';
import { offersOf, rewriteTsv, type SmallDemo, smallDemo, visibleProducts } from './helpers/demo-data.js';

/**
 * Ingest semantics (issue 18): the catalog is the union of each retailer's latest accepted
 * feed; guards hold back feeds and catalogs that shrink sharply or lack prices.
 */
describe('the catalog is the union of each retailer’s latest accepted feed', () => {
  let demo: SmallDemo;
  let a: FeedSource;
  let b: FeedSource;
  const byRetailer = (offers: ReturnType<typeof offersOf>, retailer: string) =>
    offers.filter((o) => o.retailer === retailer);
  const others = (offers: ReturnType<typeof offersOf>, ...except: string[]) =>
    offers.filter((o) => !except.includes(o.retailer));

  beforeAll(async () => {
    demo = await smallDemo();
    const tsv = demo.feeds.filter((f) => f.path.endsWith('.tsv'));
    [a, b] = [tsv[0]!, tsv[1]!];
  }, 300_000);
  afterAll(() => demo?.cleanup());

  const ingest = (
    dataDir: string,
    feeds: FeedSource[],
    extra: Partial<Parameters<typeof runIngest>[0]> = {},
  ) => runIngest({ dataDir, feeds, content: demo.content, day: '2026-11-21', ...extra });

  it("a run with one retailer's feed replaces that retailer's listings only; the others keep theirs", async () => {
    const dataDir = demo.clone();
    const before = offersOf(dataDir);
    const visible = visibleProducts(dataDir);
    // the retailer drops a tenth of its rows and raises every price by 10
    const path = join(demo.root, 'a-changed.tsv');
    rewriteTsv(a.path, path, (c, i) =>
      i % 10 === 0
        ? null
        : { ...c, price: c.price?.replace(/^[\d.]+/, (p) => (Number(p) + 10).toFixed(2)) ?? '' },
    );
    const report = await ingest(dataDir, [{ retailer: a.retailer, path }]);
    expect(report).toMatchObject({ published: true, held: [], refused: null });
    expect(report.kept.map((k) => k.retailer).sort()).toEqual(
      demo.feeds
        .map((f) => f.retailer)
        .filter((r) => r !== a.retailer)
        .sort(),
    );
    const after = offersOf(dataDir);
    // every other retailer: the same offers, products and prices as before
    expect(others(after, a.retailer)).toEqual(others(before, a.retailer));
    // the retailer of the run: its new listings, its new prices, the same product ids
    const oldA = new Map(byRetailer(before, a.retailer).map((o) => [o.id, o]));
    const newA = byRetailer(after, a.retailer);
    expect(newA.length).toBeGreaterThan(0);
    expect(newA.length).toBeLessThan(oldA.size);
    for (const o of newA) {
      const old = oldA.get(o.id);
      expect(old?.product_id).toBe(o.product_id);
      if (old?.price != null && o.price != null) expect(o.price).toBeCloseTo(old.price + 10, 2);
    }
    expect(visibleProducts(dataDir)).toBeGreaterThan(visible * 0.9);
  });

  it('holds back a retailer whose feed shrank by more than the allowed share; nothing else to publish', async () => {
    const dataDir = demo.clone();
    const current = currentSnapshotPath(dataDir);
    const path = join(demo.root, 'a-three.tsv');
    rewriteTsv(a.path, path, (c, i) => (i < 3 ? c : null));
    const report = await ingest(dataDir, [{ retailer: a.retailer, path }]);
    expect(report.published).toBe(false);
    expect(report.refused).toBe('every feed that could be read was held back by a guard');
    expect(report.held).toEqual([
      {
        retailer: a.retailer,
        listings: expect.any(Number),
        reason: expect.stringMatching(
          /^3 accepted rows against \d+ in its previous feed \([\d.]+ % fewer; at most 30 % allowed\)$/,
        ),
      },
    ]);
    expect(currentSnapshotPath(dataDir)).toBe(current);
  });

  it('publishes the other feeds of the run and keeps the held retailer’s previous listings', async () => {
    const dataDir = demo.clone();
    const before = offersOf(dataDir);
    const path = join(demo.root, 'a-three-2.tsv');
    rewriteTsv(a.path, path, (c, i) => (i < 3 ? c : null));
    const report = await ingest(dataDir, [{ retailer: a.retailer, path }, b]);
    expect(report.published).toBe(true);
    expect(report.held.map((h) => h.retailer)).toEqual([a.retailer]);
    const feed = report.feeds.find((f) => f.retailer === a.retailer);
    expect(feed?.held).toMatch(/accepted rows against/);
    expect(feed?.carried_over).toBe(byRetailer(before, a.retailer).length);
    expect(byRetailer(offersOf(dataDir), a.retailer)).toEqual(byRetailer(before, a.retailer));
  });

  it('holds back a feed whose rows have no usable price (blank prices)', async () => {
    const dataDir = demo.clone();
    const before = offersOf(dataDir);
    const path = join(demo.root, 'b-blank.tsv');
    rewriteTsv(b.path, path, (c) => ({ ...c, price: '', sale_price: '' }));
    const report = await ingest(dataDir, [{ retailer: b.retailer, path }, a]);
    expect(report.published).toBe(true);
    expect(report.held).toEqual([
      {
        retailer: b.retailer,
        listings: expect.any(Number),
        reason: expect.stringMatching(
          /^(\d+) of \1 accepted rows have no usable price \(at most 30 % may lack one\)$/,
        ),
      },
    ]);
    expect(byRetailer(offersOf(dataDir), b.retailer)).toEqual(byRetailer(before, b.retailer));
  });

  it('--force accepts a feed the guards would hold back', async () => {
    const dataDir = demo.clone();
    const path = join(demo.root, 'a-three-3.tsv');
    rewriteTsv(a.path, path, (c, i) => (i < 3 ? c : null));
    const report = await ingest(dataDir, [{ retailer: a.retailer, path }], { force: true });
    expect(report).toMatchObject({ published: true, held: [] });
    expect(byRetailer(offersOf(dataDir), a.retailer).length).toBeLessThanOrEqual(3);
  });

  it('a retailer leaves only by an explicit removal; an unknown one is refused', async () => {
    const dataDir = demo.clone();
    const before = offersOf(dataDir);
    const report = await ingest(dataDir, [], { remove: [a.retailer] });
    expect(report).toMatchObject({
      published: true,
      removed: [{ retailer: a.retailer, listings: expect.any(Number) }],
    });
    const after = offersOf(dataDir);
    expect(byRetailer(after, a.retailer)).toEqual([]);
    // every other retailer keeps every offer with its price and stock …
    const strip = (offers: ReturnType<typeof offersOf>) => offers.map(({ product_id: _, ...o }) => o);
    expect(strip(others(after, a.retailer))).toEqual(strip(others(before, a.retailer)));
    // … and its product, even where the removed retailer's listing was the only link between
    // two others' listings of one product: their evidence did not change, so nothing moves
    const was = new Map(others(before, a.retailer).map((o) => [o.id, o.product_id]));
    const moved = others(after, a.retailer).filter((o) => was.get(o.id) !== o.product_id);
    expect(moved).toEqual([]);

    const unknown = await ingest(dataDir, [], { remove: ['no-such-shop'] });
    expect(unknown.published).toBe(false);
    expect(unknown.refused).toMatch(
      /^cannot remove "no-such-shop": not in the published catalog \(retailers: /,
    );
  });

  it('does not publish a run that would shrink the visible products by more than the share', async () => {
    const dataDir = demo.clone();
    const current = currentSnapshotPath(dataDir);
    const visible = visibleProducts(dataDir);
    const all = demo.feeds.map((f) => f.retailer);
    const remove = all.slice(0, Math.ceil(all.length * 0.6));
    const report = await ingest(dataDir, [], { remove });
    expect(report.published).toBe(false);
    expect(report.refused).toMatch(
      /^visible products would drop from \d+ to \d+ \([\d.]+ % fewer; at most 30 % allowed\)$/,
    );
    expect(report.visible_products.before).toBe(visible);
    expect(currentSnapshotPath(dataDir)).toBe(current);
    // no partial or refused snapshot is left behind
    const forced = await ingest(dataDir, [], { remove, force: true });
    expect(forced.published).toBe(true);
    expect(visibleProducts(dataDir)).toBe(forced.visible_products.after);
  });

  it('runIngest validates its own inputs before reading or writing anything', async () => {
    const dataDir = demo.clone();
    const cases: [Partial<Parameters<typeof runIngest>[0]>, RegExp][] = [
      [{ day: '2026-02-30' }, /^day must be a calendar date YYYY-MM-DD, got "2026-02-30"$/],
      [{ day: "2026-11-21' OR 1=1" }, /^day must be a calendar date/],
      [{ feeds: [{ retailer: 'Bad Shop', path: a.path }] }, /^feeds\[0\]\.retailer must be a slug/],
      [{ feeds: [{ retailer: 'shop', path: '' }] }, /^feeds\[0\]\.path must be a file path$/],
      [{ maxDrop: 2 }, /^maxDrop must be a share between 0 and 1, got 2$/],
      [{ feeds: [a], remove: [a.retailer] }, /is both given a feed and removed/],
      [{ remove: ['x;drop'] }, /^remove: "x;drop" is not a retailer slug/],
      [{ feeds: [] }, /^give at least one feed, or a retailer to remove$/],
      [{ dataDir: '' }, /^dataDir must be a non-empty path$/],
    ];
    for (const [options, message] of cases) {
      const run = runIngest({ dataDir, feeds: [a], content: demo.content, ...options });
      await expect(run).rejects.toBeInstanceOf(IngestInputError);
      await expect(run).rejects.toThrow(message);
    }
  });
});
