import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisKeyStore } from '../src/access/index.js';
import { type FixtureCatalog, fixtureCatalog } from './helpers/fixture-catalog.js';
import { get } from './helpers/http.js';
import {
  freePort,
  type Proc,
  redisServerPath,
  shelfCli,
  startRedis,
  startServe,
} from './helpers/processes.js';

const redisServer = redisServerPath;
if (!redisServer)
  console.warn(
    'SKIPPED access-redis: redis-server was not found on PATH. Install it (Debian: apt-get install -y redis-server; .ci/run does) to run the multi-replica test.',
  );

/** Two API processes sharing one Redis: one limit across replicas, and surviving Redis outages. */
describe.skipIf(!redisServer)('access: many replicas, one limit (Redis)', () => {
  let catalog: FixtureCatalog;
  let redisPort: number;
  let redis: Proc;
  const servers: { proc: Proc; url: string }[] = [];
  let n = 0;
  const fresh = () => `/v2/brands?n=${++n}`;
  /** Requests alternating between the two replicas; the status of each. */
  const alternate = async (key: string, count: number) => {
    const out: { status: number; headers: Headers }[] = [];
    for (let i = 0; i < count; i++) {
      const res = await get(servers[i % 2]!.url, fresh(), key);
      out.push({ status: res.status, headers: res.headers });
    }
    return out;
  };

  /** A key created in Redis (what `shelf keys create` does with REDIS_URL set). */
  const createKey = async (_dataDir: string, options: { plan: 'free' | 'pro' }) => {
    const admin = await RedisKeyStore.open(`redis://127.0.0.1:${redisPort}`);
    try {
      const { key, record } = await admin.create({ type: 'secret', env: 'live', plan: options.plan });
      await new Promise((r) => setTimeout(r, 100)); // pub/sub reaches the replicas in milliseconds
      return { key, id: record.id };
    } finally {
      await admin.close();
    }
  };

  beforeAll(async () => {
    catalog = await fixtureCatalog();
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    for (let i = 0; i < 2; i++) {
      const server = await startServe({
        SHELF_DATA_DIR: catalog.dataDir,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      });
      await server.proc.waitFor(/connected to Redis: limits and usage are shared/);
      servers.push(server);
    }
    expect(servers[0]!.url).not.toBe(servers[1]!.url);
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) await s.proc.stop();
    await redis?.stop();
    catalog?.cleanup();
  });

  it('a Free key gets exactly 10 successful requests a minute across both replicas together', async () => {
    const { key } = await createKey(catalog.dataDir, { plan: 'free' });
    const results = await alternate(key, 16);
    expect(results.map((r) => r.status)).toEqual([...Array(10).fill(200), ...Array(6).fill(429)]);
    expect(results.slice(0, 10).map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual([
      '9',
      '8',
      '7',
      '6',
      '5',
      '4',
      '3',
      '2',
      '1',
      '0',
    ]);
    // the month is shared too: both replicas report the same remaining quota
    expect(results[8]!.headers.get('x-monthlyquota-remaining')).toBe('4991');
    expect(results[9]!.headers.get('x-monthlyquota-remaining')).toBe('4990');
    expect(Number(results[10]!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('keeps serving while Redis is down (local counters, logged) and shares again when it is back', {
    timeout: 90_000,
  }, async () => {
    const { key, id } = await createKey(catalog.dataDir, { plan: 'pro' });
    expect((await alternate(key, 3)).map((r) => r.status)).toEqual([200, 200, 200]);
    // replicas copy Redis's totals every 2 s; this Redis keeps no data
    await new Promise((r) => setTimeout(r, 2500));

    await redis.stop();
    const during = await alternate(key, 4);
    expect(during.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(during.every((r) => r.headers.get('x-ratelimit-limit') === '300')).toBe(true);
    for (const s of servers) await s.proc.waitFor(/Redis is unavailable: counting limits and usage locally/);

    redis = await startRedis(redisPort);
    for (const s of servers) await s.proc.waitFor(/shared through Redis again/, 30_000);
    // Redis came back empty: the first replica to notice wrote its copy of the keys back
    const restored = /Redis has no API keys but this server knows some/;
    for (const started = Date.now(); !servers.some((s) => s.proc.count(restored) > 0); ) {
      expect(Date.now() - started).toBeLessThan(30_000);
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 300));

    expect((await alternate(key, 2)).map((r) => r.status)).toEqual([200, 200]);
    // one limit again
    const free = await createKey(catalog.dataDir, { plan: 'free' });
    const after = await alternate(free.key, 14);
    expect(after.filter((r) => r.status === 200)).toHaveLength(10);

    // the month's usage is whole: before, during and after the outage (Redis kept no data)
    const usage = shelfCli(['keys', 'usage', id, '--json'], {
      SHELF_DATA_DIR: catalog.dataDir,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    });
    expect(usage.stderr).toBe('');
    expect(JSON.parse(usage.stdout)).toEqual([expect.objectContaining({ keyId: id, requests: 9 })]);
  });

  it('starts without Redis, and serves its keys once Redis answers', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const { proc, url } = await startServe({
      SHELF_DATA_DIR: catalog.dataDir,
      REDIS_URL: `redis://127.0.0.1:${port}`,
    });
    let late: Proc | null = null;
    try {
      expect((await get(url, '/health')).status).toBe(200);
      await proc.waitFor(/Redis is not reachable yet: counting limits and usage locally/);
      late = await startRedis(port);
      await proc.waitFor(/connected to Redis: limits and usage are shared/, 30_000);
      const admin = await RedisKeyStore.open(`redis://127.0.0.1:${port}`);
      const { key } = await admin.create({ type: 'secret', env: 'live', plan: 'free' });
      await admin.close();
      await new Promise((r) => setTimeout(r, 200));
      const res = await get(url, fresh(), key);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('9');
    } finally {
      await proc.stop();
      await late?.stop();
    }
  });
});
