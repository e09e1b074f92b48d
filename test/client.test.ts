import { createShelfClient, type Product, ShelfError } from '@shelf/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/api/index.js';
import { createKey, startTestServer } from './helpers/access-server.js';
import { servedFixtureCatalog } from './helpers/served-catalog.js';

/** The TypeScript client (packages/client) against the real API on a listening server. */
describe('@shelf/client against a running API', () => {
  const served = servedFixtureCatalog();
  const client = () => createShelfClient({ baseUrl: served.server.url, apiKey: served.catalog.key('pro') });

  it('walks every page of a list with paginate, each product once, as many as the total says', async () => {
    const c = client();
    const ids: string[] = [];
    let pages = 0;
    let total = -1;
    for await (const page of c.paginate('/v2/products', {
      params: { query: { limit: 2, sort: 'name', include_legacy: 'true' } },
    })) {
      pages++;
      total = page.pagination.total;
      expect(page.data.length).toBeLessThanOrEqual(2);
      for (const p of page.data) ids.push((p as { id: string }).id);
    }
    expect(total).toBeGreaterThan(3);
    expect(pages).toBe(Math.ceil(total / 2));
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    // items() yields the same products in the same order
    const items: string[] = [];
    for await (const p of c.items('/v2/products', {
      params: { query: { limit: 2, sort: 'name', include_legacy: 'true' } },
    }))
      items.push((p as { id: string }).id);
    expect(items).toEqual(ids);
  });

  it('gets one product by id with offers, typed as the API document says', async () => {
    const c = client();
    const first = await c.get('/v2/products', { params: { query: { limit: 1 } } });
    const id = (first.data[0] as { id: string }).id;
    const res = await c.get('/v2/products/{id}', {
      params: { path: { id }, query: { include_offers: 'true' } },
    });
    const product = res.data as Product;
    expect(res.status).toBe(200);
    expect(product.id).toBe(id);
    expect(product.offers?.length).toBeGreaterThan(0);
    expect(product.offers?.[0]).toMatchObject({
      retailer_name: expect.any(String),
      in_stock: expect.any(Boolean),
    });
    expect(res.meta.requestId).toBe(res.requestId);
    expect(res.pagination).toBeNull();
  });

  it('searches with GET ?q= and with the advanced POST search', async () => {
    const c = client();
    const byGet = await c.get('/v2/products', { params: { query: { q: 'dishwasher', limit: 5 } } });
    expect(byGet.data.length).toBeGreaterThan(0);
    for (const p of byGet.data) expect(JSON.stringify(p).toLowerCase()).toContain('dishwasher');
    const byPost = await c.post('/v2/products/search', {
      body: { query: 'dishwasher', mode: 'keyword', pagination: { limit: 5 } },
    });
    expect(byPost.data.map((p) => (p as { id: string }).id)).toEqual(
      byGet.data.map((p) => (p as { id: string }).id),
    );
  });

  it('throws a ShelfError with the envelope code, status and request id for an unknown product', async () => {
    const c = client();
    const error = await c
      .get('/v2/products/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShelfError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404, retryable: false, retryAfter: null });
    expect((error as ShelfError).requestId).toMatch(/\S/);
    expect((error as ShelfError).rateLimit?.remaining).toEqual(expect.any(Number));
  });

  it('throws VALIDATION_ERROR naming the field for a bad parameter, without retrying', async () => {
    let retries = 0;
    const c = createShelfClient({
      baseUrl: served.server.url,
      apiKey: served.catalog.key('pro'),
      onRetry: () => retries++,
    });
    const error = (await c
      .get('/v2/products', { params: { query: { limit: 100_000 } } })
      .catch((e: unknown) => e)) as ShelfError;
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, retryable: false });
    expect(JSON.stringify(error.details)).toContain('limit');
    expect(retries).toBe(0);
  });

  it('exposes the rate-limit and quota headers on every response', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'starter' });
    const c = createShelfClient({ baseUrl: served.server.url, apiKey: key });
    const a = await c.get('/v2/brands');
    const b = await c.get('/v2/brands', { params: { query: { limit: 2 } } });
    expect(a.rateLimit).toMatchObject({
      limit: expect.any(Number),
      remaining: expect.any(Number),
      reset: expect.any(Number),
      monthLimit: expect.any(Number),
      monthRemaining: expect.any(Number),
      retryAfter: null,
    });
    expect(a.rateLimit.policy).toContain('"minute"');
    expect(a.rateLimit.raw).toContain('"month"');
    expect(b.rateLimit.remaining).toBe((a.rateLimit.remaining as number) - 1);
    expect(b.rateLimit.monthRemaining).toBe((a.rateLimit.monthRemaining as number) - 1);
    expect(a.headers.get('x-request-id')).toBe(a.requestId);
  });

  describe('on a server with a 3-second rate window', () => {
    let limited: RunningServer;
    beforeAll(async () => {
      limited = await startTestServer(served.catalog.dataDir, { SHELF_RATE_WINDOW_MS: '3000' });
    });
    afterAll(async () => limited?.close());

    it('a 429 RATE_LIMITED is retried after its Retry-After, and the retry succeeds', async () => {
      const { key } = createKey(served.catalog.dataDir, { plan: 'free' });
      const events: { delayMs: number; status: number; reason: string }[] = [];
      const c = createShelfClient({ baseUrl: limited.url, apiKey: key, onRetry: (e) => events.push(e) });
      const strict = createShelfClient({ baseUrl: limited.url, apiKey: key, retry: false });
      // the Free plan's 10 requests of the window
      for (let i = 0; i < 10; i++) await c.get('/v2/brands', { params: { query: { limit: i + 1 } } });
      const refused = (await strict.get('/v2/brands').catch((e: unknown) => e)) as ShelfError;
      expect(refused).toBeInstanceOf(ShelfError);
      expect(refused).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryable: true });
      expect(refused.retryAfter).toBeGreaterThan(0);
      expect(refused.retryAfter).toBeLessThanOrEqual(3);
      expect(refused.rateLimit).toMatchObject({ remaining: 0, retryAfter: refused.retryAfter });

      const started = Date.now();
      const res = await c.get('/v2/brands');
      expect(res.status).toBe(200);
      expect(events.length).toBeGreaterThanOrEqual(1);
      expect(events[0]).toMatchObject({ status: 429, reason: 'RATE_LIMITED' });
      expect(events[0]?.delayMs).toBeGreaterThan(0);
      expect(events[0]?.delayMs).toBeLessThanOrEqual(3000);
      // it waited what the server asked before trying again
      expect(Date.now() - started).toBeGreaterThanOrEqual(events[0]?.delayMs ?? 0);
    });
  });
});
