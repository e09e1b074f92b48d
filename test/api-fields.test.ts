import { describe, expect, it } from 'vitest';
import { expectError, expectOk } from './helpers/assertions.js';
import { get } from './helpers/http.js';
import { servedFixtureCatalog } from './helpers/served-catalog.js';

type Json = Record<string, unknown>;
type Product = Json & { id: string; offers?: Json[]; specifications?: Json };

/** `fields=`: field selection on product endpoints and searches, against a real listening server. */
describe('api: fields', () => {
  const served = servedFixtureCatalog();
  const base = () => served.server.url;
  const post = async (path: string, key: string, body: unknown) => {
    const res = await fetch(new URL(path, base()), {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  /** A product of the fixture that has offers and specifications, in full. */
  const fullProduct = async (key: string): Promise<Product> => {
    const list = expectOk<Product[]>(await get(base(), '/v2/products?limit=50&include_offers=true', key));
    const found = list.find((p) => p.offers?.length && Object.keys(p.specifications ?? {}).length);
    if (!found) throw new Error('the fixture catalog has no product with offers and specifications');
    return found;
  };

  it('GET /v2/products?fields keeps the chosen fields of each product, id always, in the full order', async () => {
    const key = served.catalog.key('pro');
    const full = expectOk<Product[]>(await get(base(), '/v2/products?limit=5&include_offers=true', key));
    const res = await get(
      base(),
      '/v2/products?limit=5&include_offers=true&fields=name,current_best_price,offers.price,brand.name',
      key,
    );
    const data = expectOk<Product[]>(res);
    expect((res.body as Json).pagination).toMatchObject({ limit: 5 });
    expect(data.map((p) => p.id)).toEqual(full.map((p) => p.id));
    data.forEach((p, i) => {
      const whole = full[i] as Product;
      expect(Object.keys(p)).toEqual(['id', 'name', 'current_best_price', 'brand', 'offers']);
      expect(p.name).toBe(whole.name);
      expect(p.brand).toEqual(whole.brand === null ? null : { name: (whole.brand as Json).name });
      expect(p.offers).toEqual(whole.offers?.map((o) => ({ price: o.price })));
    });
  });

  it('keyword search (?q=) and a repeat from the cache give the same selection', async () => {
    const key = served.catalog.key('pro');
    const path = '/v2/products?q=dishwasher&limit=3&fields=name,slug';
    const first = expectOk<Product[]>(await get(base(), path, key));
    const again = await get(base(), path, key);
    expect(((again.body as Json).meta as Json).cached).toBe(true);
    expect(expectOk<Product[]>(again)).toEqual(first);
    for (const p of first) expect(Object.keys(p)).toEqual(['id', 'name', 'slug']);
  });

  it('GET /v2/products/{id} and by-slug: dot paths into specifications and offers', async () => {
    const key = served.catalog.key('pro');
    const whole = await fullProduct(key);
    const spec = Object.keys(whole.specifications ?? {})[0] as string;
    const fields = `specifications.${spec},offers.retailer_name,offers.price`;
    const byId = expectOk<Product>(
      await get(base(), `/v2/products/${whole.id}?include_offers=1&fields=${fields}`, key),
    );
    expect(byId).toEqual({
      id: whole.id,
      specifications: { [spec]: whole.specifications?.[spec] },
      offers: whole.offers?.map((o) => ({ retailer_name: o.retailer_name, price: o.price })),
    });
    // naming offers asks for them: no include_offers needed
    const implied = expectOk<Product>(await get(base(), `/v2/products/${whole.id}?fields=offers.price`, key));
    expect(implied).toEqual({ id: whole.id, offers: whole.offers?.map((o) => ({ price: o.price })) });
    const bySlug = expectOk<Product>(
      await get(base(), `/v2/products/by-slug/${whole.slug}?fields=name`, key),
    );
    expect(bySlug).toEqual({ id: whole.id, name: whole.name });
    // the stored document path (no include_*) selects from the same product
    expect(expectOk<Product>(await get(base(), `/v2/products/${whole.id}?fields=slug`, key))).toEqual({
      id: whole.id,
      slug: whole.slug,
    });
  });

  it('POST search and semantic search take fields as an array; facets and pagination stay', async () => {
    const key = served.catalog.key('pro');
    const res = await post('/v2/products/search', key, {
      query: 'dishwasher',
      facets: ['brand'],
      fields: ['name', 'quality_score'],
      pagination: { limit: 4 },
    });
    const data = expectOk<Product[]>(res);
    expect(data.length).toBeGreaterThan(0);
    for (const p of data) expect(Object.keys(p)).toEqual(['id', 'name', 'quality_score']);
    expect(res.body.facets).toHaveProperty('brand');
    expect(res.body.pagination).toMatchObject({ limit: 4 });
    const semantic = await post('/v2/products/semantic-search', key, {
      query: 'quiet dishwasher',
      fields: ['name'],
    });
    for (const p of expectOk<Product[]>(semantic)) expect(Object.keys(p)).toEqual(['id', 'name']);
    const withOffers = await post('/v2/products/search', key, {
      query: 'dishwasher',
      fields: ['offers.price'],
    });
    const offered = expectOk<Product[]>(withOffers);
    expect(offered.some((p) => (p.offers?.length ?? 0) > 0)).toBe(true);
    for (const p of offered) for (const o of p.offers ?? []) expect(Object.keys(o)).toEqual(['price']);
  });

  it('unknown fields are a 400 naming them and saying what is allowed', async () => {
    const key = served.catalog.key('pro');
    const res = await get(
      base(),
      '/v2/products?fields=name,price,offers.cost,specifications.no_such_spec',
      key,
    );
    expectError(res, 400, 'VALIDATION_ERROR');
    const error = (res.body as { error: { message: string; details: Json[] } }).error;
    expect(error.message).toMatch(
      /unknown fields: price, offers\.cost, specifications\.no_such_spec\. Allowed: id, name/,
    );
    expect(error.details[0]).toMatchObject({
      field: 'fields',
      unknown: ['price', 'offers.cost', 'specifications.no_such_spec'],
      allowed: expect.arrayContaining(['current_best_price', 'offers.price', 'specifications.<key>']),
    });
    const body = await post('/v2/products/search', key, { query: 'x', fields: ['brand.profile'] });
    expectError(body, 400, 'VALIDATION_ERROR');
    expect((body.body.error as Json).message).toMatch(/unknown fields: brand\.profile/);
    const one = await get(base(), `/v2/products/${(await fullProduct(key)).id}?fields=constructor`, key);
    expectError(one, 400, 'VALIDATION_ERROR');
  });

  it('malformed lists and fields with format ai or schemaorg are a 400 on fields', async () => {
    const key = served.catalog.key('pro');
    for (const bad of ['', 'name,,slug', 'offers.', 'name;slug', 'a'.repeat(2100)]) {
      const res = await get(base(), `/v2/products?fields=${encodeURIComponent(bad)}`, key);
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(JSON.stringify(res.body)).toContain('fields');
    }
    const ai = await get(base(), '/v2/products?format=ai&fields=name', key);
    expectError(ai, 400, 'VALIDATION_ERROR');
    expect((ai.body as { error: Json }).error.message).toMatch(/fields applies to format=json only/);
    const post400 = await post('/v2/products/search', key, {
      query: 'x',
      format: 'schemaorg',
      fields: ['name'],
    });
    expectError(post400, 400, 'VALIDATION_ERROR');
    expectError(await post('/v2/products/search', key, { query: 'x', fields: [] }), 400, 'VALIDATION_ERROR');
  });

  it('the OpenAPI document describes fields on the product routes and in the search bodies', async () => {
    const doc = (await get(base(), '/v2/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters?: { name: string }[]; requestBody?: unknown }>>;
    };
    for (const path of ['/v2/products', '/v2/products/{id}', '/v2/products/by-slug/{slug}'])
      expect(doc.paths[path]?.get?.parameters?.map((p) => p.name)).toContain('fields');
    expect(JSON.stringify(doc.paths['/v2/products/search']?.post?.requestBody)).toContain('"fields"');
  });
});
