import { Redis } from 'ioredis';
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
  tempDir,
} from './helpers/processes.js';

if (!redisServerPath)
  console.warn(
    'SKIPPED replicas: redis-server was not found on PATH. Install it (Debian: apt-get install -y redis-server; .ci/run does) to run the three-replica test.',
  );

/**
 * The rolling window of the plans, shortened for this test only (SHELF_RATE_WINDOW_MS; the
 * code path is the production one, only the length differs): 10 s instead of 60 s, so that
 * windows can be seen rolling in a test of reasonable length.
 */
const WINDOW_MS = 10_000;
const month = () => new Date().toISOString().slice(0, 7);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Replica {
  proc: Proc;
  url: string;
}

/** URLs never asked before: every request is counted as a request, never as a cache hit. */
let loadRequest = 0;

/** Steady traffic: one loop per key, each loop sending to the replicas in turn. */
function startLoad(replicas: Replica[], keys: string[], options: { pauseMs: number; only?: () => number[] }) {
  let running = true;
  const results: { replica: number; status: number | 'error'; key: number; at: number }[] = [];
  const loops = keys.map(async (key, k) => {
    let turn = k;
    while (running) {
      const alive = options.only?.() ?? replicas.map((_, i) => i);
      const replica = alive[turn++ % alive.length] as number;
      try {
        const res = await fetch(new URL(`/v2/brands?load=${++loadRequest}`, replicas[replica]!.url), {
          headers: { 'x-api-key': key },
        });
        await res.arrayBuffer();
        results.push({ replica, status: res.status, key: k, at: Date.now() });
      } catch {
        results.push({ replica, status: 'error', key: k, at: Date.now() });
      }
      await sleep(options.pauseMs);
    }
  });
  return {
    results,
    async stop() {
      running = false;
      await Promise.all(loops);
      return results;
    },
  };
}

describe.skipIf(!redisServerPath)('three replicas and one Redis behave as one service', () => {
  let catalog: FixtureCatalog;
  let redisDir: ReturnType<typeof tempDir>;
  let redisPort: number;
  let redisUrl: string;
  let redis: Proc;
  let admin: RedisKeyStore;
  let client: Redis;
  const replicas: Replica[] = [];
  let n = 0;
  const fresh = () => `/v2/brands?n=${++n}`;
  const cliEnv = () => ({ SHELF_DATA_DIR: catalog.dataDir, REDIS_URL: redisUrl });
  const monthRequests = async (keyId: string) =>
    Number((await client.hget(`shelf:usage:${keyId}:${month()}`, 'requests')) ?? 0);

  beforeAll(async () => {
    catalog = await fixtureCatalog();
    redisDir = tempDir('shelf-redis-');
    redisPort = await freePort();
    redisUrl = `redis://127.0.0.1:${redisPort}`;
    redis = await startRedis(redisPort, redisDir.path);
    const started = await Promise.all(
      [0, 1, 2].map(() =>
        startServe({
          SHELF_DATA_DIR: catalog.dataDir,
          REDIS_URL: redisUrl,
          SHELF_RATE_WINDOW_MS: String(WINDOW_MS),
        }),
      ),
    );
    for (const r of started) {
      await r.proc.waitFor(/connected to Redis: limits and usage are shared/);
      replicas.push(r);
    }
    admin = await RedisKeyStore.open(redisUrl);
    client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    await client.connect();
  }, 180_000);

  afterAll(async () => {
    for (const r of replicas) await r.proc.stop();
    await admin?.close();
    client?.disconnect();
    await redis?.stop();
    redisDir?.remove();
    catalog?.cleanup();
  });

  it('a key created through one replica works on all three at once', { timeout: 60_000 }, async () => {
    const created = shelfCli(['keys', 'create', '--plan', 'pro', '--json'], cliEnv());
    expect(created.stderr).toBe('');
    const { key, id } = JSON.parse(created.stdout) as { key: string; id: string };
    // nothing was written to access.db: the key lives in Redis only
    expect(shelfCli(['keys', 'list'], { SHELF_DATA_DIR: catalog.dataDir }).stdout).not.toContain(id);
    expect(shelfCli(['keys', 'list'], cliEnv()).stdout).toContain(id);
    const answers = await Promise.all(replicas.map((r) => get(r.url, fresh(), key)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.headers.get('x-ratelimit-limit'))).toEqual(['300', '300', '300']);

    // a new plan applies everywhere too
    expect(shelfCli(['keys', 'set-plan', id, 'starter'], cliEnv()).stdout).toContain('starter plan');
    const replanned = await Promise.all(replicas.map((r) => get(r.url, fresh(), key)));
    expect(replanned.map((a) => a.headers.get('x-ratelimit-limit'))).toEqual(['60', '60', '60']);
  });

  it('a revocation stops the key on all three within 1 s', { timeout: 30_000 }, async () => {
    const { key, record } = await admin.create({ type: 'secret', env: 'live', plan: 'pro' });
    expect((await Promise.all(replicas.map((r) => get(r.url, fresh(), key)))).map((a) => a.status)).toEqual([
      200, 200, 200,
    ]);
    expect(await admin.revoke(record.id)).toBe(true);
    const revokedAt = Date.now();
    const stoppedAfter: number[] = [];
    await Promise.all(
      replicas.map(async (r) => {
        for (;;) {
          const res = await get(r.url, fresh(), key);
          if (res.status === 401) return void stoppedAfter.push(Date.now() - revokedAt);
          expect(Date.now() - revokedAt).toBeLessThan(1000);
          await sleep(20);
        }
      }),
    );
    expect(Math.max(...stoppedAfter)).toBeLessThan(1000);
    console.log(`replicas: revocation seen by the three replicas after ${stoppedAfter.join(', ')} ms`);
  });

  it('a Free key gets exactly its limit in any rolling window across all three', {
    timeout: 90_000,
  }, async () => {
    const { key } = await admin.create({ type: 'secret', env: 'live', plan: 'free' });
    // a burst spread over the three replicas: exactly 10, then 429 with an honest Retry-After
    const burst: { status: number; retryAfter: number; at: number }[] = [];
    for (let i = 0; i < 15; i++) {
      const res = await get(replicas[i % 3]!.url, fresh(), key);
      burst.push({ status: res.status, retryAfter: Number(res.headers.get('retry-after')), at: Date.now() });
    }
    expect(burst.map((b) => b.status)).toEqual([...Array(10).fill(200), ...Array(5).fill(429)]);
    // a request sent when Retry-After says is served (the oldest request has left the window)
    const refused = burst[14]!;
    await sleep(refused.at + refused.retryAfter * 1000 - Date.now() + 50);
    expect((await get(replicas[0]!.url, fresh(), key)).status).toBe(200);

    // then steady traffic faster than the limit for two and a half windows: whatever the
    // boundaries, no rolling window of 10 s holds more than 10 served requests
    const served: { sent: number; received: number }[] = [];
    const until = Date.now() + 2.5 * WINDOW_MS;
    for (let i = 0; Date.now() < until; i++) {
      const sent = Date.now();
      const res = await get(replicas[i % 3]!.url, fresh(), key);
      if (res.status === 200) served.push({ sent, received: Date.now() });
      else expect(res.status).toBe(429);
      await sleep(150);
    }
    for (let i = 10; i < served.length; i++)
      // the 11th served request after any served one came at least a window later
      expect(served[i]!.received - served[i - 10]!.sent).toBeGreaterThanOrEqual(WINDOW_MS);
    // and the key was not locked out: it got close to its limit in every window
    expect(served.length).toBeGreaterThanOrEqual(20);
  });

  it('Redis killed, stalled and restarted under load: no failed request, counts whole within 5 s', {
    timeout: 120_000,
  }, async () => {
    const keys = await Promise.all(
      [0, 1, 2].map(() => admin.create({ type: 'secret', env: 'live', plan: 'enterprise' })),
    );
    const load = startLoad(
      replicas,
      keys.map((k) => k.key),
      { pauseMs: 30 },
    );
    await sleep(1500);

    // killed, then started again on the same port (with its append-only file)
    await redis.stop('SIGKILL');
    for (const r of replicas) await r.proc.waitFor(/Redis is unavailable: counting limits and usage locally/);
    await sleep(2000);
    redis = await startRedis(redisPort, redisDir.path);
    const restarted = Date.now();
    for (const r of replicas) await r.proc.waitFor(/Redis is back/, 10_000);
    const backAfterRestart = Date.now() - restarted;

    // stalled: the socket stays open, Redis answers nothing
    await sleep(1000);
    redis.child.kill('SIGSTOP');
    for (const r of replicas)
      await r.proc.waitFor(/Redis is unavailable: counting limits and usage locally/, 10_000, 2);
    await sleep(2000);
    redis.child.kill('SIGCONT');
    const resumed = Date.now();
    for (const r of replicas) await r.proc.waitFor(/Redis is back/, 10_000, 2);
    const backAfterStall = Date.now() - resumed;
    await sleep(1000);
    const results = await load.stop();
    const stopped = Date.now();

    // the admin connection of this test does not reconnect (as the CLI's): open a new one
    await admin.close();
    admin = await RedisKeyStore.open(redisUrl);

    const failed = results.filter((r) => r.status !== 200);
    expect(failed).toEqual([]);
    expect(results.length).toBeGreaterThan(100);
    expect(backAfterRestart).toBeLessThan(5000);
    expect(backAfterStall).toBeLessThan(5000);

    // every served request is counted once in Redis: none lost, none counted twice
    const expected = keys.map((_, k) => results.filter((r) => r.key === k).length);
    let counted: number[] = [];
    for (;;) {
      counted = await Promise.all(keys.map((k) => monthRequests(k.record.id)));
      if (counted.every((c, i) => c === expected[i]) || Date.now() - stopped > 5000) break;
      await sleep(100);
    }
    expect(counted).toEqual(expected);
    console.log(
      `replicas: ${results.length} requests under Redis kill + stall, 0 failed; back ${backAfterRestart} ms after restart, ${backAfterStall} ms after SIGCONT; counts whole ${Date.now() - stopped} ms after the load stopped`,
    );
  });

  it("while Redis is away the three together stay within a Free key's limit, and its return does not double it", {
    timeout: 60_000,
  }, async () => {
    const { key } = await admin.create({ type: 'secret', env: 'live', plan: 'free' });
    await sleep(200);
    await redis.stop('SIGKILL');
    for (const r of replicas) await r.proc.waitFor(/Redis is unavailable/, 10_000, 3);
    const started = Date.now();
    const during: number[] = [];
    for (let i = 0; i < 15; i++) during.push((await get(replicas[i % 3]!.url, fresh(), key)).status);
    // each replica alone allows its share: floor(10 / 3) = 3
    expect(during.filter((s) => s === 200)).toHaveLength(9);
    redis = await startRedis(redisPort, redisDir.path);
    for (const r of replicas) await r.proc.waitFor(/Redis is back/, 10_000, 3);
    // the nine served alone are in the shared window again: one more, not ten more
    const after: number[] = [];
    for (let i = 0; i < 6; i++) after.push((await get(replicas[i % 3]!.url, fresh(), key)).status);
    expect(Date.now() - started).toBeLessThan(WINDOW_MS);
    expect(after).toEqual([200, 429, 429, 429, 429, 429]);
    await admin.close();
    admin = await RedisKeyStore.open(redisUrl);
  });

  it('one replica killed under load: the other two answer every request sent to them', {
    timeout: 60_000,
  }, async () => {
    const keys = await Promise.all(
      [0, 1, 2].map(() => admin.create({ type: 'secret', env: 'live', plan: 'enterprise' })),
    );
    let killed = false;
    const load = startLoad(
      replicas,
      keys.map((k) => k.key),
      { pauseMs: 20, only: () => (killed ? [0, 1] : [0, 1, 2]) },
    );
    await sleep(1500);
    await replicas[2]!.proc.stop('SIGKILL');
    killed = true;
    await sleep(3000);
    const results = await load.stop();
    const toSurvivors = results.filter((r) => r.replica !== 2);
    expect(toSurvivors.length).toBeGreaterThan(50);
    expect(toSurvivors.filter((r) => r.status !== 200)).toEqual([]);
    // the survivors still count as one: every served request is in the key's usage
    const served = keys.map((_, k) => results.filter((r) => r.key === k && r.status === 200).length);
    const stopped = Date.now();
    let counted: number[] = [];
    for (;;) {
      counted = await Promise.all(keys.map((k) => monthRequests(k.record.id)));
      if (counted.every((c, i) => c >= served[i]!) || Date.now() - stopped > 5000) break;
      await sleep(100);
    }
    if (!counted.every((c, i) => c >= served[i]!))
      console.log(replicas.map((r) => r.proc.output.slice(-2000)).join('\n----\n'));
    expect(counted.every((c, i) => c >= served[i]!)).toBe(true);
  });
});
