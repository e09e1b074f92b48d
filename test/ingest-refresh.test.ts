import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../src/api/index.js';
import { loadConfig } from '../src/config.js';
import { msUntil, refreshOnce } from '../src/ingest/index.js';
import { FIXTURES, type FixtureCatalog, fixtureCatalog, fixtureContent } from './helpers/fixture-catalog.js';
import { get } from './helpers/http.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The daily refresh: sources (a file and a URL) re-ingested while the API keeps serving. */
describe('daily refresh', () => {
  let catalog: FixtureCatalog;
  let server: RunningServer;
  let feedServer: Server;
  let key: string;
  let sourcesFile: string;

  beforeAll(async () => {
    catalog = await fixtureCatalog();
    key = catalog.key('enterprise');
    server = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', SHELF_DATA_DIR: catalog.dataDir, LOG_LEVEL: 'silent' }),
    );
    // tomorrow's voltmart feed, served over HTTP, has one more product
    const voltmart = `${readFileSync(join(FIXTURES, 'feeds/voltmart.csv'), 'utf8').trimEnd()}
VM-400,Dyson V15 Detect Cordless Stick Vacuum,Laser dust detection,https://voltmart.example/400,,749.99 USD,in stock,Dyson,,SV22,Floor Care > Vacuums,,,
`;
    feedServer = createServer((req, res) => {
      if (req.url === '/feeds/voltmart.csv') res.writeHead(200, { 'content-type': 'text/csv' }).end(voltmart);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => feedServer.listen(0, '127.0.0.1', r));
    const port = (feedServer.address() as AddressInfo).port;
    sourcesFile = join(catalog.dataDir, 'sources.json');
    writeFileSync(
      sourcesFile,
      JSON.stringify({
        at: '04:00',
        feeds: [
          { retailer: 'northgate', source: join(FIXTURES, 'feeds/northgate.tsv') },
          { retailer: 'voltmart', source: `http://127.0.0.1:${port}/feeds/voltmart.csv` },
        ],
      }),
    );
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((r) => feedServer?.close(r));
    catalog?.cleanup();
  });

  it('serves the new catalog without a restart and without failing a request meanwhile', async () => {
    const statuses: number[] = [];
    let stop = false;
    const load = (async () => {
      while (!stop) {
        statuses.push((await get(server.url, '/v2/products?q=dishwasher', key)).status);
        await sleep(25);
      }
    })();
    const until = async (n: number) => {
      while (statuses.length < n) await sleep(10);
    };
    const before = await get(server.url, '/v2/products?q=dyson', key);
    expect(before.body.data).toEqual([]);
    await until(5);

    const report = await refreshOnce({
      dataDir: catalog.dataDir,
      sourcesFile,
      content: fixtureContent(),
      day: '2026-11-21',
    });
    expect(report.download_errors).toEqual([]);
    expect(report.published).toBe(true);

    let found: unknown[] = [];
    for (let i = 0; i < 100 && found.length === 0; i++) {
      await sleep(100);
      found = (await get(server.url, '/v2/products?q=dyson', key)).body.data as unknown[];
    }
    // keep the load on past the swap, then stop
    await until(statuses.length + 5);
    stop = true;
    await load;
    expect(found).toHaveLength(1);
    expect(statuses.length).toBeGreaterThanOrEqual(10);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('plans the next run at the configured UTC time', () => {
    const now = new Date('2026-11-21T03:00:00Z');
    expect(msUntil('04:00', now)).toBe(60 * 60_000);
    expect(msUntil('02:30', now)).toBe(23.5 * 60 * 60_000);
  });
});
