import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createKey } from './helpers/access-server.js';
import { servedFixtureCatalog } from './helpers/served-catalog.js';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** the bytes as sent (still encoded) */
  bytes: Buffer;
  /** the body decoded by its Content-Encoding, as text */
  text: string;
}

/** One request with the exact headers given: fetch would ask for and undo compression itself. */
function raw(
  base: string,
  path: string,
  headers: Record<string, string>,
  options: { method?: string; body?: string; firstChunkOnly?: boolean } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { method: options.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      const done = () => {
        const bytes = Buffer.concat(chunks);
        const coding = res.headers['content-encoding'];
        const decoded =
          coding === 'gzip' ? gunzipSync(bytes) : coding === 'br' ? brotliDecompressSync(bytes) : bytes;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, text: decoded.toString() });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (options.firstChunkOnly) {
          res.destroy();
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            bytes: chunk,
            text: chunk.toString(),
          });
        }
      });
      res.on('end', done);
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const varies = (r: RawResponse) => /accept-encoding/i.test(String(r.headers.vary ?? ''));

describe('api: compression', () => {
  const served = servedFixtureCatalog();
  const base = () => served.server.url;

  it('a search page in gzip and in brotli decodes to the same JSON as identity, fresh and cached', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'pro' });
    const path = '/v2/products?limit=20&include_offers=true';
    const plain = await raw(base(), path, { 'x-api-key': key });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(varies(plain)).toBe(true);
    const plainBody = JSON.parse(plain.text);
    expect(plainBody.data.length).toBeGreaterThan(0);
    for (const coding of ['gzip', 'br', 'gzip', 'br']) {
      const res = await raw(base(), path, { 'x-api-key': key, 'accept-encoding': coding });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(varies(res)).toBe(true);
      expect(Number(res.headers['content-length'])).toBe(res.bytes.length);
      expect(res.bytes.length).toBeLessThan(plain.bytes.length / 3);
      const body = JSON.parse(res.text);
      // every request after the first is a cache hit, its meta fresh
      expect(body.meta.cached).toBe(true);
      expect(body.meta.requestId).toBe(res.headers['x-request-id']);
      expect(body.data).toEqual(plainBody.data);
      expect(body.pagination).toEqual(plainBody.pagination);
      expect(res.headers.etag).toBe(plain.headers.etag);
    }
  });

  it('the first response in a coding is compressed from the cached body too (a miss, then a hit)', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'pro' });
    const path = '/v2/products?limit=15&sort=-price';
    const first = await raw(base(), path, { 'x-api-key': key, 'accept-encoding': 'br' });
    const second = await raw(base(), path, { 'x-api-key': key, 'accept-encoding': 'br' });
    const [a, b] = [JSON.parse(first.text), JSON.parse(second.text)];
    expect([a.meta.cached, b.meta.cached]).toEqual([false, true]);
    expect(b.data).toEqual(a.data);
    expect(second.headers['content-encoding']).toBe('br');
  });

  it('negotiates by q-value: br when rated equal, the higher q otherwise, identity when asked or refused', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'pro' });
    const cases: [string, string | undefined][] = [
      ['gzip, deflate, br', 'br'],
      ['gzip, br', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      ['gzip;q=0.9, br;q=0.1', 'gzip'],
      ['gzip;q=0, *', 'br'],
      ['br;q=0, *;q=0.5', 'gzip'],
      ['x-gzip', 'gzip'],
      ['identity', undefined],
      ['gzip;q=0.2, identity', undefined],
      ['br;q=0, gzip;q=0', undefined],
      ['', undefined],
    ];
    for (const [header, expected] of cases) {
      const res = await raw(base(), '/v2/products?limit=10', { 'x-api-key': key, 'accept-encoding': header });
      expect([header, res.headers['content-encoding']]).toEqual([header, expected]);
      expect(JSON.parse(res.text).success).toBe(true);
      expect(varies(res)).toBe(true);
    }
  });

  it('If-None-Match still answers 304 in any coding (the ETag is weak and the same for every coding)', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'pro' });
    const path = '/v2/products?limit=12&sort=name';
    const first = await raw(base(), path, { 'x-api-key': key, 'accept-encoding': 'gzip' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    for (const coding of ['br', 'gzip', 'identity']) {
      const res = await raw(base(), path, {
        'x-api-key': key,
        'accept-encoding': coding,
        'if-none-match': etag,
      });
      expect(res.status).toBe(304);
      expect(res.bytes.length).toBe(0);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(varies(res)).toBe(true);
    }
  });

  it('uncached answers (POST search, a product document) are compressed and decode to the same JSON', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'pro' });
    const body = JSON.stringify({ query: 'dishwasher', pagination: { limit: 10 } });
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const plain = await raw(base(), '/v2/products/search', headers, { method: 'POST', body });
    const br = await raw(
      base(),
      '/v2/products/search',
      { ...headers, 'accept-encoding': 'br' },
      { method: 'POST', body },
    );
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(br.text).data).toEqual(JSON.parse(plain.text).data);
    const id = JSON.parse(plain.text).data[0].id;
    const doc = await raw(base(), `/v2/products/${id}`, { 'x-api-key': key, 'accept-encoding': 'gzip' });
    expect(doc.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(doc.text).data.id).toBe(id);
  });

  it('small bodies are not compressed (under 1 KiB), errors neither break nor lose their envelope', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'pro' });
    const small = await raw(base(), '/v2/retailers?limit=1', { 'x-api-key': key, 'accept-encoding': 'br' });
    expect(small.bytes.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(varies(small)).toBe(true);
    const error = await raw(base(), '/v2/products?limit=500', {
      'x-api-key': key,
      'accept-encoding': 'gzip',
    });
    expect(error.status).toBe(400);
    expect(JSON.parse(error.text).error.code).toBe('VALIDATION_ERROR');
  });

  it('the SVG price chart is compressed; the MCP SSE stream is not (its first event arrives at once)', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'pro' });
    const list = await raw(base(), '/v2/products?limit=1&include_offers=true', { 'x-api-key': key });
    const id = JSON.parse(list.text).data[0].id;
    const svg = await raw(base(), `/v2/products/${id}/prices.svg?days=90`, {
      'x-api-key': key,
      'accept-encoding': 'gzip',
    });
    expect(svg.status).toBe(200);
    expect(svg.headers['content-encoding']).toBe('gzip');
    expect(svg.text).toMatch(/^<svg /);
    const sse = await raw(
      base(),
      '/sse',
      { 'x-api-key': key, 'accept-encoding': 'gzip, br' },
      { firstChunkOnly: true },
    );
    expect(sse.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(sse.headers['content-encoding']).toBeUndefined();
    expect(sse.text).toMatch(/^event: endpoint/);
  });
});
