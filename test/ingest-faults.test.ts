import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/api/index.js';
import { catalogDir, currentSnapshotPath, listSnapshots, openReadOnly } from '../src/catalog/index.js';
import type { FeedSource } from '../src/ingest/index.js';
import { createKey, startTestServer } from './helpers/access-server.js';
import { offersOf, published, rewriteTsv, type SmallDemo, smallDemo } from './helpers/demo-data.js';
import { startLoad } from './helpers/load.js';

/**
 * The fault suite of issue 18: each way an ingest can go wrong, run against a live server
 * under a bounded loopback load (~200 requests/s from 6 clients). Every ingest runs as the
 * `shelf` CLI in its own process, as in production, so the server keeps serving meanwhile.
 * After each case: no failed request, no lost product, and the catalog the case should leave.
 */
const ROOT = resolve(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ingest faults under load', () => {
  let demo: SmallDemo;
  let dataDir: string;
  let server: RunningServer;
  let keys: string[];
  let turn = 0;
  /** keys in turn: the load and the checks never meet a key's per-minute limit */
  const nextKey = () => keys[turn++ % keys.length]!;
  let a: FeedSource;
  let b: FeedSource;

  const productIds = () =>
    published(dataDir, (db) => db.prepare('SELECT id FROM products').pluck().all() as string[]);
  /** the price the server serves for one retailer's offer of a product */
  const priceOf = async (offer: { retailer: string; product_id: string }) => {
    const response = await fetch(
      new URL(`/v2/products/${offer.product_id}?include_offers=true`, server.url),
      {
        headers: { 'x-api-key': nextKey() },
      },
    );
    const body = (await response.json()) as {
      data: { offers: { retailer_slug: string; price: number | null }[] };
    };
    return body.data.offers.find((o) => o.retailer_slug === offer.retailer)?.price ?? null;
  };

  /** Runs `action` under load; asserts no failed request and that every product of before is still served. */
  async function underLoad<T>(action: () => Promise<T>): Promise<T> {
    const ids = productIds();
    const sample = ids.slice(0, 60);
    const paths = [
      '/v2/products?limit=10',
      '/v2/products?q=washer&limit=5',
      '/v2/retailers',
      ...sample.map((id) => `/v2/products/${id}`),
    ];
    const load = startLoad(server.url, keys, (i) => paths[i % paths.length]!);
    while (load.requests() < 20) await sleep(10);
    const result = await action();
    const at = load.requests();
    // keep the load on past the swap the action may have caused
    await sleep(1200);
    while (load.requests() < at + 20) await sleep(10);
    const { requests, failures } = await load.stop();
    expect(failures.slice(0, 5)).toEqual([]);
    expect(requests).toBeGreaterThan(40);
    // no lost product: every id served before is served now
    const lost: string[] = [];
    for (let i = 0; i < ids.length; i += 16)
      await Promise.all(
        ids.slice(i, i + 16).map(async (id) => {
          const r = await fetch(new URL(`/v2/products/${id}`, server.url), {
            headers: { 'x-api-key': nextKey() },
          });
          const text = await r.text();
          if (r.status !== 200) lost.push(`${id}: ${r.status} ${text.slice(0, 300)}`);
        }),
      );
    expect(lost.slice(0, 3)).toEqual([]);
    return result;
  }

  /** runs the `shelf` CLI in a child process (asynchronously: the server in this process keeps serving) */
  const cli = (...args: string[]) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
        cwd: ROOT,
        env: { ...process.env, SHELF_DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => {
        stdout += d;
      });
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      child.once('close', (status) => done({ status, stdout, stderr }));
    });

  beforeAll(async () => {
    demo = await smallDemo(400, 3);
    dataDir = demo.clone();
    const tsv = demo.feeds.filter((f) => f.path.endsWith('.tsv'));
    [a, b] = [tsv[0]!, tsv[1]!];
    server = await startTestServer(dataDir);
    // enough enterprise keys that the load never meets a per-minute limit
    keys = Array.from({ length: 64 }, () => createKey(dataDir, { plan: 'enterprise', env: 'test' }).key);
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    demo?.cleanup();
  });

  it("a run with one retailer's feed changes that retailer only", async () => {
    const before = offersOf(dataDir);
    const path = join(demo.root, 'fault-a.tsv');
    rewriteTsv(a.path, path, (c) => ({
      ...c,
      price: c.price?.replace(/^[\d.]+/, (p) => (Number(p) + 5).toFixed(2)) ?? '',
    }));
    const run = await underLoad(() => cli('ingest', `${a.retailer}=${path}`, '--day', '2026-11-21'));
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Published \d+ products/m);
    const after = offersOf(dataDir);
    expect(after.filter((o) => o.retailer !== a.retailer)).toEqual(
      before.filter((o) => o.retailer !== a.retailer),
    );
    expect(after.filter((o) => o.retailer === a.retailer).map((o) => o.id)).toEqual(
      before.filter((o) => o.retailer === a.retailer).map((o) => o.id),
    );
    // the server serves the new price
    const offer = after.find((o) => o.retailer === a.retailer && o.price !== null)!;
    expect(await priceOf(offer)).toBe(offer.price);
  }, 120_000);

  it('a three-row feed and a blank-price feed are held back (exit 1, the catalog unchanged)', async () => {
    const current = currentSnapshotPath(dataDir);
    const before = offersOf(dataDir);
    const three = join(demo.root, 'fault-three.tsv');
    rewriteTsv(a.path, three, (c, i) => (i < 3 ? c : null));
    const blank = join(demo.root, 'fault-blank.tsv');
    rewriteTsv(b.path, blank, (c) => ({ ...c, price: '', sale_price: '' }));
    const run = await underLoad(async () =>
      cli('ingest', `${a.retailer}=${three}`, `${b.retailer}=${blank}`, '--day', '2026-11-22'),
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`HELD BACK ${a.retailer}: 3 accepted rows against`);
    expect(run.stderr).toMatch(
      new RegExp(`HELD BACK ${b.retailer}: (\\d+) of \\1 accepted rows have no usable price`),
    );
    expect(run.stderr).toContain(
      'Nothing was published: every feed that could be read was held back by a guard.',
    );
    expect(currentSnapshotPath(dataDir)).toBe(current);
    expect(offersOf(dataDir)).toEqual(before);
  }, 120_000);

  it('a run that would hide more than 30 % of the visible products is not published', async () => {
    const current = currentSnapshotPath(dataDir);
    const remove = demo.feeds.map((f) => f.retailer).slice(0, 10);
    const run = await underLoad(() => cli('retailer', 'remove', ...remove));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^Nothing was published: visible products would drop from \d+ to \d+ /m);
    expect(run.stderr).toContain('re-run with --force');
    expect(currentSnapshotPath(dataDir)).toBe(current);
    expect(readdirSync(catalogDir(dataDir)).filter((f) => f.startsWith('building-'))).toEqual([]);
  }, 120_000);

  it('kill -9 during the write step leaves the catalog served; the next run removes the partial file', async () => {
    const current = currentSnapshotPath(dataDir);
    const before = offersOf(dataDir);
    let partial: string | undefined;
    await underLoad(async () => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'src/cli/main.ts',
          'ingest',
          ...demo.feeds.map((f) => `${f.retailer}=${f.path}`),
          '--day',
          '2026-11-23',
        ],
        { cwd: ROOT, env: { ...process.env, SHELF_DATA_DIR: dataDir }, stdio: 'ignore' },
      );
      const exited = new Promise((r) => child.once('exit', r));
      const name = `building-${child.pid}-`;
      for (let i = 0; i < 3000 && !partial; i++) {
        partial = readdirSync(catalogDir(dataDir)).find((f) => f.startsWith(name));
        if (!partial) await sleep(10);
      }
      // into the write step, then the plug is pulled
      await sleep(300);
      child.kill('SIGKILL');
      await exited;
    });
    expect(partial).toBeDefined();
    expect(existsSync(join(catalogDir(dataDir), partial!))).toBe(true);
    expect(currentSnapshotPath(dataDir)).toBe(current);
    expect(offersOf(dataDir)).toEqual(before);
    // the next run sweeps the partial file and publishes
    const next = await underLoad(() =>
      cli('ingest', ...demo.feeds.map((f) => `${f.retailer}=${f.path}`), '--day', '2026-11-23'),
    );
    expect(next.status).toBe(0);
    expect(readdirSync(catalogDir(dataDir)).filter((f) => f.startsWith('building-'))).toEqual([]);
    expect(listSnapshots(dataDir).at(-1)?.current).toBe(true);
  }, 120_000);

  it('`shelf catalog rollback` is served within a second, without a restart', async () => {
    const list = listSnapshots(dataDir);
    const previous = list.at(-2)!;
    const offer = offersOf(dataDir).find((o) => o.retailer === a.retailer && o.price !== null)!;
    const servedNow = await priceOf(offer);
    // the price the snapshot before holds (a changed price of the first case)
    const db = openReadOnly(join(catalogDir(dataDir), previous.file));
    const then = db.prepare('SELECT price FROM offers WHERE id = ?').pluck().get(offer.id) as number;
    db.close();
    expect(then).not.toBe(servedNow);
    const run = await underLoad(async () => {
      const out = await cli('catalog', 'rollback');
      const started = Date.now();
      expect(out.status).toBe(0);
      expect(out.stdout).toContain(`Now serving ${previous.id}`);
      let price = servedNow;
      while (price !== then && Date.now() - started < 5000) {
        await sleep(20);
        price = await priceOf(offer);
      }
      return { price, ms: Date.now() - started };
    });
    expect(run.price).toBe(then);
    expect(run.ms).toBeLessThan(1000);
    expect((await cli('catalog', 'list')).stdout).toContain(`* ${previous.id}`);
  }, 120_000);

  it('`shelf ingest --schedule` refreshes and swaps without failing a request', async () => {
    const sourcesFile = join(demo.root, 'sources.json');
    const path = join(demo.root, 'scheduled-b.tsv');
    rewriteTsv(b.path, path, (c) => ({
      ...c,
      price: c.price?.replace(/^[\d.]+/, (p) => (Number(p) + 3).toFixed(2)) ?? '',
    }));
    writeFileSync(
      sourcesFile,
      JSON.stringify({ at: '04:00', feeds: [{ retailer: b.retailer, source: path }] }),
    );
    const current = currentSnapshotPath(dataDir);
    const output = await underLoad(
      () =>
        new Promise<string>((done) => {
          const child = spawn(
            process.execPath,
            ['--import', 'tsx', 'src/cli/main.ts', 'ingest', '--sources', sourcesFile, '--schedule', '--now'],
            { cwd: ROOT, env: { ...process.env, SHELF_DATA_DIR: dataDir } },
          );
          let stdout = '';
          child.stdout.on('data', (d) => {
            stdout += d;
            // the first refresh is reported: stop the schedule as an operator's Ctrl-C would
            if (/^Published /m.test(stdout) || /Nothing was published/.test(stdout)) child.kill('SIGINT');
          });
          child.stderr.on('data', (d) => {
            stdout += d;
            if (/Nothing was published|refresh failed/.test(stdout)) child.kill('SIGINT');
          });
          child.once('close', () => done(stdout));
        }),
    );
    expect(output).toContain('Refreshing 1 sources daily at 04:00 UTC, starting now.');
    expect(output).toMatch(/^Published \d+ products/m);
    expect(currentSnapshotPath(dataDir)).not.toBe(current);
    const offer = offersOf(dataDir).find((o) => o.retailer === b.retailer && o.price !== null)!;
    expect(await priceOf(offer)).toBe(offer.price);
  }, 120_000);
});
