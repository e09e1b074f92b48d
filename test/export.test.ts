import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { currentSnapshotPath, exportFilePath } from '../src/catalog/index.js';
import { createKey } from './helpers/access-server.js';
import { expectError, expectOk } from './helpers/assertions.js';
import { get } from './helpers/http.js';
import { servedFixtureCatalog } from './helpers/served-catalog.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');

/** Runs `shelf <args>` over `dataDir`; its standard output and error. */
const shelf = (dataDir: string, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, SHELF_DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    maxBuffer: 64 * 1024 * 1024,
  });

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

describe('bulk export: shelf export and GET /v2/exports/latest.jsonl.gz', () => {
  const served = servedFixtureCatalog();
  let cliLines: string[];

  it('shelf export --format jsonl writes one product document per line, the same as GET /v2/products/{id}', async () => {
    const { stdout, stderr } = await shelf(served.catalog.dataDir, 'export', '--format', 'jsonl');
    cliLines = lines(stdout);
    expect(cliLines).toHaveLength(served.catalog.report.products);
    expect(stderr).toContain(`Exported ${served.catalog.report.products} products`);
    expect(stderr).toMatch(/GET \/v2\/changes\?since=[A-Za-z0-9_-]+/);
    const key = served.catalog.key('enterprise');
    const seen = new Set<string>();
    for (const line of cliLines) {
      const document = JSON.parse(line) as { id: string };
      seen.add(document.id);
      const api = await get(served.server.url, `/v2/products/${document.id}`, key);
      expect(expectOk(api)).toEqual(document);
      // byte for byte: the line is the data of the API's body
      expect(JSON.stringify(api.body.data)).toBe(line);
    }
    expect(seen.size).toBe(cliLines.length);
    // in id order, so two exports of one snapshot are identical
    const ids = cliLines.map((l) => (JSON.parse(l) as { id: string }).id);
    expect(ids).toEqual([...ids].sort());
  });

  it('--out writes the same lines to a file', async () => {
    const out = join(served.catalog.dataDir, 'products.jsonl');
    const { stdout } = await shelf(served.catalog.dataDir, 'export', '--format', 'jsonl', '--out', out);
    expect(stdout).toBe('');
    expect(lines(readFileSync(out, 'utf8'))).toEqual(cliLines);
  });

  it('serves a Pro key the same lines gzipped, with its length, the snapshot as ETag, counted as one request', async () => {
    const key = served.catalog.key('pro');
    const path = '/v2/exports/latest.jsonl.gz';
    const response = await fetch(new URL(path, served.server.url), { headers: { 'x-api-key': key } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    const body = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(body.length);
    expect(lines(gunzipSync(body).toString('utf8'))).toEqual(cliLines);
    const snapshot = currentSnapshotPath(served.catalog.dataDir) as string;
    const id = snapshot.replace(/^.*catalog-/, '').replace(/\.db$/, '');
    expect(response.headers.get('etag')).toBe(`"${id}"`);
    expect(response.headers.get('shelf-changes-cursor')).toMatch(/^[A-Za-z0-9_-]+$/);
    // built once, beside the snapshot (pruned with it)
    expect(existsSync(exportFilePath(snapshot))).toBe(true);
    const remaining = Number(response.headers.get('x-ratelimit-remaining'));

    // a second download: the same bytes, one more request counted
    const again = await fetch(new URL(path, served.server.url), { headers: { 'x-api-key': key } });
    expect(Buffer.from(await again.arrayBuffer()).equals(body)).toBe(true);
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);

    // unchanged snapshot: 304 without a body
    const cached = await get(served.server.url, path, key, { 'if-none-match': `"${id}"` });
    expect(cached.status).toBe(304);
  });

  // regression: a browser (publishable Pro key) got the export but could not read its
  // Shelf-Changes-Cursor, because CORS did not expose it, so it could not follow the feed
  it('exposes Shelf-Changes-Cursor to browsers (CORS) on a publishable key from its Origin', async () => {
    const origin = 'https://shop.example';
    const { key } = createKey(served.catalog.dataDir, {
      plan: 'pro',
      type: 'publishable',
      origins: [origin],
    });
    const r = await fetch(new URL('/v2/exports/latest.jsonl.gz', served.server.url), {
      headers: { 'x-api-key': key, origin },
    });
    await r.arrayBuffer();
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe(origin);
    expect(r.headers.get('shelf-changes-cursor')).toMatch(/^[A-Za-z0-9_-]+$/);
    const exposed = (r.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/);
    expect(exposed).toContain('shelf-changes-cursor');
  });

  it('refuses Free and Starter keys with 403 PLAN_REQUIRED in the error envelope', async () => {
    for (const plan of ['free', 'starter'] as const) {
      const r = await get(served.server.url, '/v2/exports/latest.jsonl.gz', served.catalog.key(plan));
      expectError(r, 403, 'PLAN_REQUIRED');
      expect(r.body).toMatchObject({ error: { details: { requiredPlan: 'pro', currentPlan: plan } } });
    }
    expectError(await get(served.server.url, '/v2/exports/latest.jsonl.gz'), 401, 'AUTH_REQUIRED');
  });
});
