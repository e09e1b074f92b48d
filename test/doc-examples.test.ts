import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/api/index.js';
import { createKey, startTestServer } from './helpers/access-server.js';
import { ingestDemo } from './helpers/demo-catalog.js';

/**
 * Every example request of the README and docs/*.md, run against a real listening server on
 * a small demo catalog built with the demo's default seed. The demo plans its products in a
 * fixed order from the seed, so a product planned early (the first refrigerators, freezers,
 * dishwashers) is in this catalog and in the full demo that `npm start` builds: an example
 * naming a product, barcode or model must name one of those, and it fails here otherwise.
 */

const ROOT = resolve(import.meta.dirname, '..');
/** the seed `generateDemo` uses when none is given: the one `npm start` builds the demo with */
const DEMO_SEED = 20261121;
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'), { withFileTypes: true })
    .filter((f) => f.isFile() && f.name.endsWith('.md'))
    .map((f) => `docs/${f.name}`),
];

interface HttpExample {
  kind: 'http';
  source: string;
  method: string;
  /** path and query, placeholders still in */
  path: string;
  headers: Record<string, string>;
  body?: string;
}
interface McpExample {
  kind: 'mcp';
  source: string;
  method: 'tools/list' | 'tools/call';
  tool?: string;
  args: Record<string, string>;
}
type Example = HttpExample | McpExample;

/** Lines inside fenced code blocks, with shell continuations (`\` at the end) joined. */
function fencedCommands(text: string): { line: number; command: string }[] {
  const out: { line: number; command: string }[] = [];
  let inFence = false;
  let pending: { line: number; command: string } | null = null;
  text.split('\n').forEach((raw, i) => {
    if (/^\s*```/.test(raw)) {
      inFence = !inFence;
      pending = null;
      return;
    }
    if (!inFence) return;
    const line = raw.trim();
    const command = pending ? `${pending.command} ${line}` : line;
    const start = pending?.line ?? i + 1;
    if (command.endsWith('\\')) pending = { line: start, command: command.slice(0, -1).trim() };
    else {
      pending = null;
      out.push({ line: start, command });
    }
  });
  return out;
}

/** Shell words: single and double quotes, no expansion (the docs' commands need none). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const m of command.matchAll(re)) words.push(m[1] ?? m[2] ?? m[3] ?? '');
  return words;
}

function parseCurl(source: string, words: string[]): HttpExample {
  const headers: Record<string, string> = {};
  let method = 'GET';
  let url = '';
  let body: string | undefined;
  for (let i = 1; i < words.length; i++) {
    const w = words[i] ?? '';
    if (w === '-H' || w === '--header') {
      const [name, ...value] = (words[++i] ?? '').split(':');
      headers[(name ?? '').trim().toLowerCase()] = value.join(':').trim();
    } else if (w === '-X' || w === '--request') method = words[++i] ?? method;
    else if (w === '-d' || w === '--data' || w === '--data-raw') {
      body = words[++i];
      if (method === 'GET') method = 'POST';
    } else if (/^https?:\/\//.test(w)) url = w;
  }
  expect(url, `${source}: a curl example without a URL`).not.toBe('');
  const u = new URL(url);
  return {
    kind: 'http',
    source,
    method,
    path: `${u.pathname}${u.search}`,
    headers,
    ...(body ? { body } : {}),
  };
}

function parseInspector(source: string, words: string[]): McpExample | null {
  const at = (flag: string) => words[words.indexOf(flag) + 1];
  const method = at('--method');
  if (method !== 'tools/list' && method !== 'tools/call') return null;
  const args: Record<string, string> = {};
  words.forEach((w, i) => {
    if (w !== '--tool-arg') return;
    const [name, ...value] = (words[i + 1] ?? '').split('=');
    args[name ?? ''] = value.join('=');
  });
  return { kind: 'mcp', source, method, tool: at('--tool-name'), args };
}

/** The example requests of one document: curl and MCP Inspector commands, other /v2 URLs in code, `GET /v2/…` spans. */
function examplesOf(file: string): Example[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const examples: Example[] = [];
  for (const { line, command } of fencedCommands(text)) {
    const source = `${file}:${line}`;
    const words = shellWords(command);
    if (words[0] === 'curl') examples.push(parseCurl(source, words));
    else if (words.some((w) => w.endsWith('mcp-inspector-cli'))) {
      const mcp = parseInspector(source, words);
      if (mcp) examples.push(mcp);
    } else
      for (const m of command.matchAll(/https?:\/\/[^/\s"']+(\/v2\/[^\s"']+)/g))
        examples.push({ kind: 'http', source, method: 'GET', path: m[1] ?? '', headers: {} });
  }
  // `GET /v2/…` and `POST /v2/…` in inline code, e.g. the endpoint tables; `…` marks an elided query
  text.split('\n').forEach((raw, i) => {
    for (const m of raw.matchAll(/`(GET|POST) (\/v2\/[^`\s]*)`/g)) {
      const path = m[2] ?? '';
      if (path.includes('…')) continue;
      examples.push({ kind: 'http', source: `${file}:${i + 1}`, method: m[1] ?? 'GET', path, headers: {} });
    }
  });
  return examples;
}

const examples = DOCS.flatMap(examplesOf);
const seen = new Set<string>();
const unique = examples.filter((e) => {
  const id =
    e.kind === 'http'
      ? `${e.method} ${e.path} ${e.body ?? ''}`
      : `${e.method} ${e.tool} ${JSON.stringify(e.args)}`;
  if (seen.has(id)) return false;
  seen.add(id);
  return true;
});

describe('README and docs example requests', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shelf-doc-examples-'));
  const dataDir = join(dir, 'data');
  let server: RunningServer;
  let secret: string;
  let publishable: string;
  const ORIGIN = 'https://shop.example';
  /** values for the docs' placeholders, taken from the catalog */
  const fill = new Map<string, string>();
  /** the query a bare path from an endpoint table needs to be a valid request */
  const required = new Map<string, string>();

  beforeAll(async () => {
    await ingestDemo({
      feedsDir: join(dir, 'feeds'),
      dataDir,
      products: 300,
      seed: DEMO_SEED,
      historyDays: 2,
    });
    // the demo key `npm start` prints: Pro plan, test environment
    secret = createKey(dataDir, { plan: 'pro', env: 'test' }).key;
    publishable = createKey(dataDir, { plan: 'pro', type: 'publishable', origins: [ORIGIN] }).key;
    server = await startTestServer(dataDir);
    const get = async (path: string) => {
      const res = await fetch(new URL(path, server.url), { headers: { 'x-api-key': secret } });
      expect(res.status, path).toBe(200);
      return ((await res.json()) as { data: Record<string, string>[] }).data;
    };
    const [product] = await get('/v2/products?limit=1&q=dishwasher');
    const [group] = await get('/v2/product-groups?limit=1');
    const [brand] = await get('/v2/brands?limit=1');
    const [retailer] = await get('/v2/retailers?limit=1');
    fill.set('products/{id}', `products/${product?.id}`);
    fill.set('products/<id>', `products/${product?.id}`);
    fill.set('by-slug/{slug}', `by-slug/${product?.slug}`);
    fill.set('barcode/{gtin}', `barcode/${product?.gtin}`);
    fill.set('product-groups/{id}', `product-groups/${group?.id}`);
    fill.set('product-types/{slug}', 'product-types/dishwasher');
    fill.set('brands/{id or slug}', `brands/${brand?.slug}`);
    fill.set('retailers/{id or slug}', `retailers/${retailer?.slug}`);
    fill.set('knowledge/{type}', 'knowledge/maintenance_schedule');
    // the endpoint table lists lookup's required `model` in its parameter column, not in the path
    required.set('/v2/products/lookup', `model=${encodeURIComponent(product?.model_number ?? '')}`);
  }, 240_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The example's path with placeholders filled and its key placeholder replaced by a real key. */
  function request(e: HttpExample): { path: string; headers: Record<string, string> } {
    let path = required.has(e.path) ? `${e.path}?${required.get(e.path)}` : e.path;
    for (const [placeholder, value] of fill) path = path.split(placeholder).join(value);
    expect(path, `${e.source}: a placeholder the test cannot fill in ${e.path}`).not.toMatch(/[{}<>]/);
    const headers = { ...e.headers };
    const usesPublishable = /pk_(live|test)_/.test(path);
    path = path.replace(/(api_key=)pk_(live|test)_…/, `$1${publishable}`);
    for (const [name, value] of Object.entries(headers))
      headers[name] = value.replace(/<demo key>|sk_shelf_(test|live)_…/, secret);
    if (usesPublishable) headers.origin = ORIGIN;
    else if (!headers['x-api-key'] && !path.includes('api_key=')) headers['x-api-key'] = secret;
    return { path, headers };
  }

  it('finds the examples: the README quick start curl, the Inspector commands and the endpoint tables', () => {
    const sources = unique.map((e) => e.source);
    expect(sources.some((s) => s.startsWith('README.md'))).toBe(true);
    expect(unique.filter((e) => e.kind === 'mcp').length).toBeGreaterThanOrEqual(3);
    expect(
      unique.filter((e) => e.kind === 'http' && e.source.startsWith('docs/api.md')).length,
    ).toBeGreaterThan(20);
  });

  for (const e of unique.filter((x): x is HttpExample => x.kind === 'http')) {
    it(`${e.source} ${e.method} ${e.path} answers 2xx with the envelope`, async () => {
      const { path, headers } = request(e);
      const body = e.method === 'POST' ? (e.body ?? JSON.stringify({ query: 'dishwasher' })) : undefined;
      const res = await fetch(new URL(path, server.url), {
        method: e.method,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        body,
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      const text = bytes.toString('utf8');
      expect(res.status, `${e.source}: ${e.method} ${path} → ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(
        200,
      );
      expect(res.status, `${e.source}: ${e.method} ${path} → ${text.slice(0, 300)}`).toBeLessThan(300);
      const type = res.headers.get('content-type') ?? '';
      if (type.startsWith('image/svg+xml')) expect(text).toMatch(/^<svg/);
      // the bulk export: gzipped JSON lines, one product each
      else if (type.startsWith('application/gzip'))
        for (const line of gunzipSync(bytes).toString('utf8').trimEnd().split('\n'))
          expect(JSON.parse(line)).toHaveProperty('id');
      else if (path.startsWith('/v2/openapi.json')) expect(JSON.parse(text)).toHaveProperty('openapi');
      else
        expect(JSON.parse(text), `${e.source}: ${path}`).toMatchObject({
          success: true,
          data: expect.anything(),
          meta: { requestId: expect.stringMatching(/^req_/) },
        });
    });
  }

  // regression: the README's TypeScript client example used a `productId` it never defined
  it('the README TypeScript client example typechecks and runs against the server as written', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## TypeScript client'));
    const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    expect(code).toContain("from '@shelf/client'");
    // inside the repository (gitignored), so `@shelf/client` resolves as in a checkout
    const scratch = join(ROOT, 'test', 'artifacts', `readme-client-${process.pid}`);
    mkdirSync(scratch, { recursive: true });
    const file = join(scratch, 'example.ts');
    writeFileSync(file, code.replace('http://localhost:3000', server.url.replace(/\/$/, '')));
    try {
      const config = ts.getParsedCommandLineOfConfigFile(
        join(ROOT, 'tsconfig.json'),
        {},
        {
          ...ts.sys,
          onUnRecoverableConfigFileDiagnostic: () => {},
        },
      );
      const program = ts.createProgram([file], { ...config?.options, noEmit: true });
      const errors = ts
        .getPreEmitDiagnostics(program)
        .filter((d) => d.file?.fileName === file)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(errors).toEqual([]);
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), file],
        { cwd: ROOT, env: { ...process.env, SHELF_API_KEY: secret }, timeout: 60_000 },
      );
      expect(stdout).toMatch(/^\d+ products; \d+ requests left this minute$/m);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 90_000);

  for (const e of unique.filter((x): x is McpExample => x.kind === 'mcp')) {
    it(`${e.source} MCP ${e.method} ${e.tool ?? ''} ${JSON.stringify(e.args)} answers without an error`, async () => {
      const client = new Client({ name: 'doc-examples', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL('/mcp', server.url), {
          requestInit: { headers: { 'x-api-key': secret } },
        }),
      );
      try {
        if (e.method === 'tools/list') {
          expect((await client.listTools()).tools.length).toBeGreaterThan(0);
          return;
        }
        const result = await client.callTool({ name: e.tool ?? '', arguments: e.args });
        const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
        // a NOT_FOUND here means the example names a value the demo catalog does not have
        expect(
          result.isError,
          `${e.source}: ${e.tool} ${JSON.stringify(e.args)} → ${text.slice(0, 300)}`,
        ).toBeFalsy();
        expect(result.structuredContent).toBeTruthy();
      } finally {
        await client.close();
      }
    });
  }
});
