import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../src/schemas/index.js';
import { expectError, expectOk } from './helpers/assertions.js';
import { get } from './helpers/http.js';
import { stdioTransport } from './helpers/mcp-stdio.js';
import { servedFixtureCatalog } from './helpers/served-catalog.js';

/** From two retailer feeds to an agent: ingest, serve on a free port, call REST and MCP. */
describe('end to end: feeds → catalog → REST → MCP', () => {
  const served = servedFixtureCatalog();
  let key: string;

  beforeAll(() => {
    key = served.catalog.key('pro');
  });

  it('ingest merged listings sharing a GTIN into one product with one offer per retailer and reported bad rows', () => {
    expect(served.catalog.report.published).toBe(true);
    expect(
      served.catalog.report.issues.filter((i) => i.severity === 'error').map((i) => [i.line, i.reason]),
    ).toEqual([
      [5, 'missing title'],
      [6, 'price "call us" is not a number'],
    ]);
  });

  it('searches products over HTTP with the envelope and pagination', async () => {
    const res = await get(served.server.url, '/v2/products?q=dishwasher&limit=1&include_offers=true', key);
    const data = expectOk<Product[]>(res);
    expect(data).toHaveLength(1);
    expect(res.body.pagination).toMatchObject({
      total: 2,
      limit: 1,
      offset: 0,
      page: 1,
      hasMore: true,
      nextCursor: expect.any(String),
      prevCursor: null,
    });
    const next = await get(
      served.server.url,
      `/v2/products?q=dishwasher&limit=1&cursor=${(res.body.pagination as { nextCursor: string }).nextCursor}`,
      key,
    );
    expect(expectOk<Product[]>(next)[0]?.id).not.toBe(data[0]?.id);
  });

  it('gets the merged Bosch dishwasher by id with both retailers as offers, cheapest first', async () => {
    const list = expectOk<Product[]>(await get(served.server.url, '/v2/products?q=SHPM88Z75N', key));
    const id = list[0]?.id;
    const product = expectOk<Product>(
      await get(served.server.url, `/v2/products/${id}?include_offers=true`, key, { authorization: '' }),
    );
    expect(product).toMatchObject({
      name: expect.stringContaining('SHPM88Z75N'),
      gtin: '825225978428',
      brand: { name: 'Bosch' },
      product_type: { slug: 'dishwasher' },
    });
    expect(product.offers?.map((o) => [o.retailer_name, o.price])).toEqual([
      ['VoltMart', 949.99],
      ['Northgate Home', 999],
    ]);
    expect(product.current_best_price).toBe(949.99);
  });

  it('accepts Authorization: Bearer and rejects missing and bad keys with 401', async () => {
    const bearer = await fetch(`${served.server.url}/v2/brands`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(bearer.status).toBe(200);
    expectError(await get(served.server.url, '/v2/products'), 401, 'AUTH_REQUIRED');
    expectError(
      await get(served.server.url, '/v2/products', 'sk_shelf_live_00000000000000000000000000000000'),
      401,
      'AUTH_INVALID',
    );
  });

  it('answers bad parameters with 400, unknown ids and routes with 404', async () => {
    const bad = await get(served.server.url, '/v2/products?limit=500', key);
    expectError(bad, 400, 'VALIDATION_ERROR');
    expect((bad.body.error as { details: unknown }).details).toEqual([
      { field: 'limit', message: expect.any(String) },
    ]);
    expectError(await get(served.server.url, '/v2/products/not-a-uuid', key), 400, 'VALIDATION_ERROR');
    expectError(
      await get(served.server.url, '/v2/products/00000000-0000-4000-8000-000000000000', key),
      404,
      'NOT_FOUND',
    );
    expectError(await get(served.server.url, '/v2/nothing-here', key), 404, 'ROUTE_NOT_FOUND');
  });

  it('lists brands with profiles and active retailers', async () => {
    const brands = expectOk<{ slug: string; profile?: unknown }[]>(
      await get(served.server.url, '/v2/brands?include=profile', key),
    );
    expect(brands.find((b) => b.slug === 'bosch')?.profile).toMatchObject({ quality_tier: 'premium' });
    const retailers = expectOk<{ slug: string }[]>(await get(served.server.url, '/v2/retailers', key));
    expect(retailers.map((r) => r.slug).sort()).toEqual(['northgate', 'voltmart']);
  });

  it('a key created while the server runs works at once', async () => {
    const fresh = served.catalog.key('free');
    expect((await get(served.server.url, '/v2/retailers', fresh)).status).toBe(200);
  });

  it('an agent calls search_products and lookup_product through the MCP SDK client over stdio', async () => {
    const transport = stdioTransport(served.server.url, key);
    const client = new Client({ name: 'e2e-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(['search_products', 'lookup_product']),
      );
      const search = await client.callTool({ name: 'search_products', arguments: { query: 'samsung tv' } });
      expect(search.isError).toBeFalsy();
      const found = (search.structuredContent as { products: { id: string; name: string }[] }).products;
      expect(found[0]?.name).toContain('QN65Q80C');
      const lookup = await client.callTool({ name: 'lookup_product', arguments: { id: found[0]?.id } });
      expect(lookup.structuredContent).toMatchObject({
        product: { brand: 'Samsung', offers: [{ retailer: 'VoltMart', price: 1199.99 }] },
      });
      const missing = await client.callTool({
        name: 'lookup_product',
        arguments: { id: '00000000-0000-4000-8000-000000000000' },
      });
      expect(missing.isError).toBe(true);
      expect((missing.content as { text: string }[])[0]?.text).toMatch(/^NOT_FOUND/);
    } finally {
      await client.close();
    }
  });
});
