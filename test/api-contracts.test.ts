import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/api/index.js';
import { gs1CheckDigit } from '../src/ingest/normalize/gtin.js';
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
type OpenApi = { paths: Record<string, Record<string, { parameters?: OpenApiParameter[] }>> };

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
});
