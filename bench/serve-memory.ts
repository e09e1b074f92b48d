/**
 * Memory of a serving process under mixed load: starts `shelf serve` on a catalog (the full
 * demo by default, built once into `--data-dir=DIR` and reused), drives 60 s of mixed
 * requests with autocannon — keyword search (GET ?q=), semantic and hybrid search (POST),
 * product by id, barcode, price history and product lists — and reports the server's RSS
 * at start, after the first semantic search and every 10 s (anonymous memory and mapped
 * snapshot pages apart: SQLite maps the snapshot file, and its pages count towards RSS
 * while the kernel keeps them). Not a test.
 *
 *   npm run bench:memory -- --data-dir .shelf-bench             full demo, 60 s
 *   npm run bench:memory -- --data-dir DIR --seconds 30 --products 5000
 *   npm run bench:memory -- --heap-mb 0                          V8's default heap limit
 *   npm run bench:memory -- --fill                               caches full first (worst case)
 *
 * `--fill` first reads every product once (the document cache fills to its budget) and asks
 * every type and brand name as a search, 20 and 50 a page, (the response cache fills to its budget), then runs the same
 * mixed load: on a loaded machine a minute of load alone fills neither, so without it the
 * last figure is not yet the plateau.
 *
 * Options take `--name value` or `--name=value`; an unknown one stops the bench.
 * `--ready-timeout S` (default 300) bounds the wait for the server to answer.
 *
 * The server runs with `--max-old-space-size=256` (`--heap-mb`), as docs/operations.md
 * advises: with V8's default limit (about 2 GB here) the heap grows with garbage it has not
 * yet collected, by 35–40 MB every 10 s of this load, whatever the caches hold.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { KeyStore } from '../src/access/index.js';
import { currentSnapshotPath, openReadOnly } from '../src/catalog/index.js';
import { benchArgs, intArg, parseBenchArgs, SERVER_BENCH_OPTIONS, serverBenchArgs } from './args.js';
import { demoCatalog } from './demo-catalog.js';
import { waitForServer } from './ready.js';

const args = benchArgs((argv) => {
  const a = parseBenchArgs(
    'npm run bench:memory --',
    {
      ...SERVER_BENCH_OPTIONS,
      seconds: { value: 'S' },
      'heap-mb': { value: 'MB' },
      fill: { flag: true },
    },
    argv,
  );
  return {
    ...serverBenchArgs(a),
    fill: a.fill,
    seconds: intArg('seconds', a.seconds, 60, 1),
    heapMb: intArg('heap-mb', a['heap-mb'], 256),
  };
});
const ROOT = resolve(import.meta.dirname, '..');
const SECONDS = args.seconds;
const PRODUCTS = args.products;
const DATA_DIR = resolve(args.dataDir ?? '.shelf-bench');
const CONNECTIONS = 20;
const HEAP_MB = args.heapMb;

/** RSS of a process, MB: total, anonymous (heap, caches) and file-backed (the mapped snapshot). */
function rss(pid: number): { total: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  const mb = (n: number) => Math.round(n / 1024);
  return { total: mb(kb('VmRSS')), anon: mb(kb('RssAnon')), file: mb(kb('RssFile') + kb('RssShmem')) };
}
const show = (r: ReturnType<typeof rss>) => `${r.total} MB (anonymous ${r.anon}, mapped files ${r.file})`;

await demoCatalog(DATA_DIR, PRODUCTS, (line) => console.log(line));
const store = new KeyStore(DATA_DIR);
const keys = Array.from(
  { length: 200 },
  (_, n) => store.create({ plan: 'enterprise', type: 'secret', env: 'test', name: `memory-${n}` }).key,
);
store.close();

const db = openReadOnly(currentSnapshotPath(DATA_DIR) as string);
const ids = db
  .prepare('SELECT id FROM products WHERE data_tier < 3 ORDER BY random()')
  .pluck()
  .all() as string[];
const gtins = db
  .prepare('SELECT gtin FROM products WHERE gtin IS NOT NULL ORDER BY random()')
  .pluck()
  .all() as string[];
const words = [
  ...(db.prepare('SELECT lower(name) FROM product_types').pluck().all() as string[]),
  ...(db.prepare('SELECT lower(name) FROM brands').pluck().all() as string[]),
];
db.close();
const needs = [
  'quiet',
  'cheap',
  'small',
  'for a family',
  'for travel',
  'energy efficient',
  'under 300 dollars',
];

const port = 40_000 + Math.floor(Math.random() * 10_000);
const base = `http://127.0.0.1:${port}`;
const heap = HEAP_MB > 0 ? [`--max-old-space-size=${HEAP_MB}`] : [];
const server: ChildProcess = spawn(
  process.execPath,
  [...heap, ...process.execArgv, 'src/cli/main.ts', 'serve'],
  {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SHELF_DATA_DIR: DATA_DIR,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
      // one malloc arena per core instead of eight: docs/operations.md advises it (with the
      // heap limit) for a replica; the caches' memory otherwise spreads over idle arenas
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
const pid = server.pid as number;
try {
  const headers = { 'x-api-key': keys[0] as string, 'content-type': 'application/json' };
  await waitForServer(`${base}/v2/products?limit=1`, server, args.readyTimeout, headers);
  console.log(
    `heap limit: ${HEAP_MB > 0 ? `${HEAP_MB} MB` : "V8's default"}, MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? '2'}; start: ${show(rss(pid))}`,
  );
  await fetch(`${base}/v2/products/semantic-search`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query: `${needs[0]} ${words[0]}` }),
  });
  console.log(`after the first semantic search: ${show(rss(pid))}`);
  if (args.fill) {
    const fill = async (paths: string[]) => {
      let k = 0;
      await autocannon({
        url: base,
        connections: CONNECTIONS,
        amount: paths.length,
        requests: [
          {
            setupRequest: (req) => {
              const i = k++;
              // keys in turn: one key's 1,000 a minute would refuse most of the fill
              const key = keys[i % keys.length] as string;
              return { ...req, path: paths[i % paths.length], headers: { ...req.headers, 'x-api-key': key } };
            },
          },
        ],
      });
    };
    let started = Date.now();
    await fill(ids.map((id) => `/v2/products/${id}`));
    console.log(
      `after reading all ${ids.length} products (${((Date.now() - started) / 1000).toFixed(0)} s): ${show(rss(pid))}`,
    );
    started = Date.now();
    const searches = [20, 50].flatMap((limit) =>
      words.map((w) => `/v2/products?q=${encodeURIComponent(w)}&limit=${limit}`),
    );
    await fill(searches);
    console.log(
      `after ${searches.length} distinct searches (${((Date.now() - started) / 1000).toFixed(0)} s): ${show(rss(pid))}`,
    );
  }

  // the request mix: each request picks its kind and its values from its number
  let n = 0;
  const pick = <T>(list: readonly T[], i: number) => list[i % list.length] as T;
  const kinds: ((i: number) => { method: 'GET' | 'POST'; path: string; body?: string })[] = [
    (i) => ({ method: 'GET', path: `/v2/products/${pick(ids, i * 7919)}` }),
    (i) => ({ method: 'GET', path: `/v2/products/${pick(ids, i * 104_729)}` }),
    (i) => ({
      method: 'GET',
      path: `/v2/products?q=${encodeURIComponent(`${pick(words, i)} ${i % 5 === 0 ? i : ''}`.trim())}`,
    }),
    (i) => ({
      method: 'POST',
      path: '/v2/products/semantic-search',
      body: JSON.stringify({ query: `${pick(needs, i)} ${pick(words, i * 31)}` }),
    }),
    (i) => ({
      method: 'POST',
      path: '/v2/products/search',
      body: JSON.stringify({
        query: `${pick(words, i * 17)} ${pick(needs, i)}`,
        mode: 'hybrid',
        facets: ['brand', 'price'],
      }),
    }),
    (i) => ({ method: 'GET', path: `/v2/products/barcode/${pick(gtins, i * 13)}` }),
    (i) => ({ method: 'GET', path: `/v2/products/${pick(ids, i * 3)}/prices` }),
    (i) => ({ method: 'GET', path: `/v2/products?sort=price&limit=50&include_offers=${i % 2 === 0}` }),
  ];
  const samples: string[] = [];
  const timer = setInterval(() => samples.push(`${samples.length * 10 + 10} s: ${show(rss(pid))}`), 10_000);
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        setupRequest: (req) => {
          const i = n++;
          const r = pick(kinds, i)(Math.floor(i / kinds.length));
          return {
            ...req,
            method: r.method,
            path: r.path,
            body: r.body,
            headers: { ...req.headers, ...headers, 'x-api-key': pick(keys, i) },
          };
        },
      },
    ],
  });
  clearInterval(timer);
  for (const s of samples) console.log(s);
  const end = rss(pid);
  console.log(
    `\n${result.requests.total} requests in ${SECONDS} s (${result.non2xx} non-2xx, ${result.errors} errors), ${CONNECTIONS} connections`,
  );
  console.log(`after ${SECONDS} s of mixed load: ${show(end)}`);
  console.log(`${end.total <= 512 ? 'PASS' : 'FAIL'}  RSS ≤ 512 MB after ${SECONDS} s of mixed load`);
} finally {
  server.kill();
}
