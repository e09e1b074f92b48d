import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../src/access/index.js';
import { buildApp, type RunningServer } from '../src/api/index.js';
import { CatalogProvider } from '../src/catalog/index.js';
import { gs1CheckDigit } from '../src/identifiers/index.js';
import { startTestServer } from './helpers/access-server.js';
import { expectError, expectOk } from './helpers/assertions.js';
import { type FixtureCatalog, fixtureCatalog } from './helpers/fixture-catalog.js';
import { get } from './helpers/http.js';

type Json = Record<string, unknown>;
interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  description?: string;
  schema?: Json;
}
type OpenApi = {
  components?: { schemas?: Json };
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: OpenApiParameter[];
        responses?: Record<string, { content?: { 'application/json'?: { schema?: unknown } } }>;
      }
    >
  >;
};

/**
 * The route's documented response schema made strict: no property it does not name, at any
 * depth (free-form objects, which declare `additionalProperties`, stay free), with the
 * shared components it references (`#/components/schemas/...`) in place.
 */
function strict(schema: unknown, components: Json = {}): unknown {
  if (Array.isArray(schema)) return schema.map((s) => strict(s, components));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as Json).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const target = components[ref.slice('#/components/schemas/'.length)];
    expect(target, ref).toBeDefined();
    return strict(target, components);
  }
  const allOf = (schema as Json).allOf;
  if (Array.isArray(allOf)) {
    // an extension (allOf of a base and its added properties) is one object: made strict part
    // by part, each part would refuse the other's properties
    const { allOf: _a, ...rest } = schema as Json;
    const parts = allOf.map((part) => strict(part, components) as Json);
    return {
      ...rest,
      type: 'object',
      properties: Object.assign({}, ...parts.map((p) => p.properties)),
      required: parts.flatMap((p) => (p.required as string[] | undefined) ?? []),
      additionalProperties: false,
    };
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(schema as Json))
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, strict(s, components)]))
        : strict(v, components);
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** A value the parameter's schema refuses, or null when it takes any text. */
function badValue(schema: Json): string | null {
  if (schema.pattern || schema.anyOf || schema.enum || schema.const !== undefined) return 'zz!zz';
  if (schema.format === 'uuid') return 'not-a-uuid';
  if (schema.type === 'integer' || schema.type === 'number')
    return typeof schema.maximum === 'number' ? String(schema.maximum + 1) : 'abc';
  if (typeof schema.maxLength === 'number') return 'x'.repeat(schema.maxLength + 1);
  return null;
}

/** The documented contracts a new user tripped over (issue 17), against a real listening server. */
describe('REST /v2 contracts', () => {
  let catalog: FixtureCatalog;
  let server: RunningServer;
  let key: string;
  let openapi: OpenApi;
  const call = (path: string) => get(server.url, path, key);
  const post = async (path: string, body: string, contentType: string) => {
    const response = await fetch(new URL(path, server.url), {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': contentType },
      body,
    });
    return { status: response.status, body: (await response.json()) as Json };
  };

  beforeAll(async () => {
    catalog = await fixtureCatalog();
    key = catalog.key('enterprise');
    server = await startTestServer(catalog.dataDir);
    openapi = (await get(server.url, '/v2/openapi.json')).body as unknown as OpenApi;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    catalog?.cleanup();
  });

  it('regression: a text/plain body gets the documented 415, not a 400 about its shape', async () => {
    const response = await post('/v2/products/search', 'dishwasher', 'text/plain');
    expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect((response.body.error as Json).message).toContain('application/json');
  });

  it('regression: a GTIN with a wrong check digit is a 400 that says so, not a 404', async () => {
    const body = '01234567890';
    const right = gs1CheckDigit(body);
    const wrong = `${body}${(right + 1) % 10}`;
    const response = await call(`/v2/products/barcode/${wrong}`);
    expectError(response, 400, 'VALIDATION_ERROR');
    const error = response.body.error as { message: string; details: { field: string }[] };
    expect(error.message).toMatch(/^gtin .*check digit is wrong \(expected \d\)/);
    expect(error.details).toEqual([{ field: 'gtin', message: expect.stringContaining('check digit') }]);
    expectError(await call(`/v2/products/barcode/${body}${right}`), 404, 'NOT_FOUND');
  });

  it('documents in words what every patterned parameter allows (no parameter is described only by a regex)', () => {
    const bare: string[] = [];
    for (const [path, ops] of Object.entries(openapi.paths))
      for (const [method, op] of Object.entries(ops))
        for (const p of op.parameters ?? [])
          if (p.schema?.pattern && !p.description && !p.schema.description)
            bare.push(`${method.toUpperCase()} ${path} ${p.name}`);
    expect(bare).toEqual([]);
  });

  it('regression: every 400 names the field once and says what is allowed, without regexes or "equal to constant"', async () => {
    const product = (expectOk<Json[]>(await call('/v2/products?limit=1')) as Json[])[0]!;
    const fill = (path: string) =>
      path
        .replace('{id}', String(product.id))
        .replace('{slug}', 'dishwasher')
        .replace('{identifier}', 'bosch')
        .replace('{type}', 'error_code')
        .replace('{gtin}', '012345678905');
    let checked = 0;
    for (const [path, ops] of Object.entries(openapi.paths)) {
      const op = ops.get;
      if (!op || path.includes('openapi')) continue;
      for (const p of op.parameters ?? []) {
        if (p.in !== 'query' || !p.schema) continue;
        const value = badValue(p.schema);
        if (value === null) continue;
        const response = await call(`${fill(path)}?${p.name}=${encodeURIComponent(value)}`);
        if (response.status !== 400) continue; // a handler may take free text here
        const first = ((response.body.error as Json).details as { field: string; message: string }[])[0];
        // another required parameter is missing: that one is named (and checked on its own turn)
        if (first?.field !== p.name && first?.message.startsWith('is required')) continue;
        checked++;
        if (process.env.SHOW) console.log(path, p.name, (response.body.error as Json).message);
        const error = response.body.error as {
          message: string;
          details: { field: string; message: string }[];
        };
        const where = `${path} ${p.name}=${value}: ${error.message}`;
        expect(
          error.details.map((d) => d.field),
          where,
        ).toEqual([p.name]);
        expect(error.message.startsWith(`${p.name} `), where).toBe(true);
        expect(error.message, where).not.toMatch(/[\^$]|\[[a-z0-9]|\\d|constant|anyOf|must match/);
        // says what is allowed: a list, a range, a form in words
        expect(error.message, where).toMatch(/^\S+ (must be|is) \S+ \S+/);
        expect(error.message, where).not.toMatch(/must be (integer|string|number)$|is invalid$/);
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('says what a body field allows, once', async () => {
    const bad = await post('/v2/products/search', JSON.stringify({ mode: 'fuzzy' }), 'application/json');
    expectError(bad, 400, 'VALIDATION_ERROR');
    expect((bad.body.error as Json).details).toEqual([
      { field: 'mode', message: 'must be one of: keyword, semantic, hybrid' },
    ]);
    const unknown = await post('/v2/products/search', JSON.stringify({ qurey: 'x' }), 'application/json');
    expect(((unknown.body.error as Json).details as Json[])[0]).toMatchObject({
      field: 'qurey',
      message: expect.stringContaining('allowed: query'),
    });
  });

  it('regression: every response carries every documented field, and nothing else (brand profile fields were omitted)', async () => {
    const products = expectOk<Json[]>(await call('/v2/products?limit=5&include_legacy=true')) as Json[];
    const product = products[0]!;
    const group = (expectOk<Json[]>(await call('/v2/product-groups?limit=1')) as Json[])[0];
    const brand = (expectOk<Json[]>(await call('/v2/brands?limit=1')) as Json[])[0]!;
    const retailer = (expectOk<Json[]>(await call('/v2/retailers?limit=1')) as Json[])[0]!;
    const type = (expectOk<Json[]>(await call('/v2/product-types?limit=1')) as Json[])[0]!;
    const requests: [string, string][] = [
      ['/v2/products', '/v2/products?limit=20&include_offers=true&include_signals=true'],
      ['/v2/products', '/v2/products?q=dishwasher&include_legacy=true'],
      ['/v2/products', '/v2/products?group_variants=true'],
      [
        '/v2/products/{id}',
        `/v2/products/${product.id}?include_variants=true&include_offers=true&include_attributes=true&include_signals=true&include_knowledge=true&include_legacy=true`,
      ],
      ['/v2/products/{id}', `/v2/products/${product.id}`],
      ['/v2/products/by-slug/{slug}', `/v2/products/by-slug/${product.slug}?include_offers=true`],
      ['/v2/products/{id}/attributes', `/v2/products/${product.id}/attributes`],
      ['/v2/products/{id}/relationships', `/v2/products/${product.id}/relationships`],
      ['/v2/products/{id}/prices', `/v2/products/${product.id}/prices?days=365`],
      ['/v2/brands', '/v2/brands?include=profile&limit=100'],
      ['/v2/brands/{identifier}', `/v2/brands/${brand.slug}`],
      ['/v2/retailers', '/v2/retailers?is_active=false'],
      ['/v2/retailers', '/v2/retailers'],
      ['/v2/retailers/{identifier}', `/v2/retailers/${retailer.slug}`],
      ['/v2/categories', '/v2/categories?include_children=true'],
      ['/v2/product-types', '/v2/product-types?include=knowledge_stats&limit=100'],
      ['/v2/product-types/{slug}/attributes', `/v2/product-types/${type.slug}/attributes`],
      ['/v2/product-types/{slug}/knowledge', `/v2/product-types/${type.slug}/knowledge`],
      ['/v2/knowledge/{type}', '/v2/knowledge/error_code?limit=50'],
      ['/v2/product-groups', '/v2/product-groups?include_products=true&include_legacy=true'],
    ];
    if (product.gtin) requests.push(['/v2/products/barcode/{gtin}', `/v2/products/barcode/${product.gtin}`]);
    if (group)
      requests.push(['/v2/product-groups/{id}', `/v2/product-groups/${group.id}?include_offers=true`]);
    const problems: string[] = [];
    for (const [route, url] of requests) {
      const schema = openapi.paths[route]?.get?.responses?.['200']?.content?.['application/json']?.schema;
      expect(schema, route).toBeDefined();
      const response = await call(url);
      expect(response.status, url).toBe(200);
      const strictSchema = strict(schema, openapi.components?.schemas) as never;
      for (const e of [...Value.Errors(strictSchema, response.body)].slice(0, 5))
        problems.push(`${url} ${e.instancePath} ${e.message}`);
    }
    expect(problems).toEqual([]);
  });

  it('regression: a brand profile names every documented field, null when the data does not say', async () => {
    const ge = expectOk<Json>(await call('/v2/brands/ge')) as { profile: Json };
    expect(Object.keys(ge.profile).sort()).toEqual(
      [
        'country_of_origin',
        'founded_year',
        'known_for',
        'parent_company',
        'price_position',
        'quality_tier',
        'repairability',
        'summary',
        'support_reputation',
        'sustainability',
        'target_audience',
        'warranty',
      ].sort(),
    );
    expect(ge.profile).toMatchObject({ sustainability: null, warranty: null, summary: null });
    const bosch = expectOk<Json>(await call('/v2/brands/bosch')) as { profile: { warranty: Json } };
    expect(Object.keys(bosch.profile.warranty).sort()).toEqual([
      'extended_available',
      'notes',
      'standard_years',
    ]);
  });

  it('regression: filters take an id or a slug wherever an id is taken (brands?category_id took only a UUID)', async () => {
    const categories = expectOk<Json[]>(await call('/v2/categories')) as { id: string; slug: string }[];
    for (const c of categories) {
      const bySlug = await call(`/v2/brands?category_id=${c.slug}&limit=100`);
      const byId = await call(`/v2/brands?category_id=${c.id}&limit=100`);
      expect(expectOk(bySlug)).toEqual(expectOk(byId));
      expect(expectOk(await call(`/v2/products?category_id=${c.slug}`))).toEqual(
        expectOk(await call(`/v2/products?category_id=${c.id}`)),
      );
    }
    const brand = (expectOk<Json[]>(await call('/v2/brands?limit=1')) as { id: string; slug: string }[])[0]!;
    expect(expectOk(await call(`/v2/products?brand_id=${brand.slug}`))).toEqual(
      expectOk(await call(`/v2/products?brand_id=${brand.id}`)),
    );
    expect(expectOk(await call(`/v2/product-groups?brand_id=${brand.slug}`))).toEqual(
      expectOk(await call(`/v2/product-groups?brand_id=${brand.id}`)),
    );
    expect(expectOk(await call('/v2/products?product_type_id=dishwasher'))).toEqual(
      expectOk(
        await call(
          `/v2/products?product_type_id=${(expectOk<Json[]>(await call('/v2/product-types?q=dishwasher')) as Json[])[0]!.id}`,
        ),
      ),
    );
    const unknown = await call('/v2/brands?category_id=no-such-category');
    expectError(unknown, 404, 'NOT_FOUND');
    expect((unknown.body.error as Json).message).toBe("category 'no-such-category' was not found");
  });

  it('regression: q on /v2/knowledge/error_code matches brand-specific codes (E24 found nothing)', async () => {
    type Entry = { key: string; brand_overrides?: { data: { code: string } }[] };
    for (const q of ['E24', 'e24']) {
      const entries = expectOk<Entry[]>(await call(`/v2/knowledge/error_code?q=${q}`)) as Entry[];
      expect(entries.map((e) => e.key)).toEqual(['drain-failure']);
      expect(entries[0]!.brand_overrides!.map((o) => o.data.code)).toEqual(['E24']);
    }
  });

  it('regression: code=E24&brand=bosch returns the E24 override only, not the E25 override of the same entry', async () => {
    type K = { knowledge: { brand_overrides?: { data: { code: string } }[] }[] };
    const body = expectOk<K>(await call('/v2/product-types/dishwasher/knowledge?code=E24&brand=bosch')) as K;
    expect(body.knowledge).toHaveLength(1);
    expect(body.knowledge[0]!.brand_overrides!.map((o) => o.data.code)).toEqual(['E24']);
    const generic = expectOk<K>(
      await call('/v2/product-types/dishwasher/knowledge?code=DRAIN_FAILURE&brand=bosch'),
    ) as K;
    expect(generic.knowledge[0]!.brand_overrides!.map((o) => o.data.code).sort()).toEqual(['E24', 'E25']);
  });

  it('regression: one log line per request at info (Fastify logged two)', async () => {
    const lines: Json[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Json);
        done();
      },
    });
    const provider = new CatalogProvider({ dataDir: catalog.dataDir });
    provider.start();
    const keys = new KeyStore(catalog.dataDir);
    const app = await buildApp({ catalog: provider, keys, logger: { level: 'info', stream } });
    try {
      for (const url of ['/health', '/v2/products?limit=1', '/v2/nope'])
        await app.inject({ url, headers: { 'x-api-key': key } });
      const perRequest = lines.filter((l) => l.reqId);
      expect(perRequest).toHaveLength(3);
      expect(perRequest.map((l) => [l.msg, l.url, l.statusCode])).toEqual([
        ['request', '/health', 200],
        ['request', '/v2/products?limit=1', 200],
        ['request', '/v2/nope', 404],
      ]);
    } finally {
      await app.close();
      provider.close?.();
      keys.close();
    }
  });

  it('regression: `npm run -s shelf -- keys create --json` prints pure JSON on stdout (npm banner broke jq)', async () => {
    const { stdout } = await promisify(execFile)(
      'npm',
      ['run', '-s', 'shelf', '--', 'keys', 'create', '--json'],
      {
        cwd: new URL('..', import.meta.url).pathname,
        env: { ...process.env, SHELF_DATA_DIR: catalog.dataDir },
      },
    );
    const created = JSON.parse(stdout) as { key: string; plan: string };
    expect(created.key).toMatch(/^sk_shelf_live_/);
    expect(created.plan).toBe('free');
  }, 60_000);

  it('regression: knowledge takes a product type by name or synonym the way search reads it ("fridge" was refused)', async () => {
    type K = { product_type: { slug: string } };
    for (const name of ['dish-washer', 'dishwashers', 'Dishwasher'.toLowerCase()]) {
      const body = expectOk<K>(await call(`/v2/product-types/${name}/knowledge`)) as K;
      expect(body.product_type.slug, name).toBe('dishwasher');
    }
    const washer = expectOk<K>(await call('/v2/product-types/washing-machine/knowledge')) as K;
    expect(washer.product_type.slug).not.toBe('dishwasher');
    expectError(await call('/v2/product-types/toaster-oven/knowledge'), 404, 'NOT_FOUND');
  });
});
