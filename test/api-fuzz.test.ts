import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureCatalog, fixtureCatalog } from './helpers/fixture-catalog.js';
import { type InjectedApp, injectedApp } from './helpers/injected-app.js';

/** Every route template of spec §4.1–4.20; `{}` is replaced by a generated path segment. */
const ROUTES = [
  '/v2/products',
  '/v2/products/{}',
  '/v2/products/by-slug/{}',
  '/v2/products/{}/attributes',
  '/v2/products/{}/relationships',
  '/v2/products/lookup',
  '/v2/products/barcode/{}',
  '/v2/products/{}/prices',
  '/v2/product-groups',
  '/v2/product-groups/{}',
  '/v2/categories',
  '/v2/brands',
  '/v2/brands/{}',
  '/v2/retailers',
  '/v2/retailers/{}',
  '/v2/product-types',
  '/v2/product-types/{}/attributes',
  '/v2/product-types/{}/knowledge',
  '/v2/knowledge/{}',
  '/v2/openapi.json',
];

const PARAMS = [
  'q',
  'limit',
  'cursor',
  'sort',
  'category_id',
  'brand_id',
  'product_type_id',
  'product_group_id',
  'min_price',
  'max_price',
  'model_number',
  'include_legacy',
  'data_tier',
  'include_offers',
  'include_signals',
  'group_variants',
  'format',
  'include_variants',
  'include_attributes',
  'include_knowledge',
  'role',
  'type',
  'model',
  'brand',
  'days',
  'include_products',
  'parent_id',
  'include_children',
  'include',
  'is_active',
  'context',
  'code',
  'canonical_issue',
  'product_type',
];

describe('no input gives a 5xx, a hang or a broken envelope', () => {
  let catalog: FixtureCatalog;
  let app: FastifyInstance;
  let served: InjectedApp;
  let key: string;
  let known: string[];

  beforeAll(async () => {
    catalog = await fixtureCatalog();
    served = await injectedApp(catalog.dataDir);
    ({ app, key } = served);
    const db = served.db;
    known = [
      ...(
        (db?.prepare('SELECT id FROM products UNION ALL SELECT id FROM product_groups').all() ?? []) as {
          id: string;
        }[]
      ).map((r) => r.id),
      'bosch',
      'dishwasher',
      'error_code',
      'lifespan',
      '825225978428',
      'bosch-800-series-shpm88z75n-dishwasher',
    ];
  });
  afterAll(async () => {
    await served?.close();
    catalog?.cleanup();
  });

  const segment = () =>
    fc.oneof(
      fc.constantFrom(...known),
      fc.uuid(),
      fc.string({ maxLength: 30 }),
      fc.stringMatching(/^[a-z0-9-]{0,40}$/),
      fc.stringMatching(/^\d{0,20}$/),
      fc.string({ unit: 'grapheme', maxLength: 10 }),
    );
  const value = () =>
    fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(
        'true',
        'false',
        'yes',
        '0',
        '1',
        '-1',
        '100',
        '101',
        '365',
        '1e309',
        'NaN',
        'json',
        'ai',
        'schemaorg',
        '-price',
        'profile',
        'knowledge_stats',
        'home',
        'E24',
        'drain_failure',
        '',
      ),
      fc.integer().map(String),
      fc.double().map(String),
      fc.constantFrom(...known),
    );
  const query = () =>
    fc.oneof(
      fc
        .array(fc.tuple(fc.oneof(fc.constantFrom(...PARAMS), fc.string({ maxLength: 10 })), value()), {
          maxLength: 6,
        })
        .map((pairs) => new URLSearchParams(pairs).toString()),
      fc.string({ maxLength: 60 }).map((s) => encodeURI(s).replace(/#/g, '%23')),
    );

  function assertEnvelope(status: number, body: string): void {
    expect(status, body).toBeGreaterThanOrEqual(200);
    expect(status, body).toBeLessThan(500);
    const json = JSON.parse(body) as Record<string, unknown>;
    if ('openapi' in json) return;
    expect(typeof json.success).toBe('boolean');
    expect(json.meta).toMatchObject({ requestId: expect.any(String), version: expect.any(String) });
    if (json.success) expect(json).toHaveProperty('data');
    else expect(json.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  }

  it('GET on every route with random path segments and query strings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), segment(), query(), async (route, seg, qs) => {
        const url = `${route.replace('{}', encodeURIComponent(seg))}${qs ? `?${qs}` : ''}`;
        const res = await app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
        assertEnvelope(res.statusCode, res.body);
      }),
      { numRuns: 400 },
    );
  }, 120_000);

  it('other methods and random bodies on every route', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        segment(),
        fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH', 'GET'),
        fc.oneof(fc.json(), fc.string({ maxLength: 200 }), fc.constant('{"query":')),
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
        async (route, seg, method, body, type) => {
          const url = route.replace('{}', encodeURIComponent(seg));
          const res = await app.inject({
            method: method as 'POST',
            url,
            payload: body,
            headers: { 'x-api-key': key, 'content-type': type },
          });
          assertEnvelope(res.statusCode, res.body);
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);
});
