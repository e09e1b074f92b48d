/**
 * `npm run bench`: the REST API's hot paths against a bare Fastify route.
 *
 * Builds the full demo catalog (`--products N`, default 35,000; `--data-dir DIR` keeps and
 * reuses it), starts the real server (`shelf serve`, with its rate limits and response cache
 * as shipped) and a bare Fastify server (no auth, no database, a fixed JSON body as large as
 * a product response) as two child processes, then runs autocannon from this process against
 * each endpoint in turn: 50 connections, `--rounds N` rounds (default 3) of `--seconds N` each
 * (default 3), every endpoint once per round. Options take `--name value` or `--name=value`;
 * an unknown one stops the bench with the list it takes. `--ready-timeout S` (default 300)
 * bounds the wait for each server to answer: a loaded machine takes minutes to open the demo.
 * `--search-warm-up N` (default 15,000) searches warm the response cache before the rounds.
 * Paths rotate over every product, GTIN and many queries (each round goes on where the last one
 * stopped, so no round re-reads what an earlier one just cached), and requests rotate over 2,500
 * Enterprise keys (each limited to 1,000 a minute), so the numbers are neither one cached
 * row nor one key's limit. The bare routes are asked the same way (a new path and a key
 * header each time), so the client works alike for both.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { KeyStore } from '../src/access/index.js';
import { currentSnapshotPath, openReadOnly } from '../src/catalog/index.js';
import { benchArgs, intArg, parseBenchArgs, SERVER_BENCH_OPTIONS, serverBenchArgs } from './args.js';
import { benchCompression } from './compression.js';
import { demoCatalog } from './demo-catalog.js';
import { waitForServer } from './ready.js';

const ROOT = resolve(import.meta.dirname, '..');
const CONNECTIONS = 50;
const args = benchArgs((argv) => {
  const a = parseBenchArgs(
    'npm run bench --',
    {
      ...SERVER_BENCH_OPTIONS,
      rounds: { value: 'N' },
      seconds: { value: 'S' },
      'search-warm-up': { value: 'N' },
      // child mode: the bare routes' server on this port (started by the bench itself)
      bare: { value: 'PORT' },
    },
    argv,
  );
  return {
    ...serverBenchArgs(a),
    rounds: intArg('rounds', a.rounds, 3, 1),
    seconds: intArg('seconds', a.seconds, 3, 1),
    searchWarmUp: intArg('search-warm-up', a['search-warm-up'], 15_000, 1),
    bare: a.bare === undefined ? undefined : intArg('bare', a.bare, 0, 1),
  };
});
const SECONDS = args.seconds;
const ROUNDS = args.rounds;
const PRODUCTS = args.products;
const DATA_DIR = args.dataDir;
/** 1,000 requests a minute each: more than the whole bench sends in a minute at 40,000 req/s */
const KEYS = 2_500;

/** Child mode: the bare routes, answering fixed bodies (a product's, a search page's). */
async function serveBare(port: number, body: string, searchBody: string): Promise<void> {
  const app = Fastify({ logger: false });
  const payload = JSON.parse(body) as unknown;
  const searchPayload = JSON.parse(searchBody) as unknown;
  // any path under them: the bench requests them the way it requests the API (below)
  app.get('/bare/*', async () => payload);
  app.get('/bare-search', async () => searchPayload);
  await app.listen({ port, host: '127.0.0.1' });
  // the bench ends its children with SIGTERM: exiting through Node (not by the signal's default)
  // lets `--cpu-prof`, which the children inherit, write this one's profile too
  process.once('SIGTERM', () => process.exit(0));
  process.send?.('ready');
}

function startChild(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [...process.execArgv, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}

interface Result {
  name: string;
  /** the server's CPU time per answered request, µs (null where it cannot be read) */
  cpuUsPerRequest: number | null;
  /** the bench's own (autocannon's) CPU time per request, µs: the client shares the machine */
  clientUsPerRequest: number;
  /** requests answered */
  requests: number;
  /** how long the load ran, s */
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** The process serving each base URL, for its CPU time (Linux `/proc`). */
const serverPids = new Map<string, number>();

/**
 * CPU time (user + system) a process has used, ms; null where `/proc` is not readable.
 * Throughput on a small shared machine moves by a third between runs; CPU per request is
 * the steadier figure to compare changes by.
 */
function cpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of the whole line, in clock ticks (100 a second)
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** One endpoint's rounds as one row: throughput over all of them, the median round's latencies. */
function combine(rounds: Result[]): Result {
  const sum = (f: (r: Result) => number) => rounds.reduce((t, r) => t + f(r), 0);
  const median = (f: (r: Result) => number) =>
    rounds.map(f).sort((a, b) => a - b)[rounds.length >> 1] as number;
  const requests = sum((r) => r.requests);
  const seconds = sum((r) => r.seconds);
  const cpu = rounds.every((r) => r.cpuUsPerRequest !== null)
    ? sum((r) => (r.cpuUsPerRequest as number) * r.requests) / Math.max(1, requests)
    : null;
  return {
    name: rounds[0]?.name ?? '',
    cpuUsPerRequest: cpu,
    clientUsPerRequest: sum((r) => r.clientUsPerRequest * r.requests) / Math.max(1, requests),
    requests,
    seconds,
    rps: requests / seconds,
    p50: median((r) => r.p50),
    p99: median((r) => r.p99),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
  };
}

/** The paths of a run: a list taken in turn, or a function of the request number. */
type Paths = string[] | ((n: number) => string);

async function run(
  name: string,
  base: string,
  paths: Paths,
  keys: string[] | null,
  seconds = SECONDS,
  /** a fixed number of requests instead of a duration */
  amount?: number,
  /** sent with every request (bench/compression.ts: Accept-Encoding) */
  extraHeaders: Record<string, string> = {},
): Promise<Result> {
  let i = 0;
  const pathAt = typeof paths === 'function' ? paths : (n: number) => paths[n % paths.length] as string;
  const cpuBefore = cpuMs(serverPids.get(base));
  const clientBefore = process.cpuUsage();
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    ...(amount ? { amount } : { duration: seconds }),
    requests: [
      {
        setupRequest: (req) => {
          const n = i++;
          req.path = pathAt(n);
          if (keys) req.headers = { ...req.headers, 'x-api-key': keys[n % keys.length] as string };
          req.headers = { ...req.headers, ...extraHeaders };
          return req;
        },
      },
    ],
  });
  const cpuAfter = cpuMs(serverPids.get(base));
  const client = process.cpuUsage(clientBefore);
  return {
    name,
    cpuUsPerRequest:
      cpuBefore === null || cpuAfter === null || result.requests.total === 0
        ? null
        : ((cpuAfter - cpuBefore) * 1000) / result.requests.total,
    clientUsPerRequest: (client.user + client.system) / Math.max(1, result.requests.total),
    requests: result.requests.total,
    seconds: result.duration,
    rps: result.requests.total / result.duration,
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
    // the queries people type: product types, brands, and brand + type pairs the catalog has
    const pool = [
      ...(db.prepare('SELECT lower(name) FROM product_types').pluck().all() as string[]),
      ...(db
        .prepare(
          'SELECT lower(name) FROM brands b WHERE EXISTS (SELECT 1 FROM products p WHERE p.brand_id = b.id)',
        )
        .pluck()
        .all() as string[]),
      ...(db
        .prepare(
          `SELECT DISTINCT lower(b.name) || ' ' || lower(t.name) FROM products p
           JOIN brands b ON b.id = p.brand_id JOIN product_types t ON t.id = p.product_type_id`,
        )
        .pluck()
        .all() as string[]),
    ];
    db.close();
    const queries = zipfQueries(pool, 1_000_000);
    const apiPort = 40_000 + Math.floor(Math.random() * 10_000);
    const barePort = apiPort + 1;
    const api = `http://127.0.0.1:${apiPort}`;
    const bare = `http://127.0.0.1:${barePort}`;
    const uncachedPort = apiPort + 2;
    const uncached = `http://127.0.0.1:${uncachedPort}`;
    const serve = (port: number, env: Record<string, string> = {}) =>
      startChild(['src/cli/main.ts', 'serve'], {
        PORT: String(port),
        HOST: '127.0.0.1',
        SHELF_DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        NODE_ENV: 'production',
        ...env,
      });
    const apiServer = serve(apiPort);
    // the same server with its response cache off: what every search costs when it is new
    const uncachedServer = serve(uncachedPort, { SHELF_CACHE_MAX_ENTRIES: '0' });
    children.push(apiServer, uncachedServer);
    if (apiServer.pid) serverPids.set(api, apiServer.pid);
    if (uncachedServer.pid) serverPids.set(uncached, uncachedServer.pid);
    const headers = { 'x-api-key': keys[0] as string };
    await waitForServer(`${api}/v2/products/${ids[0]}`, apiServer, args.readyTimeout, headers);
    await waitForServer(`${uncached}/v2/products/${ids[0]}`, uncachedServer, args.readyTimeout, headers);
    // bare bodies as large as a median product response and a median first search page
    const median = async (paths: string[]) => {
      const bodies = await Promise.all(
        paths.map(async (p) => (await fetch(`${api}${p}`, { headers })).text()),
      );
      return bodies.sort((a, b) => a.length - b.length)[bodies.length >> 1] as string;
    };
    const sample = await median(ids.slice(0, 101).map((id) => `/v2/products/${id}`));
    const searchSample = await median(
      queries.slice(0, 21).map((q) => `/v2/products?q=${encodeURIComponent(q)}`),
    );
    const bareServer = startChild([import.meta.filename, '--bare', String(barePort)], {
      BENCH_BODY: sample,
      BENCH_SEARCH_BODY: searchSample,
    });
    children.push(bareServer);
    if (bareServer.pid) serverPids.set(bare, bareServer.pid);
    await waitForServer(`${bare}/bare/up`, bareServer, args.readyTimeout);

    const enc = encodeURIComponent;
    console.log(
      `autocannon: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per endpoint (p50 and p99 of the median round); bare bodies ${sample.length} bytes (product), ${searchSample.length} bytes (search page)\n`,
    );
    // warm-up: the first requests on a snapshot load its caches (reference data, search
    // vectors, product documents kept in memory): every product is read once, so the rounds
    // measure a server in its steady state rather than one still filling its caches
    await run(
      'warm-up',
      api,
      ids.map((id) => `/v2/products/${id}`),
      keys,
      0,
      ids.length,
    );
    // searches follow a Zipf law over the pool, as search logs do: warm the response cache
    // with the head of the sequence, then measure on where it left off
    let at = 0;
    const searchPath = (n: number) => `/v2/products?q=${enc(queries[n % queries.length] as string)}`;
    const seen = new Set<string>();
    // a fixed number of searches, not a duration: how far the sequence has gone decides how
    // many measured searches are new to the cache (2 % after 15,000, 12 % after a 3-second
    // warm-up on a loaded machine that managed 2,000), and that must not depend on the machine
    const warm = await run('warm-up', api, (n) => searchPath(at + n), keys, 0, args.searchWarmUp);
    for (let n = 0; n < warm.requests; n++) seen.add(queries[(at + n) % queries.length] as string);
    at += warm.requests;
    await run('warm-up', uncached, searchPath, keys, 1);
    // the bare routes are asked exactly as the API is, a new path and an API key header per
    // request, so that the client's share of the work (autocannon rebuilds each request) is
    // the same on both sides of every ratio and the ratio compares the servers alone
    let misses = 0;
    const endpoints: { name: string; base: string; paths: Paths; after?: (r: Result) => void }[] = [
      { name: 'bare Fastify route', base: bare, paths: ids.map((id) => `/bare/${id}`) },
      {
        name: 'bare route, search-page body',
        base: bare,
        paths: (n) => `/bare-search?q=${enc(queries[(n + 104_729) % queries.length] as string)}`,
      },
      { name: 'GET /v2/products/{id}', base: api, paths: ids.map((id) => `/v2/products/${id}`) },
      {
        name: 'GET /v2/products?q=… (Zipf)',
        base: api,
        paths: (n) => searchPath(at + n),
        // each round goes on along the Zipf sequence where the last one stopped
        after: (r) => {
          for (let n = 0; n < r.requests; n++) {
            const q = queries[(at + n) % queries.length] as string;
            if (!seen.has(q)) misses++;
            seen.add(q);
          }
          at += r.requests;
        },
      },
      { name: 'GET /v2/products?q=… (cache off)', base: uncached, paths: (n) => searchPath(n + 7919) },
      {
        name: 'GET /v2/products/barcode/{gtin}',
        base: api,
        paths: gtins.map((g) => `/v2/products/barcode/${g}`),
      },
      {
        name: 'GET /v2/products/{id}/prices',
        base: api,
        paths: ids.map((id) => `/v2/products/${id}/prices`),
      },
    ];
    // every endpoint runs once per round, the bare routes among them: this machine's speed
    // drifts by a third over a minute, and interleaving spreads a slow spell over all rows
    // instead of landing it on one side of a ratio
    // a list of paths is continued where the last round stopped: restarted, the barcode and
    // price rounds re-read the items the first round had just read (and cached), and the
    // second and third rounds measured the cache more than the reads
    const rounds = endpoints.map((): Result[] => []);
    const reached = endpoints.map(() => 0);
    for (let round = 0; round < ROUNDS; round++)
      for (const [i, e] of endpoints.entries()) {
        const from = reached[i] as number;
        const paths = e.paths;
        const r = await run(
          e.name,
          e.base,
          typeof paths === 'function' ? paths : (n) => paths[(from + n) % paths.length] as string,
          keys,
        );
        reached[i] = from + r.requests;
        e.after?.(r);
        rounds[i]?.push(r);
      }
    const results = rounds.map(combine);
    const byRound = rounds.map((rs) => rs.map((r) => r.rps.toFixed(0)).join(' / '));
    const [bareResult, bareSearch, byId, search] = results as [Result, Result, Result, Result];

    const bareRps = bareResult.rps;
    const pad = (s: string, n: number) => s.padEnd(n);
    // a search page is about 20 products: its bytes alone cap it below the one-product bare
    // route, so search is also shown against a bare route with a search page's body
    const isSearch = (r: Result) => r.name.includes('?q=');
    console.log(
      `${pad('endpoint', 34)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('vs bare', 9)}${pad('vs same-size bare', 19)}${pad('CPU µs/req', 12)}${pad('client µs/req', 15)}${pad('non-2xx', 9)}req/s by round`,
    );
    for (const [i, r] of results.entries())
      console.log(
        `${pad(r.name, 34)}${pad(r.rps.toFixed(0), 10)}${pad(String(r.p50), 9)}${pad(String(r.p99), 9)}${pad((r.rps / bareRps).toFixed(2), 9)}${pad(isSearch(r) ? (r.rps / bareSearch.rps).toFixed(2) : '', 19)}${pad(r.cpuUsPerRequest === null ? '–' : r.cpuUsPerRequest.toFixed(0), 12)}${pad(r.clientUsPerRequest.toFixed(0), 15)}${pad(String(r.non2xx + r.errors), 9)}${byRound[i]}`,
      );
    console.log(
      `\nsearch queries: a pool of ${pool.length}; ${misses} of ${search.requests} measured searches (${((100 * misses) / Math.max(1, search.requests)).toFixed(1)}%) were new to the response cache`,
    );
    const bareCpu = bareResult.cpuUsPerRequest;
    if (bareCpu && byId.cpuUsPerRequest)
      console.log(
        `server CPU per request: bare route ${bareCpu.toFixed(0)} µs, product by id ${byId.cpuUsPerRequest.toFixed(0)} µs (by id could reach ${(bareCpu / byId.cpuUsPerRequest).toFixed(2)} of bare where the server, not the client, is the limit)`,
      );
    // the cache-off row shows the cost of a new search; the targets apply to the server as shipped
    const shipped = results.filter((r) => !r.name.includes('cache off') && !r.name.startsWith('bare'));
    // by server CPU as well: throughput ratios swing with what else the machine runs, the
    // CPU a server spends per answer much less (the client's share is printed beside it)
    const uncachedSearch = results.find((r) => r.name.includes('cache off'));
    const cpuRatio = (base: Result, r: Result | undefined) =>
      base.cpuUsPerRequest && r?.cpuUsPerRequest
        ? (base.cpuUsPerRequest / r.cpuUsPerRequest).toFixed(2)
        : '–';
    console.log(
      `ratios by server CPU per request: by id ${cpuRatio(bareResult, byId)} of bare; search ${cpuRatio(bareSearch, search)} (cache off ${cpuRatio(bareSearch, uncachedSearch)}) of the same-size bare route`,
    );
    // the targets of issue 20 (by id ≥ 0.6 of the bare route, search ≥ 1.0 of a bare route
    // answering a body as large), and the floors this bench had before them
    const checks = [
      [`product by id ≥ 0.6 of bare`, byId.rps / bareRps >= 0.6],
      [`keyword search ≥ 0.3 of bare`, search.rps / bareRps >= 0.3],
      [
        `keyword search ≥ 1.0 of the bare route with a search page's body`,
        search.rps / bareSearch.rps >= 1.0,
      ],
      [`p99 < 20 ms on every endpoint as shipped`, shipped.every((r) => r.p99 < 20)],
      [`no non-2xx answers`, results.every((r) => r.non2xx + r.errors === 0)],
    ] as const;
    console.log('');
    for (const [label, pass] of checks) console.log(`${pass ? 'PASS' : 'FAIL'}  ${label}`);

    // the most asked distinct queries, 20 products a page
    const heads = [...new Set(queries.slice(0, 20_000))].slice(0, 300);
    await benchCompression({
      cached: api,
      uncached,
      paths: heads.map((q) => `/v2/products?q=${enc(q)}&limit=20`),
      key: keys[0] as string,
      rounds: ROUNDS,
      load: (name, base, paths, extra) => run(name, base, paths, keys, SECONDS, undefined, extra),
    });
  } finally {
    for (const c of children) c.kill();
    if (!DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  }
}

if (args.bare !== undefined)
  await serveBare(args.bare, process.env.BENCH_BODY ?? '{}', process.env.BENCH_SEARCH_BODY ?? '{}');
else await main();

/**
 * `length` queries drawn from `pool` with Zipf frequencies (s = 1) over a shuffled rank
 * order, seeded so that every run sends the same sequence.
 */
function zipfQueries(pool: readonly string[], length: number): string[] {
  let seed = 0x5eed;
  const random = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const ranked = [...pool];
  for (let i = ranked.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ranked[i], ranked[j]] = [ranked[j] as string, ranked[i] as string];
  }
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= ranked.length; rank++) {
    total += 1 / rank;
    cumulative.push(total);
  }
  return Array.from({ length }, () => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return ranked[lo] as string;
  });
}
