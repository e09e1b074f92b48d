/**
 * Cost of access control per request: the limiter over local and Redis counters, and the
 * response cache over HTTP (hits vs misses). Run: `npx tsx bench/access.ts` (Redis part
 * only when redis-server is on PATH). Short runs; numbers depend on the machine.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import autocannon from 'autocannon';
import {
  type ApiKeyRecord,
  connectRedis,
  KeyStore,
  Limiter,
  LocalStore,
  RedisStore,
  UsageRepo,
} from '../src/access/index.js';
import { fixtureCatalog } from '../test/helpers/fixture-catalog.js';

const say = (s: string) => process.stdout.write(`${s}\n`);
const catalog = await fixtureCatalog();
const keys = new KeyStore(catalog.dataDir);
const usage = new UsageRepo(keys.db);
const records: ApiKeyRecord[] = [];
const secrets: string[] = [];
for (let i = 0; i < 200; i++) {
  const { key, record } = keys.create({ type: 'secret', env: 'live', plan: 'enterprise' });
  records.push(record);
  secrets.push(key);
}

async function opsPerSecond(ms: number, concurrency: number, op: (i: number) => Promise<unknown>) {
  let done = 0;
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) await op(done++);
    }),
  );
  return Math.round(done / (ms / 1000));
}

const local = new Limiter(new LocalStore(usage, { flushMs: 1000 }));
say(
  `limiter.hit, LocalStore: ${await opsPerSecond(2000, 1, (i) => local.hit(records[i % 200]!, { count: 'requests' }))} ops/s`,
);
await local.store.close();

const redisBin = spawnSync('sh', ['-c', 'command -v redis-server']).stdout.toString().trim();
if (redisBin) {
  const port = await new Promise<number>((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => done(p));
    });
  });
  const redis = spawn(redisBin, ['--port', String(port), '--save', '', '--appendonly', 'no']);
  await new Promise((r) => setTimeout(r, 500));
  const store = new RedisStore(connectRedis(`redis://127.0.0.1:${port}`), usage);
  await new Promise((r) => store.redis.once('ready', r));
  const limiter = new Limiter(store);
  for (const c of [1, 32])
    say(
      `limiter.hit, RedisStore (${c} in flight): ${await opsPerSecond(2000, c, (i) => limiter.hit(records[i % 200]!, { count: 'requests' }))} ops/s`,
    );
  await store.close();
  redis.kill();
} else say('redis-server not found: Redis part skipped');
keys.close();

// the server runs in its own process so that autocannon does not share its event loop
const serverProc = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--no-demo'], {
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SHELF_DATA_DIR: catalog.dataDir, LOG_LEVEL: 'silent' },
});
const url = await new Promise<string>((done, fail) => {
  let out = '';
  serverProc.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/Shelf is serving on (http:\/\/\S+)/);
    if (m?.[1]) done(m[1]);
  });
  serverProc.once('exit', () => fail(new Error(`server exited: ${out}`)));
});
async function cannon(title: string, path: (n: number) => string) {
  let n = 0;
  const result = await autocannon({
    url,
    connections: 10,
    duration: 4,
    requests: [
      {
        setupRequest: (req) => {
          n++;
          return { ...req, path: path(n), headers: { ...req.headers, 'x-api-key': secrets[n % 200]! } };
        },
      },
    ],
  });
  say(
    `${title}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`,
  );
}
await cannon('GET /v2/products?q=dishwasher, cache hits', () => '/v2/products?q=dishwasher&limit=20');
await cannon(
  'GET /v2/products?q=dishwasher, cache misses',
  (n) => `/v2/products?q=dishwasher&limit=20&n=${n}`,
);
serverProc.kill('SIGTERM');
await new Promise((r) => serverProc.once('exit', r));

catalog.cleanup();
