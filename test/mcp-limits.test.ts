import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { createKey } from './helpers/access-server.js';
import { get } from './helpers/http.js';
import { servedFixtureCatalog } from './helpers/served-catalog.js';

type Text = { text: string }[];

/** Tool calls over /mcp are REST requests of the caller's key: same limits, same quota, same headers. */
describe('MCP tool calls count against the caller plan', () => {
  const served = servedFixtureCatalog();

  const connect = async (key: string) => {
    const client = new Client({ name: 'limits-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', served.server.url), {
        requestInit: { headers: { 'x-api-key': key } },
      }),
    );
    return client;
  };

  it('a Free key sees its minute and month quota fall with each tool call, then gets RATE_LIMITED with the wait', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'free', env: 'live' });
    const client = await connect(key);
    try {
      const quotas: { minute_remaining: number; month_remaining: number }[] = [];
      const queries = [
        'dishwasher',
        'samsung',
        'tv',
        'bosch',
        'oled',
        'quiet',
        'stainless',
        'qled',
        'black',
        '65',
      ];
      for (const query of queries) {
        const r = await client.callTool({ name: 'search_products', arguments: { query } });
        expect(r.isError, (r.content as Text)[0]?.text).toBeFalsy();
        quotas.push((r.structuredContent as { quota: (typeof quotas)[number] }).quota);
      }
      expect(quotas.map((q) => q.minute_remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      expect(quotas[0]?.month_remaining).toBe(4999);
      expect(quotas[9]?.month_remaining).toBe(4990);

      const limited = await client.callTool({ name: 'search_products', arguments: { query: 'one more' } });
      expect(limited.isError).toBe(true);
      const text = (limited.content as Text)[0]?.text ?? '';
      expect(text).toMatch(/^RATE_LIMITED: .*Retry after \d+ seconds\.\nWait the given seconds/);
      const wait = Number(text.match(/Retry after (\d+) seconds/)?.[1]);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);

      // the same key over plain REST is limited too: one budget, whichever door
      const rest = await get(served.server.url, '/v2/products?q=tv', key);
      expect(rest.status).toBe(429);
    } finally {
      await client.close();
    }
  });

  it('MCP protocol messages (initialize, tools/list) cost nothing; only tool calls are requests', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'free', env: 'live' });
    const client = await connect(key);
    try {
      await client.listTools();
      await client.listTools();
      const r = await client.callTool({
        name: 'search_products',
        arguments: { query: 'never asked before' },
      });
      expect(r.structuredContent).toMatchObject({ quota: { minute_remaining: 9, month_remaining: 4999 } });
    } finally {
      await client.close();
    }
  });

  it('knowledge tools on a Free key answer PLAN_REQUIRED naming the Starter plan; on Starter they answer', async () => {
    const free = await connect(createKey(served.catalog.dataDir, { plan: 'free' }).key);
    try {
      for (const [name, args] of [
        ['get_product_knowledge', { product_type: 'dishwasher' }],
        ['lookup_error_code', { brand: 'Bosch', product_type: 'dishwasher', code: 'E24' }],
      ] as const) {
        const r = await free.callTool({ name, arguments: args });
        expect(r.isError, name).toBe(true);
        expect((r.content as Text)[0]?.text).toMatch(
          /^PLAN_REQUIRED: .*Requires the Starter plan or above\.\nTell the user/,
        );
      }
    } finally {
      await free.close();
    }
    const starter = await connect(createKey(served.catalog.dataDir, { plan: 'starter' }).key);
    try {
      const code = await starter.callTool({
        name: 'lookup_error_code',
        arguments: { brand: 'Bosch', product_type: 'Dishwasher', code: 'e24' },
      });
      expect(code.isError, (code.content as Text)[0]?.text).toBeFalsy();
      expect(code.structuredContent).toMatchObject({
        code: 'E24',
        brand_specific: true,
        canonical_issue: 'drain_failure',
      });
      const knowledge = await starter.callTool({
        name: 'get_product_knowledge',
        arguments: { product_type: 'dishwasher', brand: 'bosch' },
      });
      expect(knowledge.isError, (knowledge.content as Text)[0]?.text).toBeFalsy();
      expect((knowledge.structuredContent as { entries: unknown[] }).entries.length).toBeGreaterThan(0);
    } finally {
      await starter.close();
    }
  });
});
