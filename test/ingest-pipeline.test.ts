import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { currentSnapshotPath, priceIntelligence, priceSeries, storedText } from '../src/catalog/index.js';
import { runIngest } from '../src/ingest/index.js';
import { published } from './helpers/demo-data.js';
import { FIXTURES, fixtureContent } from './helpers/fixture-catalog.js';
import { withTempDir } from './helpers/processes.js';

const productIdsByOffer = (dataDir: string) =>
  published(dataDir, (db) =>
    Object.fromEntries(
      (
        db.prepare('SELECT retailer_item_id, product_id FROM offers ORDER BY 1').all() as {
          retailer_item_id: string;
          product_id: string;
        }[]
      ).map((r) => [r.retailer_item_id, r.product_id]),
    ),
  );

describe('ingest pipeline end to end', () => {
  let dir: string;
  let dataDir: string;
  let feeds: { retailer: string; path: string }[];
  const content = fixtureContent();

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shelf-ingest-'));
    dataDir = join(dir, 'data');
    feeds = [
      { retailer: 'northgate', path: join(dir, 'northgate.tsv') },
      { retailer: 'voltmart', path: join(dir, 'voltmart.csv') },
    ];
    copyFileSync(join(FIXTURES, 'feeds/northgate.tsv'), feeds[0]!.path);
    copyFileSync(join(FIXTURES, 'feeds/voltmart.csv'), feeds[1]!.path);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const ingest = (day: string) => runIngest({ dataDir, feeds, content, day });

  it('merges one product across retailers with canonical brand, schema specs and typed attributes', async () => {
    await ingest('2026-11-20');
    const washer = published(dataDir, (db) =>
      db
        .prepare(
          `SELECT p.id, b.name AS brand, p.specifications_json, p.spec_sources_json,
             (SELECT count(*) FROM offers o WHERE o.product_id = p.id) AS offers
           FROM products p JOIN brands b ON b.id = p.brand_id WHERE p.model_number = 'GFW550SSNWW'`,
        )
        .get(),
    ) as {
      id: string;
      brand: string;
      specifications_json: string;
      spec_sources_json: Buffer;
      offers: number;
    };
    // "GE Appliances" at one retailer and "General Electric" at the other: one brand, one product
    expect(washer).toMatchObject({ brand: 'GE', offers: 2 });
    expect(JSON.parse(washer.specifications_json)).toEqual({ capacity: '5 cu ft' });

    const dishwasher = published(dataDir, (db) =>
      db
        .prepare(
          `SELECT p.id, p.specifications_json, p.spec_sources_json FROM products p
           WHERE p.model_number = 'SHPM88Z75N'`,
        )
        .get(),
    ) as { id: string; specifications_json: string; spec_sources_json: Buffer };
    expect(JSON.parse(dishwasher.specifications_json)).toEqual({
      noise_level: '42 dBA',
      place_settings: '16',
      third_rack: true,
    });
    // packed since schema version 6
    expect(JSON.parse(storedText(dishwasher.spec_sources_json) as string).noise_level).toMatchObject({
      retailers: ['northgate', 'voltmart'],
      agreement: 1,
      in_schema: true,
    });
    const attributes = published(dataDir, (db) =>
      db
        .prepare(
          `SELECT key, value, numeric_value, unit, role FROM product_attributes
           WHERE product_rowid = (SELECT rowid FROM products WHERE id = ?) ORDER BY key`,
        )
        .all(dishwasher.id),
    );
    expect(attributes).toEqual([
      { key: 'color', value: 'stainless steel', numeric_value: null, unit: null, role: 'variant' },
      { key: 'noise_level', value: '42 dBA', numeric_value: 42, unit: 'dBA', role: 'spec' },
      { key: 'place_settings', value: '16', numeric_value: 16, unit: null, role: 'spec' },
      { key: 'third_rack', value: 'true', numeric_value: null, unit: null, role: 'spec' },
    ]);
  });

  it("reads a product's offers from the product index built after the load", async () => {
    await ingest('2026-11-20');
    const plan = published(dataDir, (db) =>
      db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT product_id, retailer_id, price, original_price, currency, in_stock,
             availability, retailer_url, last_seen_at FROM offers WHERE product_id = ?`,
        )
        .all('x'),
    ) as { detail: string }[];
    expect(plan.map((p) => p.detail).join()).toContain('INDEX offer_rows_product (product_rowid=?)');
  });

  it('re-running the same day is idempotent: same ids, one observation per offer and price change', async () => {
    await ingest('2026-11-20');
    const first = productIdsByOffer(dataDir);
    const count = () =>
      published(dataDir, (db) => db.prepare('SELECT count(*) AS n FROM price_observations').get()) as {
        n: number;
      };
    const before = count().n;
    await ingest('2026-11-20');
    expect(productIdsByOffer(dataDir)).toEqual(first);
    expect(count().n).toBe(before);
    // a price that holds adds no row: the series still runs through the new day
    await ingest('2026-11-21');
    expect(count().n).toBe(before);
    writeFileSync(feeds[1]!.path, readFileSync(feeds[1]!.path, 'utf8').replace('949.99 USD', '899.99 USD'));
    await ingest('2026-11-22');
    expect(count().n).toBe(before + 1);
    const dishwasher = published(dataDir, (db) => {
      const id = db.prepare("SELECT product_id FROM offers WHERE retailer_item_id = 'VM-100'").pluck().get();
      return {
        series: priceSeries(db, id as string),
        history: priceIntelligence(db, id as string, 3)?.history,
      };
    });
    expect(dishwasher.series.cents.length).toBe(3);
    expect(dishwasher.history?.map((p) => p.date)).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
  });

  it('keeps product ids when retailers rewrite their titles', async () => {
    await ingest('2026-11-20');
    const first = productIdsByOffer(dataDir);
    for (const feed of feeds)
      writeFileSync(
        feed.path,
        readFileSync(feed.path, 'utf8')
          .replace(/Bosch 800 Series SHPM88Z75N Dishwasher/, 'Quiet Dishwasher by Bosch, model SHPM88Z75N')
          .replace(/GE 5\.0 cu\. ft\. Front Load Washer/, 'Front-Loading Washing Machine (GE)'),
      );
    await ingest('2026-11-21');
    expect(productIdsByOffer(dataDir)).toEqual(first);
  });

  it('a feed that cannot be read fails alone and its retailer keeps its offers from the last catalog', async () => {
    await ingest('2026-11-20');
    const first = productIdsByOffer(dataDir);
    writeFileSync(feeds[1]!.path, '\u0000\u0001 binary garbage');
    const report = await ingest('2026-11-21');
    expect(report.published).toBe(true);
    expect(report.feeds.find((f) => f.retailer === 'voltmart')).toMatchObject({
      error: 'the feed has no rows',
      carried_over: 3,
    });
    expect(
      report.issues.some((i) => i.retailer === 'voltmart' && i.reason.startsWith('feed unreadable')),
    ).toBe(true);
    expect(productIdsByOffer(dataDir)).toEqual(first);
    // the carried offers were not seen today: no observation for the failed retailer's day
    const days = published(dataDir, (db) =>
      db
        .prepare(
          `SELECT DISTINCT date(po.day * 86400, 'unixepoch') AS day FROM price_observations po
           JOIN offers o ON o.rowid = po.offer_rowid
           JOIN retailers r ON r.id = o.retailer_id WHERE r.slug = 'voltmart'`,
        )
        .all(),
    );
    expect(days).toEqual([{ day: '2026-11-20' }]);
  });

  it('keeps a product its retailers stopped listing as legacy (tier 3, no offers, same id)', async () => {
    await ingest('2026-11-20');
    const tv = () =>
      published(dataDir, (db) =>
        db
          .prepare(
            `SELECT p.id, p.data_tier, p.current_best_price,
               (SELECT count(*) FROM offers o WHERE o.product_id = p.id) AS offers
             FROM products p WHERE p.model_number LIKE 'QN65Q80C%'`,
          )
          .get(),
      ) as { id: string; data_tier: number; current_best_price: number | null; offers: number };
    const before = tv();
    expect(before).toMatchObject({ offers: 1, current_best_price: 1199.99 });
    writeFileSync(
      feeds[1]!.path,
      readFileSync(feeds[1]!.path, 'utf8')
        .split('\n')
        .filter((line) => !line.startsWith('VM-200'))
        .join('\n'),
    );
    // one of three rows gone is a 33 % drop, above the default guard (30 %): allow it here
    const report = await runIngest({ dataDir, feeds, content, day: '2026-11-21', maxDrop: 0.5 });
    expect(report.feeds.find((f) => f.retailer === 'voltmart')).toMatchObject({ listings: 2, gone: 1 });
    expect(tv()).toEqual({ id: before.id, data_tier: 3, current_best_price: null, offers: 0 });
  });

  it('publishes nothing when no feed can be read', async () => {
    await ingest('2026-11-20');
    const before = currentSnapshotPath(dataDir);
    for (const feed of feeds) writeFileSync(feed.path, '');
    const report = await ingest('2026-11-21');
    expect(report.published).toBe(false);
    expect(currentSnapshotPath(dataDir)).toBe(before);
  });
});

describe('price history import', () => {
  it('imports past observations per offer, keeps the feed day and reports unknown offers', () =>
    withTempDir('shelf-history-', async (dir) => {
      const history = join(dir, 'history.csv');
      writeFileSync(
        history,
        [
          'retailer,id,date,price,sale_price,availability',
          'northgate,NG-1,2026-11-18,1099.00,,in stock',
          'northgate,NG-1,2026-11-19,1099.00,949.00,in stock',
          'northgate,NG-1,2026-11-20,1.00,,in stock',
          'voltmart,VM-100,2026-11-19,979.99,,out of stock',
          'voltmart,VM-999,2026-11-19,10.00,,in stock',
          'northgate,NG-1,yesterday,10.00,,in stock',
          'northgate,NG-1,2026-11-17,soon,,in stock',
          'voltmart,VM-998,2026-11-17,soon,,in stock',
        ].join('\n'),
      );
      const dataDir = join(dir, 'data');
      const feeds = [
        { retailer: 'northgate', path: join(FIXTURES, 'feeds/northgate.tsv') },
        { retailer: 'voltmart', path: join(FIXTURES, 'feeds/voltmart.csv') },
      ];
      const report = await runIngest({
        dataDir,
        feeds,
        content: fixtureContent(),
        day: '2026-11-20',
        history: [history],
      });
      expect(report.history).toEqual([
        { path: history, rows: 8, imported: 3, unknown_offers: 2, rejected: 2, error: null },
      ]);
      // a row whose price is unusable is rejected when its offer exists, else counted as unknown
      expect(report.issues.filter((i) => i.file === history).map((i) => [i.line, i.reason])).toEqual([
        [6, 'history for unknown offer voltmart/VM-999'],
        [7, 'history row needs retailer, id and date (YYYY-MM-DD)'],
        [8, expect.stringMatching(/^history price: /)],
        [9, 'history for unknown offer voltmart/VM-998'],
      ]);
      expect(report.issues).toContainEqual(
        expect.objectContaining({
          file: history,
          line: 6,
          reason: 'history for unknown offer voltmart/VM-999',
        }),
      );
      const rows = published(dataDir, (db) =>
        db
          .prepare(
            `SELECT date(po.day * 86400, 'unixepoch') AS day, po.cents / 100.0 AS price,
               po.original_cents / 100.0 AS original_price, po.in_stock
             FROM price_observations po
             JOIN offers o ON o.rowid = po.offer_rowid WHERE o.retailer_item_id = 'NG-1' ORDER BY po.day`,
          )
          .all(),
      );
      expect(rows).toEqual([
        { day: '2026-11-18', price: 1099, original_price: null, in_stock: 1 },
        { day: '2026-11-19', price: 949, original_price: 1099, in_stock: 1 },
        // the feed's own observation of the day wins over the imported one
        { day: '2026-11-20', price: 999, original_price: 1099, in_stock: 1 },
      ]);
    }));
});

describe('mixed feed formats', () => {
  it('merges XML, CSV and NDJSON listings of one product, product_detail specs included', () =>
    withTempDir('shelf-mixed-', async (dir) => {
      const ndjson = join(dir, 'jsonmart.ndjson');
      writeFileSync(
        ndjson,
        `${JSON.stringify({
          id: 'JM-1',
          title: 'Bosch SHPM88Z75N 800 Series Dishwasher',
          price: { value: '979.00', currency: 'USD' },
          brand: 'Bosch Home Appliances',
          gtin: '00825225978428',
          productDetails: [{ sectionName: 'Sound', attributeName: 'noise', attributeValue: '42 dB' }],
        })}\n`,
      );
      const dataDir = join(dir, 'data');
      const report = await runIngest({
        dataDir,
        content: fixtureContent(),
        day: '2026-11-20',
        feeds: [
          { retailer: 'harbor', path: join(FIXTURES, 'feeds/rss-xml/input.xml') },
          { retailer: 'voltmart', path: join(FIXTURES, 'feeds/voltmart.csv') },
          { retailer: 'jsonmart', path: ndjson },
        ],
      });
      expect(report.feeds.map((f) => [f.retailer, f.listings, f.error])).toEqual([
        ['harbor', 2, null],
        ['voltmart', 3, null],
        ['jsonmart', 1, null],
      ]);
      const product = published(dataDir, (db) =>
        db
          .prepare(
            `SELECT p.specifications_json, p.spec_sources_json, b.name AS brand,
               (SELECT group_concat(r.slug, ',') FROM offers o JOIN retailers r ON r.id = o.retailer_id WHERE o.product_id = p.id) AS retailers
             FROM products p JOIN brands b ON b.id = p.brand_id WHERE p.model_number = 'SHPM88Z75N'`,
          )
          .get(),
      ) as { specifications_json: string; spec_sources_json: Buffer; brand: string; retailers: string };
      expect(product.brand).toBe('Bosch');
      expect(product.retailers.split(',').sort()).toEqual(['harbor', 'jsonmart', 'voltmart']);
      expect(JSON.parse(product.specifications_json)).toMatchObject({
        noise_level: '42 dBA',
        width: '23.56 in',
        place_settings: '16',
      });
      // listings are resolved in one canonical order (retailer, item id), whatever the feed order
      expect(JSON.parse(storedText(product.spec_sources_json) as string).noise_level).toMatchObject({
        retailers: ['harbor', 'jsonmart', 'voltmart'],
        agreement: 1,
      });
    }));
});
