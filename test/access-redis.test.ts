import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from './helpers/access-server.js';
import { type FixtureCatalog, fixtureCatalog } from './helpers/fixture-catalog.js';
import { get } from './helpers/http.js';

const ROOT = resolve(import.meta.dirname, '..');
const redisServer = spawnSync('sh', ['-c', 'command -v redis-server']).stdout.toString().trim() || null;
if (!redisServer)
  console.warn(
    'SKIPPED access-redis: redis-server was not found on PATH. Install it (Debian: apt-get install -y redis-server; .ci/run does) to run the multi-replica test.',
  );

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });
}

/** A child process with its output collected, and a way to wait for a line in it. */
class Proc {
  output = '';
  readonly child: ChildProcess;
  constructor(command: string, args: string[], env: Record<string, string> = {}) {
    this.child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env } });
    this.child.stdout?.on('data', (d) => {
      this.output += d;
    });
    this.child.stderr?.on('data', (d) => {
      this.output += d;
    });
  }
  async waitFor(pattern: RegExp, timeoutMs = 30_000, times = 1): Promise<RegExpMatchArray> {
    const started = Date.now();
    for (;;) {
      const all = [...this.output.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))];
      if (all.length >= times) return all[times - 1]!;
      if (Date.now() - started > timeoutMs)
        throw new Error(`timed out waiting for ${pattern} in:\n${this.output.slice(-3000)}`);
      if (this.child.exitCode !== null) throw new Error(`process exited:\n${this.output.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await exited;
  }
}

const startRedis = (port: number) => {
  const redis = new Proc(redisServer!, [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  return redis.waitFor(/Ready to accept connections/).then(() => redis);
};

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

  beforeAll(async () => {
    catalog = await fixtureCatalog();
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    for (let i = 0; i < 2; i++) {
      const proc = new Proc(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--no-demo'], {
        PORT: '0',
        HOST: '127.0.0.1',
        SHELF_DATA_DIR: catalog.dataDir,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        LOG_LEVEL: 'info',
      });
      const [, url] = await proc.waitFor(/Shelf is serving on (http:\/\/\S+)/, 60_000);
      await proc.waitFor(/connected to Redis: limits and usage are shared/);
      servers.push({ proc, url: url! });
    }
    expect(servers[0]!.url).not.toBe(servers[1]!.url);
  });
  afterAll(async () => {
    for (const s of servers) await s.proc.stop();
    await redis?.stop();
    catalog?.cleanup();
  });

  it('a Free key gets exactly 10 successful requests a minute across both replicas together', async () => {
    const { key } = createKey(catalog.dataDir, { plan: 'free' });
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

  it('keeps serving while Redis is down (local counters, logged) and shares again when it is back', async () => {
    const { key, id } = createKey(catalog.dataDir, { plan: 'pro' });
    expect((await alternate(key, 3)).map((r) => r.status)).toEqual([200, 200, 200]);
    // replicas mirror Redis's totals into access.db every 2 s; this Redis keeps no data
    await new Promise((r) => setTimeout(r, 2500));

    await redis.stop();
    const during = await alternate(key, 4);
    expect(during.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(during.every((r) => r.headers.get('x-ratelimit-limit') === '300')).toBe(true);
    for (const s of servers) await s.proc.waitFor(/Redis is unavailable: counting limits and usage locally/);

    redis = await startRedis(redisPort);
    for (const s of servers) await s.proc.waitFor(/shared through Redis again/, 30_000);

    expect((await alternate(key, 2)).map((r) => r.status)).toEqual([200, 200]);
    // one limit again
    const free = createKey(catalog.dataDir, { plan: 'free' });
    const after = await alternate(free.key, 14);
    expect(after.filter((r) => r.status === 200)).toHaveLength(10);

    // the month's usage is whole: before, during and after the outage (Redis kept no data)
    const usage = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'keys', 'usage', id, '--json'],
      {
        cwd: ROOT,
        env: { ...process.env, SHELF_DATA_DIR: catalog.dataDir, REDIS_URL: `redis://127.0.0.1:${redisPort}` },
      },
    );
    expect(usage.stderr.toString()).toBe('');
    expect(JSON.parse(usage.stdout.toString())).toEqual([
      expect.objectContaining({ keyId: id, requests: 9 }),
    ]);
  });

  it('starts and serves with local counters when Redis is not reachable at startup', async () => {
    const proc = new Proc(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--no-demo'], {
      PORT: '0',
      HOST: '127.0.0.1',
      SHELF_DATA_DIR: catalog.dataDir,
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      LOG_LEVEL: 'info',
    });
    try {
      const [, url] = await proc.waitFor(/Shelf is serving on (http:\/\/\S+)/, 60_000);
      const { key } = createKey(catalog.dataDir, { plan: 'free' });
      const res = await get(url!, fresh(), key);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('9');
      await proc.waitFor(/Redis is not reachable yet: counting limits and usage locally/);
    } finally {
      await proc.stop();
    }
  });
});
