import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../src/access/index.js';
import { buildApp, type RunningServer, startServer } from '../src/api/index.js';
import { CatalogProvider, currentSnapshotPath } from '../src/catalog/index.js';
import { loadConfig } from '../src/config.js';
import type { Product } from '../src/schemas/index.js';
import { expectOk } from './helpers/assertions.js';
import { ingestDemo } from './helpers/demo-catalog.js';
import { type FixtureCatalog, fixtureCatalog } from './helpers/fixture-catalog.js';
import { get } from './helpers/http.js';

const serve = (dataDir: string) =>
  startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', SHELF_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));

/**
 * GET /v2/products/{id} and /by-slug/{slug} answer from the document stored at ingest when
 * no include_* flag or format is asked for; every other request builds the product. Both
 * ways must give the same product, and snapshots without stored documents still work.
 */
describe('stored product documents', () => {
  let catalog: FixtureCatalog;
  let server: RunningServer;
  let key: string;
  let products: { id: string; slug: string }[];
  const byId = new Map<string, Product>();

  beforeAll(async () => {
    catalog = await fixtureCatalog();
    key = catalog.key('pro');
    const db = new Database(currentSnapshotPath(catalog.dataDir) as string, { readonly: true });
    products = db.prepare('SELECT id, slug FROM products').all() as { id: string; slug: string }[];
    db.close();
    server = await serve(catalog.dataDir);
  });
  afterAll(async () => {
    await server?.close();
    catalog?.cleanup();
  });

  it('every product reads the same from its document as when built per request', async () => {
    expect(products.length).toBeGreaterThan(2);
    for (const { id, slug } of products) {
      const stored = await get(server.url, `/v2/products/${id}`, key);
      expect(stored.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(stored.headers.get('etag')).toMatch(/^W\/"[\w-]+"$/);
      const data = expectOk<Product>(stored);
      // an include flag takes the per-request path; without the extra field it is the same product
      const built = expectOk<Product>(await get(server.url, `/v2/products/${id}?include_attributes=1`, key));
      expect(built.attributes).toBeInstanceOf(Array);
      delete built.attributes;
      expect(data).toEqual(built);
      expect(expectOk<Product>(await get(server.url, `/v2/products/by-slug/${slug}`, key))).toEqual(data);
      byId.set(id, data);
    }
  });

  it('a stored answer is cached like any other: meta.cached, same ETag, 304', async () => {
    const { id } = products[0] as { id: string };
    const first = await get(server.url, `/v2/products/${id}?include_offers=false`, key);
    const again = await get(server.url, `/v2/products/${id}?include_offers=false`, key);
    expect((first.body.meta as { cached: boolean }).cached).toBe(false);
    expect((again.body.meta as { cached: boolean }).cached).toBe(true);
    expect(again.body.data).toEqual(first.body.data);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    const etag = first.headers.get('etag') as string;
    expect((await get(server.url, `/v2/products/${id}`, key, { 'if-none-match': etag })).status).toBe(304);
  });

  it('unknown ids and slugs are still 404', async () => {
    const missing = await get(server.url, '/v2/products/00000000-0000-4000-8000-000000000000', key);
    expect(missing.status).toBe(404);
    expect((await get(server.url, '/v2/products/by-slug/no-such-product', key)).status).toBe(404);
  });

  it('a snapshot written before stored documents is served the same', async () => {
    await server.close();
    const db = new Database(currentSnapshotPath(catalog.dataDir) as string);
    db.exec('DROP TABLE product_documents');
    db.close();
    server = await serve(catalog.dataDir);
    for (const { id } of products.slice(0, 10))
      expect(expectOk<Product>(await get(server.url, `/v2/products/${id}`, key))).toEqual(byId.get(id));
  });
});

/** A demo catalog with price history, served with its read models and without them. */
describe('read models of a demo catalog', () => {
  let root: string;
  const apps: { app: FastifyInstance; provider: CatalogProvider; keys: KeyStore; enterprise: string[] }[] =
    [];
  let ids: string[];

  const open = async (dataDir: string) => {
    const keys = new KeyStore(dataDir);
    // several reads per product: more than one key's per-minute limit
    const enterprise = Array.from(
      { length: 24 },
      () => keys.create({ plan: 'enterprise', type: 'secret', env: 'test' }).key,
    );
    const provider = new CatalogProvider({ dataDir });
    provider.refresh();
    const app = await buildApp({ catalog: provider, keys, access: { cache: { maxEntries: 0 } } });
    apps.push({ app, provider, keys, enterprise });
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'shelf-docs-'));
    const dataDir = join(root, 'current');
    await ingestDemo({
      feedsDir: join(root, 'feeds'),
      dataDir,
      // enough products that a common word matches more than a search ranks at once (200):
      // titles carry a series only where the brand has real lines, so "black" (~13 %) is the
      // broadest word
      products: 2000,
      seed: 11,
      historyDays: 60,
      withHistory: true,
    });
    // the same snapshot as an older version of ingest wrote it: no read models
    const legacyDir = join(root, 'legacy');
    cpSync(join(dataDir, 'catalog'), join(legacyDir, 'catalog'), { recursive: true });
    const legacy = new Database(currentSnapshotPath(legacyDir) as string);
    // price observations, relationships and attributes as version 1 stored them: UUIDs, day
    // text, prices (migrations/008-lean.ts)
    legacy.exec(`DROP TABLE product_documents; DROP TABLE product_price_series;
      CREATE TABLE v1_observations (offer_id TEXT NOT NULL, day TEXT NOT NULL, price REAL NOT NULL,
        original_price REAL, in_stock INTEGER NOT NULL, PRIMARY KEY (offer_id, day)) WITHOUT ROWID;
      INSERT INTO v1_observations
        SELECT o.id, date(po.day * 86400, 'unixepoch'), po.cents / 100.0, po.original_cents / 100.0, po.in_stock
        FROM price_observations po JOIN offers o ON o.rowid = po.offer_rowid;
      DROP TABLE price_observations;
      ALTER TABLE v1_observations RENAME TO price_observations;
      CREATE TABLE v1_relationships (product_id TEXT NOT NULL, type TEXT NOT NULL, related_id TEXT NOT NULL,
        score REAL NOT NULL DEFAULT 0, PRIMARY KEY (product_id, type, related_id)) WITHOUT ROWID;
      INSERT INTO v1_relationships SELECT p.id, r.type, q.id, r.score FROM relationships r
        JOIN products p ON p.rowid = r.product_rowid JOIN products q ON q.rowid = r.related_rowid;
      DROP TABLE relationships;
      ALTER TABLE v1_relationships RENAME TO relationships;
      CREATE TABLE v1_attributes (product_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
        numeric_value REAL, unit TEXT, role TEXT NOT NULL, PRIMARY KEY (product_id, key, value)) WITHOUT ROWID;
      INSERT INTO v1_attributes SELECT p.id, a.key, a.value, a.numeric_value, a.unit, a.role
        FROM product_attributes a JOIN products p ON p.rowid = a.product_rowid;
      DROP TABLE product_attributes;
      ALTER TABLE v1_attributes RENAME TO product_attributes;
      CREATE INDEX product_attributes_key ON product_attributes(key, numeric_value);
      PRAGMA user_version = 1`);
    legacy.close();
    await open(dataDir);
    await open(legacyDir);
    const db = apps[0]?.provider.current?.db;
    if (!db) throw new Error('the demo catalog was not published');
    ids = db.prepare('SELECT id FROM products').pluck().all() as string[];
  }, 300_000);
  afterAll(async () => {
    for (const { app, provider, keys } of apps) {
      await app.close();
      provider.close();
      keys.close();
    }
    rmSync(root, { recursive: true, force: true });
  });

  let n = 0;
  const read = async (which: 0 | 1, url: string) => {
    const { app, enterprise } = apps[which] as (typeof apps)[number];
    const response = await app.inject({
      url,
      headers: { 'x-api-key': enterprise[n++ % enterprise.length] as string },
    });
    expect(response.statusCode).toBe(200);
    const body = JSON.parse(response.body);
    delete body.meta;
    return body;
  };

  it('every product, of every tier, group and kind, reads the same from its document as built per request', async () => {
    expect(ids.length).toBeGreaterThan(300);
    let grouped = 0;
    for (const id of ids) {
      const stored = (await read(0, `/v2/products/${id}`)).data as Product;
      const built = (await read(0, `/v2/products/${id}?include_attributes=true`)).data as Product;
      delete built.attributes;
      expect(stored).toEqual(built);
      expect(await read(1, `/v2/products/${id}`)).toEqual({ success: true, data: stored });
      // again: now from the documents kept in memory
      expect(await read(0, `/v2/products/${id}`)).toEqual({ success: true, data: stored });
      if (stored.product_group) grouped++;
    }
    expect(grouped).toBeGreaterThan(0);
  }, 120_000);

  it('product lists read the same from stored documents as built per request', async () => {
    const lists = [
      '/v2/products?limit=100&include_legacy=true',
      '/v2/products?sort=-price&limit=50',
      '/v2/products?q=dishwasher&limit=30',
      '/v2/products?q=samsung&sort=name&limit=10',
      '/v2/products?q=nosuchwordanywhere',
    ];
    for (const url of lists) {
      const stored = await read(0, url);
      expect(await read(1, url)).toEqual(stored);
      // and the next page of each, through its cursor
      const next = stored.pagination.nextCursor;
      if (next) {
        const page2 = `${url}&cursor=${next}`;
        expect(await read(1, page2)).toEqual(await read(0, page2));
      }
    }
    const first = await read(0, '/v2/products?limit=5');
    expect(first.data).toHaveLength(5);
    expect(first.data[0]._knowledge).toBeUndefined();
  });

  it('a search total is the number of products its pages hold, whether few or many match', async () => {
    const db = apps[0]?.provider.current?.db;
    if (!db) throw new Error('no catalog');
    const terms = db
      .prepare(
        "SELECT term, df FROM search_vocabulary WHERE term GLOB '[a-z][a-z][a-z][a-z]*' ORDER BY df DESC",
      )
      .all() as { term: string; df: number }[];
    const broad = terms[0]?.term as string;
    const rare = terms.find((t) => t.df >= 5 && t.df <= 40);
    for (const term of [broad, rare?.term ?? 'dishwasher']) {
      let url: string | null = `/v2/products?q=${encodeURIComponent(term)}&limit=100`;
      let seen = 0;
      let total = -1;
      while (url) {
        const page = await read(0, url);
        total = page.pagination.total;
        seen += page.data.length;
        url = page.pagination.nextCursor
          ? `/v2/products?q=${encodeURIComponent(term)}&limit=100&cursor=${page.pagination.nextCursor}`
          : null;
      }
      expect(seen).toBe(total);
      expect(total).toBeGreaterThan(0);
      if (term === broad) expect(total).toBeGreaterThan(200);
    }
  });

  it('barcode lookups read the same from stored results, in every GTIN form', async () => {
    const db = apps[0]?.provider.current?.db;
    if (!db) throw new Error('no catalog');
    const gtins = db.prepare('SELECT gtin14 FROM product_gtins').pluck().all() as string[];
    expect(gtins.length).toBeGreaterThan(100);
    for (const gtin14 of gtins) {
      // the GTIN-14 and its shortest form (UPC-A, EAN-13 or GTIN-8 as the leading zeros allow)
      for (const form of new Set([gtin14, gtin14.replace(/^0{1,6}/, '').padStart(8, '0')])) {
        const stored = await read(0, `/v2/products/barcode/${form}`);
        expect(stored.data.gtin).toBe(form);
        expect(await read(1, `/v2/products/barcode/${form}`)).toEqual(stored);
      }
    }
  });

  it('price intelligence and signals are the same from stored series as from observations', async () => {
    let withHistory = 0;
    for (const id of ids) {
      const url = `/v2/products/${id}/prices?days=365`;
      const stored = await read(0, url);
      expect(await read(1, url)).toEqual(stored);
      if (stored.data.history.length > 30) withHistory++;
    }
    expect(withHistory).toBeGreaterThan(100);
    const page = '/v2/products?include_signals=true&include_legacy=true&limit=100';
    expect(await read(1, page)).toEqual(await read(0, page));
  });
});
