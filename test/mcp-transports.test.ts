import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/api/index.js';
import { loadConfig } from '../src/config.js';
import { TOOL_NAMES } from '../src/mcp/index.js';
import { expectError } from './helpers/assertions.js';
import { fixtureCatalog } from './helpers/fixture-catalog.js';
import { stdioTransport } from './helpers/mcp-stdio.js';
import { servedFixtureCatalog } from './helpers/served-catalog.js';

type Text = { type: string; text: string }[];

/** The same agent session over stdio, Streamable HTTP (/mcp) and legacy SSE (/sse). */
describe('MCP transports', () => {
  const served = servedFixtureCatalog();
  let key: string;

  beforeAll(() => {
    key = served.catalog.key('pro');
  });

  const transports: [string, () => Transport][] = [
    ['stdio (npx shelf-mcp)', () => stdioTransport(served.server.url, key)],
    [
      'Streamable HTTP /mcp with X-API-Key',
      () =>
        new StreamableHTTPClientTransport(new URL('/mcp', served.server.url), {
          requestInit: { headers: { 'x-api-key': key } },
        }),
    ],
    [
      'Streamable HTTP /mcp with Authorization: Bearer',
      () =>
        new StreamableHTTPClientTransport(new URL('/mcp', served.server.url), {
          requestInit: { headers: { authorization: `Bearer ${key}` } },
        }),
    ],
    [
      'legacy SSE /sse?api_key=',
      () => new SSEClientTransport(new URL(`/sse?api_key=${key}`, served.server.url)),
    ],
    [
      'legacy SSE /sse with X-API-Key',
      () =>
        new SSEClientTransport(new URL('/sse', served.server.url), {
          eventSourceInit: {
            fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, 'x-api-key': key } }),
          },
          requestInit: { headers: { 'x-api-key': key } },
        }),
    ],
  ];

  for (const [name, make] of transports) {
    it(`${name}: lists the nine read-only tools and calls search, lookup and a not-found`, async () => {
      const client = new Client({ name: 'transport-test', version: '1.0.0' });
      await client.connect(make());
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
        for (const tool of tools) {
          expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
          expect(tool.outputSchema?.type, tool.name).toBe('object');
          expect(tool.description?.length, tool.name).toBeGreaterThan(80);
        }
        const search = await client.callTool({
          name: 'search_products',
          arguments: { query: 'SHPM88Z75N' },
        });
        expect(search.isError).toBeFalsy();
        const found = search.structuredContent as { products: { id: string; name: string }[] };
        expect(found.products[0]?.name).toContain('SHPM88Z75N');
        const lookup = await client.callTool({
          name: 'lookup_product',
          arguments: { id: found.products[0]?.id },
        });
        expect(lookup.structuredContent).toMatchObject({
          product: {
            gtin: '825225978428',
            offers: [
              { retailer: 'VoltMart', price: 949.99, in_stock: true, url: expect.any(String) },
              { retailer: 'Northgate Home', price: 999 },
            ],
          },
          quota: { minute_remaining: expect.any(Number), month_remaining: expect.any(Number) },
        });
        const missing = await client.callTool({
          name: 'lookup_product',
          arguments: { id: '00000000-0000-4000-8000-000000000000' },
        });
        expect(missing.isError).toBe(true);
        expect((missing.content as Text)[0]?.text).toMatch(/^NOT_FOUND: .*\nCheck the identifier/);
      } finally {
        await client.close();
      }
    });
  }

  it('every tool answers from the real endpoints (fixture catalog, Streamable HTTP)', async () => {
    const client = new Client({ name: 'real-api', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', served.server.url), {
        requestInit: { headers: { 'x-api-key': key } },
      }),
    );
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      expect(r.isError, `${name}: ${(r.content as Text)[0]?.text}`).toBeFalsy();
      return r.structuredContent as Record<string, unknown>;
    };
    try {
      const filtered = await call('search_products', { query: 'dishwasher', brand: 'Bosch', in_stock: true });
      const products = filtered.products as { id: string; brand: string; model_number: string }[];
      expect(products.length).toBeGreaterThan(0);
      expect(products.every((p) => p.brand === 'Bosch')).toBe(true);
      const bosch = products.find((p) => p.model_number === 'SHPM88Z75N');
      expect(bosch).toBeDefined();
      const id = bosch?.id as string;
      expect(await call('lookup_product', { barcode: '825225978428' })).toMatchObject({
        product: { id, best_price: 949.99 },
      });
      expect(await call('lookup_product', { model_number: 'SHPM88Z75N', brand: 'Bosch' })).toMatchObject({
        product: { id, offers: [{ retailer: 'VoltMart' }, { retailer: 'Northgate Home' }] },
        match: { type: expect.any(String) },
      });
      expect(
        await call('get_product_specs', { product_id: id, keys: ['noise level', 'nope'] }),
      ).toMatchObject({
        specs: { noise_level: expect.stringContaining('dBA') },
        missing_keys: ['nope'],
      });
      expect(await call('compare_prices', { product_id: id })).toMatchObject({
        average_price: 974.5,
        cheapest_in_stock: { retailer: 'VoltMart', price: 949.99, saving_vs_average: 24.51 },
      });
      expect(await call('get_price_history', { product_id: id, days: 30 })).toMatchObject({
        current_price: 949.99,
        history: expect.any(Array),
      });
      expect(await call('find_alternatives', { product_id: id })).toMatchObject({
        alternatives: expect.any(Array),
      });
      const semantic = await call('semantic_search', { query: 'quiet dishwasher' });
      expect((semantic.products as unknown[]).length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  const post = (path: string, headers: Record<string, string>) =>
    fetch(new URL(path, served.server.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
  const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as unknown });

  it('refuses sessions without a key, with a bad key, and with a publishable key (403 KEY_NOT_ALLOWED)', async () => {
    expectError(await json(await post('/mcp', {})), 401, 'AUTH_REQUIRED');
    expectError(
      await json(await post('/mcp', { 'x-api-key': 'sk_shelf_live_00000000000000000000000000000000' })),
      401,
      'AUTH_INVALID',
    );
    const publishable = served.catalog.key('pro', { type: 'publishable' });
    expectError(await json(await post('/mcp', { 'x-api-key': publishable })), 403, 'KEY_NOT_ALLOWED');
    expectError(
      await json(await fetch(new URL(`/sse?api_key=${publishable}`, served.server.url))),
      403,
      'KEY_NOT_ALLOWED',
    );
    expectError(await json(await fetch(new URL('/sse', served.server.url))), 401, 'AUTH_REQUIRED');
  });

  it('binds a session to its key: another key cannot use it, an unknown session is 404', async () => {
    const init = await post('/mcp', { 'x-api-key': key });
    expect(init.status).toBe(200);
    const sessionId = init.headers.get('mcp-session-id');
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await init.body?.cancel();
    const other = served.catalog.key('pro');
    const list = (k: string, id: string) =>
      fetch(new URL('/mcp', served.server.url), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-api-key': k,
          'mcp-session-id': id,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
    const stolen = await list(other, sessionId ?? '');
    expect(stolen.status).toBe(403);
    expect(await stolen.json()).toMatchObject({
      error: { message: expect.stringContaining('another API key') },
    });
    const unknown = await list(key, '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
  });
});

describe('MCP shutdown and stdio start-up', () => {
  it('closing the server ends open SSE and Streamable HTTP sessions instead of hanging', async () => {
    const catalog = await fixtureCatalog();
    const key = catalog.key('pro');
    const server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        SHELF_DATA_DIR: catalog.dataDir,
        LOG_LEVEL: 'silent',
      }),
    );
    const sse = new Client({ name: 'shutdown', version: '1' });
    const http = new Client({ name: 'shutdown', version: '1' });
    await sse.connect(new SSEClientTransport(new URL(`/sse?api_key=${key}`, server.url)));
    await http.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', server.url), {
        requestInit: { headers: { 'x-api-key': key } },
      }),
    );
    await sse.listTools();
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    await Promise.allSettled([sse.close(), http.close()]);
    catalog.cleanup();
  });

  it('`shelf-mcp` without a key exits with a message naming SHELF_API_KEY', async () => {
    const { spawnSync } = await import('node:child_process');
    const env = { ...process.env };
    delete env.SHELF_API_KEY;
    delete env.SERVICE_API_KEY;
    const run = spawnSync(process.execPath, [resolve(import.meta.dirname, '../bin/shelf-mcp.js')], {
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('set SHELF_API_KEY (or SERVICE_API_KEY)');
  });
});
