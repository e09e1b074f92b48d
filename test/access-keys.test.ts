import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createKey, startTestServer } from './helpers/access-server.js';
import { expectError } from './helpers/assertions.js';
import { get } from './helpers/http.js';
import { servedFixtureCatalog } from './helpers/served-catalog.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');

/** `npm run shelf -- …` without npm: the same CLI through tsx. */
async function shelf(dataDir: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, SHELF_DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
  });
  return stdout;
}

/** Keys of spec §5 and DESIGN.md against a real listening server and the real CLI. */
describe('access: keys, bad-key throttling and publishable keys', () => {
  const served = servedFixtureCatalog({ SHELF_AUTH_FAILURES_PER_MINUTE: '5' });
  let n = 0;
  const fresh = (path = '/v2/brands') => `${path}${path.includes('?') ? '&' : '?'}n=${++n}`;

  it('keys are created, listed, re-planned, used, reported and revoked with the CLI', {
    timeout: 120_000,
  }, async () => {
    const created = JSON.parse(
      await shelf(
        served.catalog.dataDir,
        'keys',
        'create',
        '--plan',
        'free',
        '--env',
        'test',
        '--name',
        'ci',
        '--json',
      ),
    ) as { key: string; id: string; last4: string };
    expect(created.key).toMatch(/^sk_shelf_test_[0-9A-Za-z]{32}$/);
    const listed = await shelf(served.catalog.dataDir, 'keys', 'list');
    expect(listed).toContain(`sk_shelf_test_…${created.last4}`);
    expect(listed).not.toContain(created.key);

    const x = await get(served.server.url, fresh(), created.key);
    expect(x.headers.get('x-ratelimit-limit')).toBe('10');
    expect(await shelf(served.catalog.dataDir, 'keys', 'set-plan', created.id, 'pro')).toContain('pro plan');
    const bearer = await fetch(new URL(fresh(), served.server.url), {
      headers: { authorization: `Bearer ${created.key}` },
    });
    expect(bearer.status).toBe(200);
    expect(bearer.headers.get('x-ratelimit-limit')).toBe('300');
    await get(served.server.url, '/v2/products/00000000-0000-4000-8000-000000000000', created.key);

    await served.server.close(); // writes usage to access.db
    served.server = await startTestServer(served.catalog.dataDir, { SHELF_AUTH_FAILURES_PER_MINUTE: '5' });
    const usage = JSON.parse(
      await shelf(served.catalog.dataDir, 'keys', 'usage', created.id, '--json'),
    ) as unknown[];
    expect(usage).toEqual([
      expect.objectContaining({
        keyId: created.id,
        env: 'test',
        plan: 'pro',
        month: new Date().toISOString().slice(0, 7),
        requests: 3,
        cached: 0,
        errors: 1,
        quota: null,
        overage: 0,
      }),
    ]);
    const table = await shelf(served.catalog.dataDir, 'keys', 'usage');
    expect(table).toMatch(/month\s+key/);
    expect(table).toContain(`…${created.last4}`);

    expect(await shelf(served.catalog.dataDir, 'keys', 'revoke', created.id)).toContain('Revoked');
    expectError(await get(served.server.url, fresh(), created.key), 401, 'AUTH_INVALID');
  });

  it('all four kinds of keys authenticate (publishable ones from their Origin)', async () => {
    for (const type of ['secret', 'publishable'] as const)
      for (const env of ['live', 'test'] as const) {
        const { key } = createKey(served.catalog.dataDir, { type, env, origins: ['https://shop.example'] });
        expect(key.startsWith(`${type === 'secret' ? 'sk' : 'pk'}_shelf_${env}_`)).toBe(true);
        const res = await get(served.server.url, fresh(), key, { origin: 'https://shop.example' });
        expect(res.status).toBe(200);
      }
  });

  it('many bad keys from one address are slowed down with 429; valid keys are not affected', async () => {
    // a server of its own, so that no other test has used this address's budget
    const own = await startTestServer(served.catalog.dataDir, { SHELF_AUTH_FAILURES_PER_MINUTE: '5' });
    try {
      await slowsDownBadKeys(own.url);
    } finally {
      await own.close();
    }
  });

  async function slowsDownBadKeys(url: string) {
    const good = createKey(served.catalog.dataDir, { plan: 'pro' });
    const statuses: number[] = [];
    const took: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      const res = await get(url, fresh(), `sk_shelf_live_${String(i).padStart(32, 'x')}`);
      took.push(Date.now() - started);
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    // regression (200 guesses answered in 114 ms): past a quarter of the budget each
    // failure is held twice as long as the one before (100, 200, 400 ms here)
    expect(took[2]).toBeGreaterThanOrEqual(95);
    expect(took[3]).toBeGreaterThanOrEqual(195);
    expect(took[4]).toBeGreaterThanOrEqual(395);
    const startedSlowed = Date.now();
    const slowed = await get(url, fresh(), 'sk_shelf_live_guessguessguessguessguessguessgues');
    expect(Date.now() - startedSlowed).toBeGreaterThanOrEqual(795);
    expectError(slowed, 429, 'RATE_LIMITED');
    const retryAfter = Number(slowed.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((slowed.body.error as { retryAfter: number }).retryAfter).toBe(retryAfter);
    expectError(await get(url, fresh()), 429, 'RATE_LIMITED'); // no key either
    const ok = await get(url, fresh(), good.key);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-limit')).toBe('300');
  }

  it('publishable keys: catalog GETs and the search POSTs only, only from their Origins, with CORS', async () => {
    const origin = 'https://Shop.Example';
    const { key } = createKey(served.catalog.dataDir, {
      type: 'publishable',
      plan: 'starter',
      origins: [origin, 'http://localhost:5173'],
    });
    const ok = await get(served.server.url, fresh(), key, { origin: 'https://shop.example' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(ok.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
    expect(ok.headers.get('vary')).toContain('Origin');

    const wrong = await get(served.server.url, fresh(), key, { origin: 'https://evil.example' });
    expectError(wrong, 403, 'KEY_NOT_ALLOWED');
    expect(wrong.headers.get('access-control-allow-origin')).toBeNull();
    expect(wrong.headers.get('x-ratelimit-limit')).toBe('60');
    expectError(await get(served.server.url, fresh(), key), 403, 'KEY_NOT_ALLOWED'); // no Origin
    // a refused call does not use the monthly quota
    expect(wrong.headers.get('x-monthlyquota-remaining')).toBe(ok.headers.get('x-monthlyquota-remaining'));

    // the two search POSTs are allowed
    const search = await fetch(new URL('/v2/products/search', served.server.url), {
      method: 'POST',
      headers: { 'x-api-key': key, origin, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'dishwasher' }),
    });
    expect(search.status).toBe(200);
    expect(search.headers.get('access-control-allow-origin')).toBe('https://shop.example');

    // secret-only operations: anything but GET and the two search POSTs
    const post = await fetch(new URL('/v2/brands', served.server.url), {
      method: 'POST',
      headers: { 'x-api-key': key, origin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(403);
    expect(((await post.json()) as { error: { code: string } }).error.code).toBe('KEY_NOT_ALLOWED');

    // a secret key used from a browser gets no CORS headers: browsers will not show the response
    const secret = createKey(served.catalog.dataDir, { plan: 'pro' });
    const fromBrowser = await get(served.server.url, fresh(), secret.key, { origin: 'https://shop.example' });
    expect(fromBrowser.status).toBe(200);
    expect(fromBrowser.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers CORS preflights for Origins listed on publishable keys only', async () => {
    createKey(served.catalog.dataDir, { type: 'publishable', origins: ['https://preflight.example'] });
    await new Promise((r) => setTimeout(r, 5100)); // the list of Origins is re-read every 5 s
    const preflight = (origin: string) =>
      fetch(new URL('/v2/products/search', served.server.url), {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-api-key, content-type',
        },
      });
    const allowed = await preflight('https://preflight.example');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://preflight.example');
    expect(allowed.headers.get('access-control-allow-methods')).toContain('POST');
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
    const other = await preflight('https://elsewhere.example');
    expect(other.status).toBe(204);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
