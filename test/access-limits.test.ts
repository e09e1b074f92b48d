import { describe, expect, it } from 'vitest';
import { createKey, rateHeaders, setUsage, startTestServer, usageRows } from './helpers/access-server.js';
import { expectError } from './helpers/assertions.js';
import { get } from './helpers/http.js';
import { servedFixtureCatalog } from './helpers/served-catalog.js';

let n = 0;
/** A URL no earlier request asked for (unknown parameters are ignored but vary the cache key). */
const fresh = (path = '/v2/brands') => `${path}${path.includes('?') ? '&' : '?'}n=${++n}`;
const month = () => new Date().toISOString().slice(0, 7);
const secondsToMonthEnd = () => {
  const d = new Date();
  return (Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - Date.now()) / 1000;
};

/** Plans of spec §8 against a real listening server: minute limits, monthly quotas, headers. */
describe('access: rate limits, monthly quotas and their headers', () => {
  const served = servedFixtureCatalog();

  it('a Free key gets 10 requests a minute, then 429 RATE_LIMITED with Retry-After until the window ends', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'free' });
    const firstSentAt = Date.now();
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await get(served.server.url, `/v2/products?q=dishwasher&limit=${i + 1}`, key);
      expect(res.status).toBe(200);
      remaining.push(res.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
    const limited = await get(served.server.url, fresh('/v2/products?q=dishwasher'), key);
    expectError(limited, 429, 'RATE_LIMITED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((limited.body.error as { retryAfter: number }).retryAfter).toBe(retryAfter);
    expect((limited.body.error as { retryable: boolean }).retryable).toBe(true);
    // never earlier than the end of the window that started with the first request
    expect(Date.now() + retryAfter * 1000).toBeGreaterThanOrEqual(firstSentAt + 60_000);
    expect(Number(limited.headers.get('x-ratelimit-reset')) * 1000).toBeGreaterThanOrEqual(
      firstSentAt + 60_000,
    );
    expect(rateHeaders(limited.headers)).toMatchObject({
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '0',
      'x-monthlyquota-limit': '5000',
      'x-monthlyquota-remaining': '4990',
      'ratelimit-policy': '"minute";q=10;w=60, "month";q=5000;w=2592000',
    });
    // the refused request did not count against the month
    const other = createKey(served.catalog.dataDir, { plan: 'starter' });
    expect((await get(served.server.url, fresh(), other.key)).status).toBe(200);
  });

  it('sends the five X-RateLimit/X-MonthlyQuota headers and the IETF pair on successes and errors alike', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'starter' });
    const responses = [
      await get(served.server.url, fresh(), key),
      await get(served.server.url, fresh('/v2/products?limit=500'), key),
      await get(served.server.url, '/v2/products/00000000-0000-4000-8000-000000000000', key),
      await get(served.server.url, '/v2/no-such-endpoint', key),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 400, 404, 404]);
    expectError(responses[3]!, 404, 'ROUTE_NOT_FOUND');
    responses.forEach((res, i) => {
      const h = rateHeaders(res.headers);
      expect(h).toMatchObject({
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': String(59 - i),
        'x-monthlyquota-limit': '50000',
        'x-monthlyquota-remaining': String(50000 - 1 - i),
        'ratelimit-policy': '"minute";q=60;w=60, "month";q=50000;w=2592000',
      });
      expect(h.ratelimit).toMatch(new RegExp(`^"minute";r=${59 - i};t=\\d+, "month";r=${49999 - i};t=\\d+$`));
      const reset = Number(h['x-ratelimit-reset']);
      expect(reset).toBeGreaterThan(Date.now() / 1000);
      expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
    });
  });

  it('401s carry the address budget as rate headers and a monthly quota of 0', async () => {
    const res = await get(served.server.url, fresh(), 'sk_shelf_live_malformed');
    expectError(res, 401, 'AUTH_INVALID');
    expect(rateHeaders(res.headers)).toMatchObject({
      'x-ratelimit-limit': '20',
      'x-ratelimit-remaining': expect.stringMatching(/^\d+$/),
      'x-ratelimit-reset': expect.stringMatching(/^\d+$/),
      'x-monthlyquota-limit': '0',
      'x-monthlyquota-remaining': '0',
      'ratelimit-policy': '"auth-failures";q=20;w=60',
      ratelimit: expect.stringMatching(/^"auth-failures";r=\d+;t=\d+$/),
    });
  });

  it('warns at 80% of the monthly quota in meta.warnings and X-Quota-Warning', async () => {
    const below = createKey(served.catalog.dataDir, { plan: 'free' });
    setUsage(served.catalog.dataDir, below.id, 3998);
    const quiet = await get(served.server.url, fresh(), below.key);
    expect(quiet.headers.get('x-quota-warning')).toBeNull();
    expect(quiet.body.meta).not.toHaveProperty('warnings');
    const warned = await get(served.server.url, fresh(), below.key); // the 4000th request: 80%
    expect(warned.status).toBe(200);
    expect(warned.headers.get('x-quota-warning')).toMatch(/^4000 of 5000 monthly requests used \(80%\)/);
    expect((warned.body.meta as { warnings: string[] }).warnings).toEqual([
      warned.headers.get('x-quota-warning'),
    ]);
    // errors carry it too
    const error = await get(served.server.url, fresh('/v2/products?limit=0'), below.key);
    expect(error.status).toBe(400);
    expect(error.headers.get('x-quota-warning')).toMatch(/^4001 of 5000/);
    expect((error.body.meta as { warnings: string[] }).warnings).toHaveLength(1);
  });

  it('the Free plan stops at its monthly quota with 429 QUOTA_EXCEEDED until the month ends', async () => {
    const { key, id } = createKey(served.catalog.dataDir, { plan: 'free' });
    setUsage(served.catalog.dataDir, id, 4999);
    const last = await get(served.server.url, fresh(), key);
    expect(last.status).toBe(200);
    expect(last.headers.get('x-monthlyquota-remaining')).toBe('0');
    const over = await get(served.server.url, fresh(), key);
    expectError(over, 429, 'QUOTA_EXCEEDED');
    const retryAfter = Number(over.headers.get('retry-after'));
    expect((over.body.error as { retryAfter: number }).retryAfter).toBe(retryAfter);
    expect(retryAfter).toBeGreaterThanOrEqual(secondsToMonthEnd());
    expect(retryAfter).toBeLessThanOrEqual(secondsToMonthEnd() + 2);
    expect(over.headers.get('x-quota-warning')).toMatch(/used up/);
    expect(rateHeaders(over.headers)).toMatchObject({
      'x-monthlyquota-limit': '5000',
      'x-monthlyquota-remaining': '0',
    });
    await served.server.close(); // flushes usage to access.db
    served.server = await startTestServer(served.catalog.dataDir);
    expect(usageRows(served.catalog.dataDir, id)).toEqual([
      { keyId: id, month: month(), requests: 5000, cached: 0, errors: 1 },
    ]);
    // still refused after a restart: usage survives it
    expectError(await get(served.server.url, fresh(), key), 429, 'QUOTA_EXCEEDED');
  });

  it('paid plans keep being served past the quota; the overage is counted', async () => {
    const { key, id } = createKey(served.catalog.dataDir, { plan: 'starter' });
    setUsage(served.catalog.dataDir, id, 49_999);
    for (let i = 0; i < 3; i++) {
      const res = await get(served.server.url, fresh(), key);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-monthlyquota-remaining')).toBe(i === 0 ? '0' : '0');
      expect(res.headers.get('x-quota-warning')).toMatch(i === 0 ? /^50000 of 50000/ : /overage/);
    }
    await served.server.close();
    served.server = await startTestServer(served.catalog.dataDir);
    expect(usageRows(served.catalog.dataDir, id)[0]).toMatchObject({ requests: 50_002 });
  });

  it('test keys are counted apart, never against the monthly quota, but the minute limit applies', async () => {
    const { key, id } = createKey(served.catalog.dataDir, { plan: 'free', env: 'test' });
    setUsage(served.catalog.dataDir, id, 6000);
    const res = await get(served.server.url, fresh(), key);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-monthlyquota-remaining')).toBe('5000');
    expect(res.headers.get('x-quota-warning')).toBeNull();
    for (let i = 0; i < 9; i++) expect((await get(served.server.url, fresh(), key)).status).toBe(200);
    expectError(await get(served.server.url, fresh(), key), 429, 'RATE_LIMITED');
    await served.server.close();
    served.server = await startTestServer(served.catalog.dataDir);
    expect(usageRows(served.catalog.dataDir, id)).toEqual([
      { keyId: id, month: month(), requests: 6010, cached: 0, errors: 1 },
    ]);
  });
});
