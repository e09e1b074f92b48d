/**
 * `npm run bench`: the REST API's hot paths against a bare Fastify route.
 *
 * Builds the full demo catalog (`--products=N`, default 35,000; `--data-dir=DIR` keeps and
 * reuses it), starts the real server (`shelf serve`, with its rate limits and response cache
 * as shipped) and a bare Fastify server (no auth, no database, a fixed JSON body as large as
 * a product response) as two child processes, then runs autocannon from this process against
 * each endpoint in turn: 50 connections, `--seconds=N` each (default 5). Paths rotate over
 * every product, GTIN and many queries, and requests rotate over 200 Enterprise keys (each
 * limited to 1,000 a minute), so the numbers are neither one cached row nor one key's limit.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { KeyStore } from '../src/access/index.js';
import { currentSnapshotPath, openReadOnly } from '../src/catalog/index.js';
import { demoCatalog } from './demo-catalog.js';

const ROOT = resolve(import.meta.dirname, '..');
const CONNECTIONS = 50;
const SECONDS = Number(process.argv.find((a) => a.startsWith('--seconds='))?.slice(10) ?? 5);
const PRODUCTS = Number(process.argv.find((a) => a.startsWith('--products='))?.slice(11) ?? 35_000);
const DATA_DIR = process.argv.find((a) => a.startsWith('--data-dir='))?.slice(11);
const KEYS = 200;

/** Child mode: the bare route, answering a fixed body. */
async function serveBare(port: number, body: string): Promise<void> {
  const app = Fastify({ logger: false });
  const payload = JSON.parse(body) as unknown;
  app.get('/bare', async () => payload);
  await app.listen({ port, host: '127.0.0.1' });
  process.send?.('ready');
}

function startChild(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [...process.execArgv, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}

async function waitFor(url: string, headers: Record<string, string> = {}): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(url, { headers });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function run(
  name: string,
  base: string,
  paths: string[],
  keys: string[] | null,
  seconds = SECONDS,
): Promise<Result> {
  let i = 0;
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        setupRequest: (req) => {
          const n = i++;
          req.path = paths[n % paths.length] as string;
          if (keys) req.headers = { ...req.headers, 'x-api-key': keys[n % keys.length] as string };
          return req;
        },
      },
    ],
  });
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function main(): Promise<void> {
  const dataDir = DATA_DIR ?? mkdtempSync(join(tmpdir(), 'shelf-bench-'));
  const children: ChildProcess[] = [];
  try {
    const started = Date.now();
    await demoCatalog(dataDir, PRODUCTS, (line) => console.log(line));
    console.log(`demo catalog ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const store = new KeyStore(dataDir);
    const keys = Array.from(
      { length: KEYS },
      (_, n) => store.create({ plan: 'enterprise', type: 'secret', env: 'test', name: `bench-${n}` }).key,
    );
    store.close();

    const db = openReadOnly(currentSnapshotPath(dataDir) as string);
    const ids = (
      db.prepare('SELECT id FROM products WHERE data_tier < 3 ORDER BY random()').all() as {
        id: string;
      }[]
    ).map((r) => r.id);
    const gtins = (
      db.prepare('SELECT gtin FROM products WHERE gtin IS NOT NULL ORDER BY random()').all() as {
        gtin: string;
      }[]
    ).map((r) => r.gtin);
    const words = (
      db.prepare('SELECT name FROM product_types ORDER BY random() LIMIT 50').all() as { name: string }[]
    ).map((r) => r.name.toLowerCase());
    const brands = (
      db
        .prepare(
          'SELECT b.name FROM brands b WHERE EXISTS (SELECT 1 FROM products p WHERE p.brand_id = b.id) LIMIT 50',
        )
        .all() as {
        name: string;
      }[]
    ).map((r) => r.name.toLowerCase());
    db.close();
    const queries = words.map((w, i) => (i % 2 ? `${brands[i % brands.length]} ${w}` : w));

    const apiPort = 40_000 + Math.floor(Math.random() * 10_000);
    const barePort = apiPort + 1;
    const api = `http://127.0.0.1:${apiPort}`;
    const bare = `http://127.0.0.1:${barePort}`;
    children.push(
      startChild(['src/cli/main.ts', 'serve'], {
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        SHELF_DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        NODE_ENV: 'production',
      }),
    );
    const headers = { 'x-api-key': keys[0] as string };
    await waitFor(`${api}/v2/products/${ids[0]}`, headers);
    const sample = await (await fetch(`${api}/v2/products/${ids[0]}`, { headers })).text();
    children.push(startChild([import.meta.filename, `--bare=${barePort}`], { BENCH_BODY: sample }));
    await waitFor(`${bare}/bare`);

    const enc = encodeURIComponent;
    console.log(
      `autocannon: ${CONNECTIONS} connections, ${SECONDS} s per endpoint; bare body ${sample.length} bytes\n`,
    );
    // warm-up: the first requests on a snapshot load its caches (reference data, search vectors)
    await run(
      'warm-up',
      api,
      ids.slice(0, 2000).map((id) => `/v2/products/${id}`),
      keys,
      2,
    );
    await run(
      'warm-up',
      api,
      queries.map((q) => `/v2/products?q=${enc(q)}`),
      keys,
      1,
    );
    const results: Result[] = [];
    results.push(await run('bare Fastify route', bare, ['/bare'], null));
    results.push(
      await run(
        'GET /v2/products/{id}',
        api,
        ids.map((id) => `/v2/products/${id}`),
        keys,
      ),
    );
    results.push(
      await run(
        'GET /v2/products?q=…',
        api,
        queries.map((q) => `/v2/products?q=${enc(q)}`),
        keys,
      ),
    );
    results.push(
      await run(
        'GET /v2/products/barcode/{gtin}',
        api,
        gtins.map((g) => `/v2/products/barcode/${g}`),
        keys,
      ),
    );
    results.push(
      await run(
        'GET /v2/products/{id}/prices',
        api,
        ids.map((id) => `/v2/products/${id}/prices`),
        keys,
      ),
    );

    const bareRps = results[0]?.rps ?? 1;
    const pad = (s: string, n: number) => s.padEnd(n);
    console.log(
      `${pad('endpoint', 34)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('vs bare', 9)}non-2xx`,
    );
    for (const r of results)
      console.log(
        `${pad(r.name, 34)}${pad(r.rps.toFixed(0), 10)}${pad(String(r.p50), 9)}${pad(String(r.p99), 9)}${pad((r.rps / bareRps).toFixed(2), 9)}${r.non2xx + r.errors}`,
      );
    const byId = results[1] as Result;
    const search = results[2] as Result;
    const checks = [
      [`product by id ≥ 0.6 of bare`, byId.rps / bareRps >= 0.6],
      [`keyword search ≥ 0.3 of bare`, search.rps / bareRps >= 0.3],
      [`p99 < 20 ms on every endpoint`, results.every((r) => r.p99 < 20)],
      [`no non-2xx answers`, results.every((r) => r.non2xx + r.errors === 0)],
    ] as const;
    console.log('');
    for (const [label, pass] of checks) console.log(`${pass ? 'PASS' : 'FAIL'}  ${label}`);
  } finally {
    for (const c of children) c.kill();
    if (!DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  }
}

const bareArg = process.argv.find((a) => a.startsWith('--bare='));
if (bareArg) await serveBare(Number(bareArg.slice(7)), process.env.BENCH_BODY ?? '{}');
else await main();
