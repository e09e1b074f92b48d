import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/api/index.js';
import { startTestServer } from './helpers/access-server.js';
import { expectError } from './helpers/assertions.js';
import { type FixtureCatalog, fixtureCatalog } from './helpers/fixture-catalog.js';
import { get } from './helpers/http.js';

type Problem = { field: string; message: string };

/**
 * Regression: the handlers' own checks (unknown `fields`, min above max, offset with cursor)
 * ran only once the route schema's checks had passed, so a request wrong in both ways got a
 * 400 naming the schema's fields, then, once those were fixed, another 400 naming the rest.
 */
describe('one 400 names every invalid field, of the schema and of the later checks', () => {
  let catalog: FixtureCatalog;
  let server: RunningServer;
  let key: string;
  let productId: string;
  const fieldsOf = (body: Record<string, unknown>) =>
    ((body.error as { details: Problem[] }).details ?? []).map((d) => d.field);
  const post = async (path: string, body: unknown) => {
    const response = await fetch(new URL(path, server.url), {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    catalog = await fixtureCatalog();
    key = catalog.key('enterprise');
    server = await startTestServer(catalog.dataDir);
    const list = await get(server.url, '/v2/products?limit=1', key);
    productId = (list.body.data as { id: string }[])[0]!.id;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    catalog?.cleanup();
  });

  it.each([
    ['/v2/products?limit=abc&fields=nope&min_price=10&max_price=5', ['limit', 'fields', 'min_price']],
    ['/v2/products?include_offers=maybe&fields=name,nope', ['include_offers', 'fields']],
    ['/v2/products/not-a-uuid?fields=nope', ['id', 'fields']],
    ['/v2/products/by-slug/Not_A_Slug?fields=nope', ['slug', 'fields']],
    ['/v2/product-groups?limit=0&fields=nope', ['limit', 'fields']],
    ['/v2/product-groups/not-a-uuid?fields=nope', ['id', 'fields']],
  ])('GET %s names %j', async (path, fields) => {
    const response = await get(server.url, path, key);
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(response.body)).toEqual(fields);
    const message = (response.body.error as { message: string }).message;
    expect(message).toMatch(
      new RegExp(
        `^${fields[0]} .*\\(and ${fields.length - 1} more invalid: ${fields.slice(1).join(', ')}\\)$`,
      ),
    );
  });

  it('regression: knowledge with type and code in conflict is a 400 with the schema fields, before a 404', async () => {
    const both = await get(
      server.url,
      '/v2/product-types/dishwasher/knowledge?context=nope&type=lifespan&code=E24',
      key,
    );
    expectError(both, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(both.body)).toEqual(['context', 'type']);
    const unknownType = await get(
      server.url,
      '/v2/product-types/no-such-type/knowledge?type=lifespan&code=E24',
      key,
    );
    expectError(unknownType, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(unknownType.body)).toEqual(['type']);
    // a key without the plan still hears about its invalid parameters first, as before
    const free = await get(
      server.url,
      '/v2/product-types/dishwasher/knowledge?context=nope',
      catalog.key('free'),
    );
    expectError(free, 400, 'VALIDATION_ERROR');
    const freeValid = await get(server.url, '/v2/product-types/dishwasher/knowledge', catalog.key('free'));
    expectError(freeValid, 403, 'PLAN_REQUIRED');
  });

  it('POST /v2/products/search names the body fields of both kinds', async () => {
    const response = await post('/v2/products/search', {
      mode: 'fuzzy',
      filters: { price: { min: 10, max: 5 } },
      pagination: { offset: 0, cursor: 'x' },
      fields: ['nope'],
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(response.body)).toEqual(['mode', 'filters.price', 'pagination', 'fields']);
  });

  it('POST /v2/products/semantic-search names the query and the unknown field', async () => {
    const response = await post('/v2/products/semantic-search', { query: '', fields: ['nope'] });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(response.body)).toEqual(['query', 'fields']);
  });

  it('names a field the schema refused once: a check that reads it is not run on the raw value', async () => {
    const response = await get(
      server.url,
      '/v2/products?min_price=abc&max_price=5&format=zz&fields=name',
      key,
    );
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(response.body)).toEqual(['min_price', 'format']);
  });

  it('still answers a valid request, and the later checks alone as before', async () => {
    expect((await get(server.url, `/v2/products/${productId}?fields=name`, key)).status).toBe(200);
    const alone = await get(server.url, '/v2/products?fields=nope', key);
    expectError(alone, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(alone.body)).toEqual(['fields']);
  });
});
