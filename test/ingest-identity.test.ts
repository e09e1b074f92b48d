import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Content, loadContent } from '../src/content/index.js';
import { DEFAULT_DEMO_PRODUCTS, generateDemo } from '../src/demo/index.js';
import { type FeedSource, runIngest } from '../src/ingest/index.js';
import { offersOf, published, rewriteTsv } from './helpers/demo-data.js';

/**
 * Ids are stable across re-ingests (DESIGN §4, issue 18), over the full demo catalog: the
 * variant patterns that split or moved listings (near-identical model numbers across colors,
 * retitled listings) only show at its scale. Three ingests of it take about 5 minutes of CPU
 * (`SHELF_IDENTITY_PRODUCTS=N` runs a smaller demo while iterating).
 */
const PRODUCTS = Number(process.env.SHELF_IDENTITY_PRODUCTS ?? DEFAULT_DEMO_PRODUCTS);

interface Identity {
  products: { id: string; slug: string; product_group_id: string | null }[];
  groups: { id: string; slug: string }[];
}

const identity = (dataDir: string): Identity & { offers: ReturnType<typeof offersOf> } =>
  published(dataDir, (db) => ({
    products: db
      .prepare('SELECT id, slug, product_group_id FROM products ORDER BY id')
      .all() as Identity['products'],
    groups: db.prepare('SELECT id, slug FROM product_groups ORDER BY id').all() as Identity['groups'],
    offers: offersOf(dataDir),
  }));

describe('product ids across re-ingests', () => {
  let root: string;
  let content: Content;
  let feeds: FeedSource[];
  let dataDir: string;
  let first: ReturnType<typeof identity>;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'shelf-identity-'));
    content = loadContent();
    const demo = await generateDemo({
      outDir: join(root, 'feeds'),
      content,
      products: PRODUCTS,
      endDay: '2026-11-20',
      historyDays: 0,
    });
    feeds = demo.feeds;
    dataDir = join(root, 'data');
    await runIngest({ dataDir, feeds, content, day: '2026-11-20' });
    first = identity(dataDir);
  }, 1_800_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('identical feeds ingested twice (in another order) give identical product ids, offers and groups', async () => {
    // the order a shell gives `ingest feeds/*.tsv feeds/*.csv`, not the order the demo wrote them
    const globbed = [...feeds].sort(
      (a, b) =>
        Number(a.path.endsWith('.csv')) - Number(b.path.endsWith('.csv')) || a.path.localeCompare(b.path),
    );
    const report = await runIngest({ dataDir, feeds: globbed, content, day: '2026-11-20' });
    expect(report.published).toBe(true);
    const second = identity(dataDir);
    expect(second.products.length).toBeGreaterThan(PRODUCTS * 0.9);
    expect(second.products).toEqual(first.products);
    expect(second.groups).toEqual(first.groups);
    expect(second.offers).toEqual(first.offers);
  }, 900_000);

  it("a product keeps its id when one retailer's titles, prices and stock change", async () => {
    const feed = feeds.filter((f) => f.path.endsWith('.tsv'))[0]!;
    const changed = join(root, 'changed.tsv');
    rewriteTsv(feed.path, changed, (c, i) => ({
      ...c,
      title: i % 2 === 0 ? `${c.title} - Free Delivery` : (c.title ?? '').toUpperCase(),
      price: c.price?.replace(/^[\d.]+/, (p) => (Number(p) * 1.07).toFixed(2)) ?? '',
      availability: i % 3 === 0 ? 'out of stock' : (c.availability ?? ''),
    }));
    const report = await runIngest({
      dataDir,
      feeds: [{ retailer: feed.retailer, path: changed }],
      content,
      day: '2026-11-21',
    });
    expect(report).toMatchObject({ published: true, held: [] });
    const after = identity(dataDir);
    expect(after.products.map((p) => p.id)).toEqual(first.products.map((p) => p.id));
    // every offer stays on its product; the changed retailer's prices and stock moved
    const productOf = (offers: typeof first.offers) => offers.map((o) => [o.id, o.product_id]);
    expect(productOf(after.offers)).toEqual(productOf(first.offers));
    const mine = (offers: typeof first.offers) => offers.filter((o) => o.retailer === feed.retailer);
    expect(mine(after.offers).map((o) => o.price)).not.toEqual(mine(first.offers).map((o) => o.price));
    expect(mine(after.offers).filter((o) => o.in_stock === 0).length).toBeGreaterThan(
      mine(first.offers).filter((o) => o.in_stock === 0).length,
    );
  }, 900_000);
});
