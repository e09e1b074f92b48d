import { describe, expect, it } from 'vitest';
import { runIngest } from '../src/ingest/index.js';
import { createKey, startTestServer, usageRows } from './helpers/access-server.js';
import { expectError } from './helpers/assertions.js';
import { fixtureContent, fixtureFeeds } from './helpers/fixture-catalog.js';
import { get } from './helpers/http.js';
import { servedFixtureCatalog } from './helpers/served-catalog.js';

type Meta = { requestId: string; timestamp: string; responseTime: number; cached: boolean };

/** The response cache (the spec's edge cache) against a real listening server. */
describe('access: response cache', () => {
  const served = servedFixtureCatalog();

  it('serves a repeated GET from the cache with meta.cached and fresh meta, the same data and ETag', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'pro' });
    const first = await get(served.server.url, '/v2/products?q=dishwasher&limit=2', key);
    expect(first.status).toBe(200);
    expect((first.body.meta as Meta).cached).toBe(false);
    // same question, parameters in another order and the key in the query: same entry
    const second = await get(served.server.url, `/v2/products?limit=2&q=dishwasher&api_key=${key}`);
    expect(second.status).toBe(200);
    const [m1, m2] = [first.body.meta as Meta, second.body.meta as Meta];
    expect(m2.cached).toBe(true);
    expect(m2.requestId).not.toBe(m1.requestId);
    expect(second.headers.get('x-request-id')).toBe(m2.requestId);
    expect(Date.parse(m2.timestamp)).toBeGreaterThanOrEqual(Date.parse(m1.timestamp));
    expect(second.body.data).toEqual(first.body.data);
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(second.body.pagination).toEqual(first.body.pagination);
    expect(second.headers.get('etag')).toMatch(/^W\/"[\w-]+"$/);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(first.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(second.headers.get('cache-control')).toBe('private, max-age=3600');
  });

  it('cache hits count against the minute but not the month', async () => {
    const { key, id } = createKey(served.catalog.dataDir, { plan: 'free' });
    const miss = await get(served.server.url, '/v2/retailers?limit=5', key);
    expect(miss.headers.get('x-monthlyquota-remaining')).toBe('4999');
    for (let i = 0; i < 9; i++) {
      const hit = await get(served.server.url, '/v2/retailers?limit=5', key);
      expect((hit.body.meta as Meta).cached).toBe(true);
      expect(hit.headers.get('x-monthlyquota-remaining')).toBe('4999');
      expect(hit.headers.get('x-ratelimit-remaining')).toBe(String(8 - i));
    }
    expectError(await get(served.server.url, '/v2/retailers?limit=5', key), 429, 'RATE_LIMITED');
    await served.server.close();
    served.server = await startTestServer(served.catalog.dataDir);
    expect(usageRows(served.catalog.dataDir, id)[0]).toMatchObject({ requests: 1, cached: 9 });
  });

  it('If-None-Match with the ETag answers 304 without a body, for cached and fresh responses', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'pro' });
    const first = await get(served.server.url, '/v2/brands?limit=3', key);
    const etag = first.headers.get('etag')!;
    const notModified = await get(served.server.url, '/v2/brands?limit=3', key, { 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers.get('etag')).toBe(etag);
    expect(notModified.headers.get('x-ratelimit-limit')).toBe('300');
    // the ETag is weak (W/"…"); If-None-Match compares weakly, so its strong form matches too
    const strong = await get(served.server.url, '/v2/brands?limit=3', key, {
      'if-none-match': `"x", ${etag.replace(/^W\//, '')}`,
    });
    expect(strong.status).toBe(304);
    const changed = await get(served.server.url, '/v2/brands?limit=3', key, { 'if-none-match': '"other"' });
    expect(changed.status).toBe(200);
    // a response that was not cached yet (another plan) still honours If-None-Match
    const starter = createKey(served.catalog.dataDir, { plan: 'starter' });
    const fresh = await get(served.server.url, '/v2/brands?limit=3', starter.key, { 'if-none-match': etag });
    expect(fresh.status).toBe(304);
  });

  it('errors are not cached and say Cache-Control: no-store', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'pro' });
    const path = '/v2/products/00000000-0000-4000-8000-000000000000';
    for (let i = 0; i < 2; i++) {
      const res = await get(served.server.url, path, key);
      expectError(res, 404, 'NOT_FOUND');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('etag')).toBeNull();
    }
  });

  it('never serves a body cached for one plan to another plan', async () => {
    const pro = createKey(served.catalog.dataDir, { plan: 'pro' });
    const free = createKey(served.catalog.dataDir, { plan: 'free' });
    await get(served.server.url, '/v2/products?q=tv', pro.key);
    expect(((await get(served.server.url, '/v2/products?q=tv', pro.key)).body.meta as Meta).cached).toBe(
      true,
    );
    expect(((await get(served.server.url, '/v2/products?q=tv', free.key)).body.meta as Meta).cached).toBe(
      false,
    );
  });

  it('drops cached responses when a new catalog snapshot is published', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'pro' });
    const before = await get(served.server.url, '/v2/products?q=samsung', key);
    expect(((await get(served.server.url, '/v2/products?q=samsung', key)).body.meta as Meta).cached).toBe(
      true,
    );
    const report = await runIngest({
      dataDir: served.catalog.dataDir,
      feeds: fixtureFeeds(),
      content: fixtureContent(),
      day: '2026-11-21',
    });
    expect(report.published).toBe(true);
    await expect
      .poll(
        async () => ((await get(served.server.url, '/v2/products?q=samsung', key)).body.meta as Meta).cached,
        {
          timeout: 10_000,
          interval: 250,
        },
      )
      .toBe(false);
    const after = await get(served.server.url, '/v2/products?q=samsung', key);
    expect((after.body.meta as Meta).cached).toBe(true);
    const ids = (r: typeof before) => (r.body.data as { id: string }[]).map((p) => p.id);
    expect(ids(after)).toEqual(ids(before));
  });
});
