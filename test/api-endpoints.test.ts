import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../src/access/index.js';
import { type RunningServer, startServer } from '../src/api/index.js';
import { loadConfig } from '../src/config.js';
import { gs1CheckDigit } from '../src/identifiers/index.js';
import { runIngest } from '../src/ingest/index.js';
import type { Product } from '../src/schemas/index.js';
import { expectError, expectOk } from './helpers/assertions.js';
import { fixtureContent, fixtureFeeds } from './helpers/fixture-catalog.js';
import { get } from './helpers/http.js';

const ROOT = resolve(import.meta.dirname, '..');
/** A GTIN-8 product, so that every barcode form can be tried on one product. */
const GTIN8 = `9638507${gs1CheckDigit('9638507')}`;

type Json = Record<string, unknown>;

/** Every endpoint of spec §4.1–4.20 against a real listening server on the fixture catalog. */
describe('REST /v2: every endpoint, parameter and error', () => {
  let dataDir: string;
  let server: RunningServer;
  let pro: string;
  let free: string;
  let bosch: Product;
  const call = (path: string, key: string | null = pro) => get(server.url, path, key);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'shelf-api-'));
    const extra = join(dataDir, 'voltmart-extra.tsv');
    writeFileSync(
      extra,
      [
        'id\ttitle\tdescription\tlink\timage_link\tprice\tavailability\tbrand\tgtin\tmpn\tproduct_type',
        `VX-1\tGE Smart Plug PLG8 Outdoor\tA plug\thttps://v.example/x\thttps://img.example/x.jpg\t19.99 USD\tin stock\tGE\t${GTIN8}\tPLG8\tSmart Home > Plugs`,
      ].join('\n'),
    );
    await runIngest({
      dataDir,
      feeds: [...fixtureFeeds(), { retailer: 'voltmart', path: extra }],
      content: fixtureContent(),
      day: '2026-11-20',
    });
    const keys = new KeyStore(dataDir);
    pro = keys.create({ plan: 'pro', type: 'secret', env: 'live' }).key;
    free = keys.create({ plan: 'free', type: 'secret', env: 'live' }).key;
    keys.close();
    server = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', SHELF_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    );
    const list = expectOk<Product[]>(await call('/v2/products?model_number=SHPM88Z75N'));
    bosch = list[0] as Product;
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists with all eight pagination fields, sorts with - and pages with cursors', async () => {
    const first = await call('/v2/products?sort=-price&limit=2');
    const data = expectOk<Product[]>(first);
    const prices = data.map((p) => p.current_best_price as number);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    const page = first.body.pagination as Json;
    expect(Object.keys(page).sort()).toEqual(
      ['cursor', 'hasMore', 'limit', 'nextCursor', 'offset', 'page', 'prevCursor', 'total'].sort(),
    );
    const second = await call(`/v2/products?sort=-price&limit=2&cursor=${page.nextCursor}`);
    const next = expectOk<Product[]>(second);
    expect((next[0]?.current_best_price as number) <= (prices[1] as number)).toBe(true);
    expect(second.body.pagination).toMatchObject({
      offset: 2,
      page: 2,
      cursor: page.nextCursor,
      prevCursor: expect.any(String),
    });
    for (const sort of ['name', '-name', 'quality_score', 'created_at', '-updated_at'])
      expectOk(await call(`/v2/products?sort=${sort}`));
    const bad = await call('/v2/products?sort=color');
    expectError(bad, 400, 'VALIDATION_ERROR');
    expect((bad.body.error as Json).details).toEqual([{ field: 'sort', message: expect.any(String) }]);
  });

  it('filters by group, exact model number, price and tier, and collapses variants with group_variants', async () => {
    const groupId = bosch.product_group_id as string;
    expect(expectOk<Product[]>(await call(`/v2/products?product_group_id=${groupId}`))).toHaveLength(2);
    expect(expectOk<Product[]>(await call('/v2/products?model_number=shpm-88z75n'))[0]?.id).toBe(bosch.id);
    const cheap = expectOk<Product[]>(await call('/v2/products?max_price=100'));
    expect(cheap.every((p) => (p.current_best_price as number) <= 100)).toBe(true);
    expect(expectOk<Product[]>(await call('/v2/products?data_tier=4'))).toEqual([]);
    const grouped = expectOk<Product[]>(await call('/v2/products?group_variants=true&limit=100'));
    const fromGroup = grouped.filter((p) => p.product_group_id === groupId);
    expect(fromGroup).toHaveLength(1);
    expect(fromGroup[0]?._variant_count).toBe(2);
    expectError(await call('/v2/products?min_price=10&max_price=5'), 400, 'VALIDATION_ERROR');
    expectError(await call('/v2/products?data_tier=1,9'), 400, 'VALIDATION_ERROR');
    expectError(await call('/v2/products?include_offers=maybe'), 400, 'VALIDATION_ERROR');
  });

  it('adds offers and documented signals on request', async () => {
    const [p] = expectOk<Product[]>(
      await call(`/v2/products?model_number=SHPM88Z75N&include_offers=yes&include_signals=1`),
    );
    expect(p?.offers?.length).toBe(2);
    // both retailers give the same GTIN: each offer says so, with the listing's own title
    expect(p?.offers?.map((o) => o.match)).toEqual(
      expect.arrayContaining([
        {
          method: 'gtin',
          confidence: 1,
          title: 'Bosch 800 Series SHPM88Z75N Dishwasher',
          gtin: '00825225978428',
        },
        {
          method: 'gtin',
          confidence: 1,
          title: 'Bosch SHPM88Z75N 800 Series 24" Dishwasher, Stainless',
          gtin: '00825225978428',
        },
      ]),
    );
    expect(p?.signals).toEqual({
      price_trend: 'stable',
      avg_30d: 949.99,
      price_vs_avg_30d: 0,
      lowest_90d: 949.99,
      is_lowest_in_90_days: true,
      in_stock_offers: 2,
      lifecycle: 'current',
      successor_id: null,
    });
  });

  it('gets one product by id and by slug with variants, attributes and _knowledge', async () => {
    const p = expectOk<Product>(
      await call(
        `/v2/products/${bosch.id}?include_variants=true&include_attributes=true&include_offers=true`,
      ),
    );
    expect(p.variants?.map((v) => v.model_number)).toEqual(['SHPM88Z72N']);
    expect(p.attributes).toContainEqual({
      key: 'noise_level',
      value: '42 dBA',
      numericValue: 42,
      unit: 'dBA',
      role: 'spec',
    });
    expect(p._knowledge).toEqual({
      product_type_slug: 'dishwasher',
      available: ['error_code', 'lifespan', 'maintenance_schedule'],
      entry_count: 3,
      has_brand_overrides: true,
      brand_profile: true,
      knowledge_url: '/v2/product-types/dishwasher/knowledge',
    });
    expect(p).not.toHaveProperty('knowledge');
    const bySlug = expectOk<Product>(await call(`/v2/products/by-slug/${bosch.slug}?include_variants=true`));
    expect(bySlug.id).toBe(bosch.id);
    expect(bySlug.variants).toHaveLength(1);
    expectError(await call('/v2/products/by-slug/Not_A_Slug'), 400, 'VALIDATION_ERROR');
    expectError(await call('/v2/products/by-slug/no-such-product'), 404, 'NOT_FOUND');
  });

  it('inlines knowledge for Starter and above, and answers 403 PLAN_REQUIRED on Free', async () => {
    const p = expectOk<Product>(await call(`/v2/products/${bosch.id}?include_knowledge=true`));
    expect(p.knowledge?.lifespan[0]?.data).toMatchObject({ years_typical: 10 });
    expect(p.knowledge?.maintenance.map((e) => e.key)).toEqual(['filter-cleaning']);
    const denied = await call(`/v2/products/${bosch.id}?include_knowledge=true`, free);
    expectError(denied, 403, 'PLAN_REQUIRED');
    expect((denied.body.error as Json).details).toMatchObject({ requiredPlan: 'starter' });
    expectOk(await call(`/v2/products/${bosch.id}`, free));
  });

  it('lists attributes by role and relationships by type', async () => {
    const all = expectOk<{ productId: string; attributes: { role: string }[]; count: number }>(
      await call(`/v2/products/${bosch.id}/attributes`),
    );
    expect(all.count).toBe(all.attributes.length);
    const variant = expectOk<{ attributes: { key: string; role: string }[] }>(
      await call(`/v2/products/${bosch.id}/attributes?role=variant`),
    );
    expect(variant.attributes).toEqual([expect.objectContaining({ key: 'color', role: 'variant' })]);
    const bad = await call(`/v2/products/${bosch.id}/attributes?role=colour`);
    expect((bad.body.error as Json).details).toEqual([
      { field: 'role', message: expect.stringContaining('variant') },
    ]);
    const rel = expectOk<Json>(await call(`/v2/products/${bosch.id}/relationships`));
    expect(Object.keys(rel).sort()).toEqual(
      ['accessories', 'consumables', 'predecessor', 'productId', 'series', 'similar', 'successor'].sort(),
    );
    const successor = expectOk<Json>(await call(`/v2/products/${bosch.id}/relationships?type=successor`));
    expect(Object.keys(successor).sort()).toEqual(['predecessor', 'productId', 'successor']);
    expectError(await call(`/v2/products/${bosch.id}/relationships?type=cousin`), 400, 'VALIDATION_ERROR');
  });

  it('looks up model numbers: exact, prefix and fuzzy, with the brand hint', async () => {
    const exact = expectOk<Json>(await call('/v2/products/lookup?model=shpm88z75n&brand=bosch'));
    expect(exact).toMatchObject({
      match_type: 'exact',
      product: { id: bosch.id },
      decoded: { brand: 'Bosch', productType: 'Dishwasher', modelNumber: 'SHPM88Z75N', confidence: 1 },
    });
    expect(expectOk<Json>(await call('/v2/products/lookup?model=SHPM88Z75'))).toMatchObject({
      match_type: 'prefix',
    });
    const fuzzy = expectOk<Json>(await call('/v2/products/lookup?model=GFW550SSNWX'));
    expect(fuzzy).toMatchObject({ match_type: 'fuzzy', product: { model_number: 'GFW550SSNWW' } });
    expect((fuzzy.decoded as { confidence: number }).confidence).toBeLessThan(0.6);
    expectError(await call('/v2/products/lookup?model=SHPM88Z75N&brand=samsung'), 404, 'NOT_FOUND');
    const short = await call('/v2/products/lookup?model=S');
    expect((short.body.error as Json).details).toEqual([{ field: 'model', message: expect.any(String) }]);
    expectError(await call('/v2/products/lookup'), 400, 'VALIDATION_ERROR');
  });

  it('finds the same product by UPC-A, EAN-13, GTIN-14 and GTIN-8 forms', async () => {
    for (const form of ['825225978428', '0825225978428', '00825225978428']) {
      const hit = expectOk<Json>(await call(`/v2/products/barcode/${form}`));
      expect(hit).toMatchObject({ id: bosch.id, gtin: form, brand: 'Bosch', product_type: 'Dishwasher' });
      expect(hit.retailers).toEqual([
        { name: 'VoltMart', price: 949.99, in_stock: true, url: 'https://voltmart.example/100' },
        { name: 'Northgate Home', price: 999, in_stock: true, url: 'https://northgate.example/p/1' },
      ]);
    }
    const ids = new Set<unknown>();
    for (const form of [GTIN8, `0000${GTIN8}`, `00000${GTIN8}`, `000000${GTIN8}`])
      ids.add(expectOk<Json>(await call(`/v2/products/barcode/${form}`)).id);
    expect(ids.size).toBe(1);
    expectError(await call('/v2/products/barcode/1234567'), 400, 'VALIDATION_ERROR');
    expectError(await call('/v2/products/barcode/12345678a'), 400, 'VALIDATION_ERROR');
    expectError(await call('/v2/products/barcode/123456789012345'), 400, 'VALIDATION_ERROR');
    expectError(await call('/v2/products/barcode/00000000000000'), 400, 'VALIDATION_ERROR');
    expectError(
      await call(`/v2/products/barcode/01234567890${gs1CheckDigit('01234567890')}`),
      404,
      'NOT_FOUND',
    );
  });

  it('gives price intelligence for 1 to 365 days', async () => {
    const prices = expectOk<Json>(await call(`/v2/products/${bosch.id}/prices?days=365`));
    expect(prices).toMatchObject({
      product_id: bosch.id,
      days: 365,
      current: { best_price: 949.99, retailer_count: 2 },
      summary: { min_ever: 949.99, max_ever: 949.99, avg_30d: 949.99, trend: 'stable' },
      history: [{ date: '2026-11-20', price: 949.99 }],
    });
    for (const days of ['0', '366', '1.5', 'x']) {
      const bad = await call(`/v2/products/${bosch.id}/prices?days=${days}`);
      expect((bad.body.error as Json).details).toEqual([{ field: 'days', message: expect.any(String) }]);
    }
    expectError(await call('/v2/products/00000000-0000-4000-8000-000000000000/prices'), 404, 'NOT_FOUND');
  });

  it('lists product groups with products and gets one with offers', async () => {
    const groups = expectOk<Json[]>(await call('/v2/product-groups?include_products=true'));
    const group = groups.find((g) => g.id === bosch.product_group_id) as Json;
    expect(group).toMatchObject({
      variant_count: 2,
      variant_dimensions: ['color'],
      brand: { slug: 'bosch' },
    });
    expect((group.products as Product[]).map((p) => p.id)).toContain(bosch.id);
    const one = expectOk<{ products: Product[] }>(
      await call(`/v2/product-groups/${bosch.product_group_id}?include_offers=true`),
    );
    expect(one.products.every((p) => Array.isArray(p.offers))).toBe(true);
    const ai = expectOk<{ products: Json[] }>(
      await call(`/v2/product-groups/${bosch.product_group_id}?format=ai`),
    );
    expect(ai.products[0]).toHaveProperty('summary');
    expectError(await call('/v2/product-groups/00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
    expectError(await call('/v2/product-groups?limit=0'), 400, 'VALIDATION_ERROR');
  });

  it('lists categories with children, product types with knowledge stats and attribute schemas', async () => {
    const top = await call('/v2/categories?include_children=true');
    const categories = expectOk<Json[]>(top);
    expect(top.body).not.toHaveProperty('pagination');
    const appliances = categories.find((c) => c.slug === 'appliances') as Json;
    expect((appliances.children as Json[]).map((c) => c.slug)).toContain('kitchen-appliances');
    const kids = expectOk<Json[]>(await call(`/v2/categories?parent_id=${appliances.id}`));
    expect(kids.every((c) => c.parent_id === appliances.id)).toBe(true);
    expectError(await call('/v2/categories?parent_id=nowhere'), 404, 'NOT_FOUND');

    const types = expectOk<Json[]>(await call('/v2/product-types?include=knowledge_stats'));
    expect(types.find((t) => t.slug === 'dishwasher')).toMatchObject({
      knowledge_entry_count: 3,
      knowledge_types: ['error_code', 'lifespan', 'maintenance_schedule'],
      has_brand_overrides: true,
    });
    expect(expectOk<Json[]>(await call('/v2/product-types'))[0]).not.toHaveProperty('knowledge_entry_count');
    const schema = expectOk<Json>(await call('/v2/product-types/dishwasher/attributes'));
    expect(schema).toMatchObject({
      product_type: { slug: 'dishwasher', marketplace_category_id: '609' },
      identity_dimensions: ['width'],
      variant_dimensions: ['color'],
      valid_spec_keys: expect.arrayContaining(['noise_level', 'place_settings']),
      controlled_values: {
        color: { marketplace_handle: 'color', values: expect.arrayContaining(['white']) },
      },
    });
    expect(schema.curated_attributes).toContainEqual(
      expect.objectContaining({ key: 'noise_level', unit: 'dBA', headline: true }),
    );
    expectError(await call('/v2/product-types/no-such-type/attributes'), 404, 'NOT_FOUND');
  });

  it('answers the knowledge endpoints with context, code, canonical issue and brand overrides', async () => {
    type K = { product_type: Json; knowledge: { key: string; type: string; brand_overrides?: Json[] }[] };
    const all = expectOk<K>(await call('/v2/product-types/dishwasher/knowledge'));
    expect(all.product_type).toMatchObject({ slug: 'dishwasher' });
    expect(all.knowledge.map((e) => e.key)).toEqual(['filter-cleaning', 'lifespan', 'drain-failure']);
    const general = expectOk<K>(await call('/v2/product-types/dishwasher/knowledge?context=general'));
    expect(general.knowledge.map((e) => e.key)).toEqual(['lifespan']);
    const code = expectOk<K>(await call('/v2/product-types/dishwasher/knowledge?code=e24'));
    expect(code.knowledge).toHaveLength(1);
    expect(code.knowledge[0]?.brand_overrides?.[0]).toMatchObject({
      brand: { slug: 'bosch' },
      data: { code: 'E24' },
    });
    const issue = expectOk<K>(
      await call('/v2/product-types/dishwasher/knowledge?canonical_issue=drain_failure'),
    );
    expect(issue.knowledge.map((e) => e.type)).toEqual(['error_code']);
    const withBrand = expectOk<K>(
      await call('/v2/product-types/dishwasher/knowledge?type=error_code&brand=bosch'),
    );
    expect(withBrand.knowledge[0]?.brand_overrides).toHaveLength(2);
    expectError(await call('/v2/product-types/dishwasher/knowledge?brand=nobody'), 404, 'NOT_FOUND');
    expectError(await call('/v2/product-types/dishwasher/knowledge?type=recipes'), 400, 'VALIDATION_ERROR');
    expectError(await call('/v2/product-types/dishwasher/knowledge', free), 403, 'PLAN_REQUIRED');

    const byType = await call('/v2/knowledge/error_code?product_type=dishwasher&brand=bosch');
    const entries = expectOk<{ product_type: Json; brand_overrides: Json[] }[]>(byType);
    expect(entries[0]).toMatchObject({
      product_type: { slug: 'dishwasher' },
      brand_overrides: [expect.any(Object), expect.any(Object)],
    });
    expect(byType.body.pagination).toMatchObject({ total: 1, hasMore: false });
    expect(expectOk<Json[]>(await call('/v2/knowledge/lifespan?q=last'))).toHaveLength(1);
    expectError(await call('/v2/knowledge/recipes'), 400, 'VALIDATION_ERROR');
    expectError(await call('/v2/knowledge/lifespan', free), 403, 'PLAN_REQUIRED');
  });

  it('answers brands, retailers and errors as documented', async () => {
    const brand = expectOk<Json>(await call('/v2/brands/bosch'));
    expect(brand).toMatchObject({ slug: 'bosch', profile: expect.any(Object) });
    expectOk(await call(`/v2/brands/${brand.id}`));
    const inactive = expectOk<Json[]>(await call('/v2/retailers?is_active=false'));
    expect(inactive.every((r) => r.is_active === false)).toBe(true);
    expect(expectOk<Json[]>(await call('/v2/retailers')).every((r) => r.is_active === true)).toBe(true);
    expectError(await call('/v2/products/not-a-uuid'), 400, 'VALIDATION_ERROR');
    expectError(await call('/v2/products/00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
    expectError(await call('/v2/no/such/route'), 404, 'ROUTE_NOT_FOUND');
    expectError(await call('/v2/products', null), 401, 'AUTH_REQUIRED');
  });

  it('serves schema.org JSON-LD: Product with Brand, AggregateOffer, gtin, mpn, additionalProperty and image', async () => {
    const ld = expectOk<Json>(await call(`/v2/products/${bosch.id}?format=schemaorg`));
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: bosch.name,
      gtin: '825225978428',
      mpn: 'SHPM88Z75N',
      brand: { '@type': 'Brand', name: 'Bosch' },
      image: ['https://img.example/1.jpg'],
      offers: {
        '@type': 'AggregateOffer',
        lowPrice: 949.99,
        highPrice: 999,
        priceCurrency: 'USD',
        offerCount: 2,
        offers: [
          expect.objectContaining({
            '@type': 'Offer',
            price: 949.99,
            availability: 'https://schema.org/InStock',
          }),
          expect.objectContaining({ '@type': 'Offer', price: 999 }),
        ],
      },
    });
    expect(ld.additionalProperty).toContainEqual({
      '@type': 'PropertyValue',
      propertyID: 'noise_level',
      name: 'Noise level',
      value: '42 dBA',
      unitText: 'dBA',
    });
    const list = expectOk<Json[]>(await call('/v2/products?q=dishwasher&format=schemaorg'));
    expect(list.every((p) => p['@type'] === 'Product')).toBe(true);
    const ai = expectOk<Json>(await call(`/v2/products/${bosch.id}?format=ai`, free));
    expect(ai).toMatchObject({
      summary: expect.stringContaining('Bosch'),
      price_range: '$949.99–$999.00 at 2 retailers',
      retailers: ['VoltMart', 'Northgate Home'],
      key_specs: { 'noise level': '42 dBA', 'place settings': '16' },
      knowledge: {},
    });
    const aiStarter = expectOk<Json>(await call(`/v2/products/${bosch.id}?format=ai`));
    expect(aiStarter.knowledge).toMatchObject({ lifespan: '10 years typical (7–13)' });
    expectError(await call(`/v2/products/${bosch.id}?format=xml`), 400, 'VALIDATION_ERROR');
  });

  it('publishes an OpenAPI 3.1 document without a key that redocly lint passes, and the /docs page', async () => {
    const doc = await call('/v2/openapi.json', null);
    expect(doc.status).toBe(200);
    expect(doc.body).toMatchObject({ openapi: '3.1.0', info: { title: expect.any(String) } });
    const paths = Object.keys(doc.body.paths as Json);
    for (const p of [
      '/v2/products',
      '/v2/products/{id}',
      '/v2/products/by-slug/{slug}',
      '/v2/products/{id}/attributes',
      '/v2/products/{id}/relationships',
      '/v2/products/lookup',
      '/v2/products/barcode/{gtin}',
      '/v2/products/{id}/prices',
      '/v2/product-groups',
      '/v2/product-groups/{id}',
      '/v2/categories',
      '/v2/brands',
      '/v2/brands/{identifier}',
      '/v2/retailers',
      '/v2/retailers/{identifier}',
      '/v2/product-types',
      '/v2/product-types/{slug}/attributes',
      '/v2/product-types/{slug}/knowledge',
      '/v2/knowledge/{type}',
    ])
      expect(paths).toContain(p);
    const file = join(dataDir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc.body));
    const { stdout, stderr } = await promisify(execFile)(
      join(ROOT, 'node_modules/.bin/redocly'),
      ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=summary'],
      {
        cwd: ROOT,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    expect(`${stdout}${stderr}`).toMatch(/Your API description is valid/);
    expect(`${stdout}${stderr}`).not.toMatch(/error/i);
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    // works offline: no script or style from another host
    expect(html).not.toMatch(/(src|href)="https?:/);
    const asset = await fetch(`${server.url}/docs/static/swagger-ui-bundle.js`);
    expect(asset.status).toBe(200);
  }, 60_000);
});
