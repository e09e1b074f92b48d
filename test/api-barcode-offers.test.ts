import { describe, expect, it } from 'vitest';
import { expectOk } from './helpers/assertions.js';
import { get } from './helpers/http.js';
import { servedFixtureCatalog } from './helpers/served-catalog.js';

interface Offer {
  retailer_name: string;
  price: number;
  in_stock: boolean;
  retailer_url: string | null;
}

/** Regression: barcode lookup offers had no `url`, while the product's offers carry it. */
describe('barcode lookup offers carry their url', () => {
  const served = servedFixtureCatalog();

  it('each retailer of GET /v2/products/barcode/{gtin} has the url of the product offer at that retailer', async () => {
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
      urls += result.retailers.filter(
        (r) => typeof r.url === 'string' && r.url.startsWith('https://'),
      ).length;
    }
    // the fixture feeds give every listing a link
    expect(urls).toBeGreaterThan(0);
  });
});
