/**
 * The compression section of `npm run bench` (called by bench/api.ts, which builds the
 * catalog and starts the servers): bytes of a search page (20 products) as sent and req/s
 * with identity, gzip and brotli, from the response cache and with the cache off, in one run;
 * then the time and size of each brotli quality and of gzip on one search page, which is how
 * encoded-body.ts chose its levels.
 */
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { BROTLI_QUALITY, GZIP_LEVEL } from '../src/api/plugins/encoded-body.js';

const CODINGS = ['identity', 'gzip', 'br'] as const;

/** What bench/api.ts's `run` measured for one row. */
export interface LoadResult {
  rps: number;
  /** server CPU time per request, µs (null where /proc cannot be read) */
  cpuUsPerRequest: number | null;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface CompressionBench {
  /** the server as shipped (response cache on) and the same server with its cache off */
  cached: string;
  uncached: string;
  /** search paths (`/v2/products?q=…`, 20 products a page) */
  paths: string[];
  key: string;
  rounds: number;
  /** runs load against `base` over `paths` with these request headers (bench/api.ts's `run`) */
  load: (name: string, base: string, paths: string[], headers: Record<string, string>) => Promise<LoadResult>;
}

/** One GET as the bytes were sent (no decoding): fetch would ask for compression itself. */
function wireBytes(base: string, path: string, headers: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] as number;

/** Server CPU per request over the rounds, µs, or – where unknown. */
const cpu = (rs: LoadResult[]): string =>
  rs.every((r) => r.cpuUsPerRequest !== null)
    ? median(rs.map((r) => r.cpuUsPerRequest as number)).toFixed(0)
    : '–';

export async function benchCompression(b: CompressionBench): Promise<void> {
  const pad = (s: string, n: number) => s.padEnd(n);
  // pages of 20 products only (a query with fewer matches is not a search page), at most 50
  const paths: string[] = [];
  const identitySizes: number[] = [];
  for (const path of b.paths) {
    if (paths.length === 50) break;
    const body = await wireBytes(b.cached, path, { 'x-api-key': b.key });
    if ((JSON.parse(body.toString()) as { data?: unknown[] }).data?.length !== 20) continue;
    paths.push(path);
    identitySizes.push(body.length);
  }
  if (paths.length === 0) throw new Error('no query of the catalog fills a page of 20 products');
  const sample = await wireBytes(b.cached, paths[identitySizes.indexOf(median(identitySizes))] as string, {
    'x-api-key': b.key,
  });
  // bytes as sent, per coding: the median over the pages (each asked once more per coding)
  const bytes = new Map<string, number>([['identity', median(identitySizes)]]);
  for (const coding of ['gzip', 'br']) {
    const sizes: number[] = [];
    for (const path of paths)
      sizes.push((await wireBytes(b.cached, path, { 'x-api-key': b.key, 'accept-encoding': coding })).length);
    bytes.set(coding, median(sizes));
  }
  // every row once per round, interleaved, as in bench/api.ts (the machine's speed drifts)
  const rows = CODINGS.flatMap((coding) => [
    { coding, cache: 'cached', base: b.cached },
    { coding, cache: 'cache off', base: b.uncached },
  ]);
  const results = rows.map((): LoadResult[] => []);
  for (let round = 0; round < b.rounds; round++)
    for (const [i, row] of rows.entries())
      results[i]?.push(
        await b.load(`search page, ${row.coding}, ${row.cache}`, row.base, paths, {
          'accept-encoding': row.coding,
        }),
      );
  const identity = bytes.get('identity') as number;
  console.log(
    `\ncompression: a search page of 20 products (median of ${paths.length} queries), ${b.rounds} round(s) per row`,
  );
  console.log(
    `${pad('coding', 10)}${pad('cache', 11)}${pad('bytes/page', 12)}${pad('of identity', 13)}${pad('req/s', 9)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('CPU µs/req', 12)}non-2xx`,
  );
  for (const [i, row] of rows.entries()) {
    const rs = results[i] as LoadResult[];
    const size = bytes.get(row.coding) as number;
    console.log(
      `${pad(row.coding, 10)}${pad(row.cache, 11)}${pad(String(size), 12)}${pad(`${((100 * size) / identity).toFixed(1)}%`, 13)}${pad(median(rs.map((r) => r.rps)).toFixed(0), 9)}${pad(String(median(rs.map((r) => r.p50))), 8)}${pad(String(median(rs.map((r) => r.p99))), 8)}${pad(cpu(rs), 12)}${rs.reduce((t, r) => t + r.non2xx + r.errors, 0)}`,
    );
  }
  // the levels: time and size of compressing the median page, in this process
  console.log(`\ncompression levels on the median search page, ${sample.length} bytes (µs: median of 30):`);
  const levels: [string, () => Buffer][] = [
    ...[1, 3, 4, 5, 6, 9].map(
      (q) =>
        [
          `br q${q}${q === BROTLI_QUALITY ? ' (used)' : ''}`,
          () => brotliCompressSync(sample, { params: { [constants.BROTLI_PARAM_QUALITY]: q } }),
        ] as [string, () => Buffer],
    ),
    ...[1, 6, 9].map(
      (level) =>
        [`gzip ${level}${level === GZIP_LEVEL ? ' (used)' : ''}`, () => gzipSync(sample, { level })] as [
          string,
          () => Buffer,
        ],
    ),
  ];
  for (const [name, compress] of levels) {
    const times: number[] = [];
    let size = 0;
    for (let i = 0; i < 30; i++) {
      const t = performance.now();
      size = compress().length;
      times.push((performance.now() - t) * 1000);
    }
    console.log(`${pad(name, 16)}${pad(`${size} bytes`, 14)}${median(times).toFixed(0)} µs`);
  }
}
