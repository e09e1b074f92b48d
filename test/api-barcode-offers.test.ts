import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/api/index.js';
import {
  currentSnapshotPath,
  openWritable,
  packNumbered,
  storedDictionaries,
  unpackNumbered,
} from '../src/catalog/index.js';
import { startTestServer } from './helpers/access-server.js';
import { expectOk } from './helpers/assertions.js';
import { type FixtureCatalog, fixtureCatalog } from './helpers/fixture-catalog.js';
import { get } from './helpers/http.js';
import { servedFixtureCatalog } from './helpers/served-catalog.js';

interface Offer {
  retailer_name: string;
  price: number;
  in_stock: boolean;
  retailer_url: string | null;
}

/** Regression: barcode lookup offers had no `url`, while the product's offers carry it. */
/** Every product with a GTIN and offers: its barcode result's retailers are its offers, with their url. */
async function expectBarcodeUrls(served: { catalog: FixtureCatalog; server: RunningServer }) {
  const key = served.catalog.key('enterprise');
  const products = expectOk<{ id: string; gtin: string | null; offers: Offer[] }[]>(
    await get(served.server.url, '/v2/products?include_offers=true&limit=100', key),
  );
  const withGtin = products.filter((p) => p.gtin && p.offers.length > 0);
  expect(withGtin.length).toBeGreaterThan(0);
  let urls = 0;
  for (const product of withGtin) {
    const result = expectOk<{
      id: string;
      retailers: { name: string; price: number; url: string | null }[];
    }>(await get(served.server.url, `/v2/products/barcode/${product.gtin}`, key));
    expect(result.id).toBe(product.id);
    expect(result.retailers.map((r) => [r.name, r.price, r.url])).toEqual(
      product.offers.map((o) => [o.retailer_name, o.price, o.retailer_url]),
    );
    urls += result.retailers.filter((r) => typeof r.url === 'string' && r.url.startsWith('https://')).length;
  }
  // the fixture feeds give every listing a link
  expect(urls).toBeGreaterThan(0);
}

describe('barcode lookup offers carry their url', () => {
  const served = servedFixtureCatalog();

  it('each retailer of GET /v2/products/barcode/{gtin} has the url of the product offer at that retailer', async () => {
    await expectBarcodeUrls(served);
  });
});

/** Regression: a snapshot written before barcode results stored `url` answered without it until the next ingest. */
describe('barcode lookups of a snapshot whose stored results predate url', () => {
  const served = {} as { catalog: FixtureCatalog; server: RunningServer };
  beforeAll(async () => {
    served.catalog = await fixtureCatalog();
    // the stored barcode results as the version before url wrote them
    const db = openWritable(currentSnapshotPath(served.catalog.dataDir)!);
    try {
      const dictionaries = storedDictionaries(db, 'documents');
      const rows = db.prepare('SELECT id, barcode_json FROM product_documents').all() as {
        id: string;
        barcode_json: Uint8Array;
      }[];
      const update = db.prepare('UPDATE product_documents SET barcode_json = ? WHERE id = ?');
      for (const row of rows) {
        // the dictionary number leads the packed bytes (a varint: one byte below 128)
        const n = row.barcode_json[0] as number;
        if (n >= 0x80) throw new Error('fixture catalog with over 127 dictionaries');
        const result = JSON.parse(unpackNumbered(row.barcode_json, dictionaries)) as {
          retailers: Record<string, unknown>[];
        };
        for (const retailer of result.retailers) delete retailer.url;
        update.run(packNumbered(JSON.stringify(result), dictionaries, n), row.id);
      }
    } finally {
      db.close();
    }
    served.server = await startTestServer(served.catalog.dataDir);
  });
  afterAll(async () => {
    await served.server?.close();
    served.catalog?.cleanup();
  });

  it('each retailer still has the url of the product offer at that retailer', async () => {
    await expectBarcodeUrls(served);
  });
});
