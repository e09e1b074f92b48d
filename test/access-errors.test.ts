import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { KeyStore } from '../src/access/index.js';
import { buildApp } from '../src/api/index.js';
import { CatalogProvider } from '../src/catalog/index.js';
import { createKey } from './helpers/access-server.js';
import { expectError } from './helpers/assertions.js';
import { get } from './helpers/http.js';
import { servedFixtureCatalog } from './helpers/served-catalog.js';

/** A raw HTTP request (fetch would re-encode a malformed path): status, headers, JSON body. */
function raw(base: string, path: string, headers: Record<string, string> = {}) {
  const url = new URL(base);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Record<string, unknown> }>(
    (done, fail) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path, headers }, (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () =>
          done({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: JSON.parse(text) as Record<string, unknown>,
          }),
        );
      });
      req.on('error', fail);
      req.end();
    },
  );
}

describe('every error is the envelope, and keys never reach the logs', () => {
  const served = servedFixtureCatalog();

  it('a path segment over 500 characters is a 400 envelope (was a bare 414 FST_ERR_MAX_PARAM_LENGTH)', async () => {
    const res = await raw(served.server.url, `/v2/products/${'a'.repeat(600)}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', details: [{ field: 'path' }], retryable: false },
    });
    expect(res.headers['x-request-id']).toMatch(/^req_/);
    expect((res.body.meta as { requestId: string }).requestId).toBe(res.headers['x-request-id']);
  });

  it('a malformed percent-encoding is a 400 envelope (was a bare FST_ERR_BAD_URL)', async () => {
    const res = await raw(served.server.url, '/v2/products/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    expect(res.headers['x-request-id']).toMatch(/^req_/);
    expect(JSON.stringify(res.body)).not.toContain('FST_');
  });

  it('a body that is not JSON is a 400 envelope with X-Request-Id', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'pro' });
    const res = await fetch(new URL('/v2/products/search', served.server.url), {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: '{"query": ',
    });
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(400);
    expect(body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expectError(await get(served.server.url, '/v2/nothing-here', key), 404, 'ROUTE_NOT_FOUND');
  });

  it('api_key query values, X-API-Key and Authorization are redacted from the request log', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, next) {
        lines.push(String(chunk));
        next();
      },
    });
    const keys = new KeyStore(served.catalog.dataDir);
    const provider = new CatalogProvider({ dataDir: served.catalog.dataDir });
    provider.refresh();
    const app = await buildApp({ catalog: provider, keys, logger: { level: 'info', stream } });
    try {
      const { key } = keys.create({ plan: 'pro', type: 'secret', env: 'live' });
      await app.inject({ method: 'POST', url: `/messages?sessionId=none&api_key=${key}`, payload: {} });
      await app.inject({ url: `/v2/brands?api_key=${key}` });
      await app.inject({ url: '/v2/brands', headers: { 'x-api-key': key } });
      await app.inject({ url: '/v2/brands', headers: { authorization: `Bearer ${key}` } });
      await app.inject({ url: `/v2/products/${key}` });
      const log = lines.join('');
      expect(log).toContain('"msg":"request"');
      expect(log).toContain('api_key=[REDACTED]');
      expect(log).not.toContain(key);
      expect(log).not.toContain(key.slice(14));
    } finally {
      await app.close();
      provider.close();
      keys.close();
    }
  });
});
