import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { currentSnapshotPath, openReadOnly } from '../src/catalog/index.js';
import { runIngest } from '../src/ingest/index.js';
import { FIXTURES, fixtureContent } from './helpers/fixture-catalog.js';

/** Reads the published catalog of a data dir. */
function published<T>(dataDir: string, fn: (db: ReturnType<typeof openReadOnly>) => T): T {
  const path = currentSnapshotPath(dataDir);
  if (!path) throw new Error('nothing published');
  const db = openReadOnly(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

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
      spec_sources_json: string;
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
    ) as { id: string; specifications_json: string; spec_sources_json: string };
    expect(JSON.parse(dishwasher.specifications_json)).toEqual({
      noise_level: '42 dBA',
      place_settings: '16',
      third_rack: true,
    });
    expect(JSON.parse(dishwasher.spec_sources_json).noise_level).toMatchObject({
      retailers: ['northgate', 'voltmart'],
      agreement: 1,
      in_schema: true,
    });
    const attributes = published(dataDir, (db) =>
      db
        .prepare(
          'SELECT key, value, numeric_value, unit, role FROM product_attributes WHERE product_id = ? ORDER BY key',
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

  it('re-running the same day is idempotent: same ids, one observation per offer and day', async () => {
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
    await ingest('2026-11-21');
    expect(count().n).toBe(before * 2);
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
          `SELECT DISTINCT po.day FROM price_observations po JOIN offers o ON o.id = po.offer_id
           JOIN retailers r ON r.id = o.retailer_id WHERE r.slug = 'voltmart'`,
        )
        .all(),
    );
    expect(days).toEqual([{ day: '2026-11-20' }]);
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
