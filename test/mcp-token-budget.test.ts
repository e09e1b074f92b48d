import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { countTokens } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/api/index.js';
import { loadContent } from '../src/content/index.js';
import { generateDemo } from '../src/demo/index.js';
import { runIngest } from '../src/ingest/index.js';
import type { Product } from '../src/schemas/index.js';
import { createKey, startTestServer } from './helpers/access-server.js';

/** What one tool result may cost an agent's context, in tokens (issue 8). */
const BUDGET = 1_500;

/**
 * Token cost of typical tool results on the demo catalog, counted with a real tokenizer
 * (gpt-tokenizer, o200k_base: the GPT-4o family's encoding). The measured unit is the whole
 * `tools/call` result as an MCP client receives it (text content and structuredContent,
 * serialized as JSON), so both renderings together stay under the budget.
 */
describe('MCP token budget on demo products', () => {
  let dataDir: string;
  let server: RunningServer;
  let client: Client;
  let products: Product[];
  const measured: { tool: string; tokens: number; text: number; structured: number }[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'shelf-budget-'));
    const content = loadContent();
    const demo = await generateDemo({ outDir: join(dataDir, 'demo-feeds'), content, products: 600 });
    await runIngest({ dataDir, feeds: demo.feeds, content });
    server = await startTestServer(dataDir);
    const { key } = createKey(dataDir, { plan: 'enterprise', env: 'test' });
    client = new Client({ name: 'budget-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', server.url), {
        requestInit: { headers: { 'x-api-key': key } },
      }),
    );
    // typical products: dishwashers, TVs and drills as the demo catalog makes them
    const res = await fetch(new URL('/v2/products?q=dishwasher&limit=3&include_offers=true', server.url), {
      headers: { 'x-api-key': key },
    });
    products = ((await res.json()) as { data: Product[] }).data;
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (measured.length)
      console.info(
        `MCP result tokens (o200k_base, budget ${BUDGET}):\n${measured
          .map(
            (m) =>
              `  ${m.tool.padEnd(24)} ${String(m.tokens).padStart(5)}  (text ${m.text}, structured ${m.structured})`,
          )
          .join('\n')}`,
      );
  });

  const product = () => {
    const p = products.find((x) => (x.offers?.length ?? 0) > 1) ?? products[0];
    if (!p) throw new Error('the demo catalog has no dishwasher');
    return p;
  };

  const cases: [string, () => Record<string, unknown>][] = [
    ['search_products', () => ({ query: 'dishwasher' })],
    ['semantic_search', () => ({ query: 'quiet dishwasher under $1000' })],
    ['lookup_product', () => ({ id: product().id })],
    ['get_product_specs', () => ({ product_id: product().id })],
    ['compare_prices', () => ({ product_id: product().id })],
    ['get_price_history', () => ({ product_id: product().id, days: 365 })],
    ['find_alternatives', () => ({ product_id: product().id })],
    ['get_product_knowledge', () => ({ product_id: product().id })],
    [
      'lookup_error_code',
      () => ({ brand: product().brand?.name ?? 'Bosch', product_type: 'dishwasher', code: 'drain failure' }),
    ],
  ];

  for (const [tool, args] of cases) {
    it(`${tool} stays under ${BUDGET} tokens`, async (ctx) => {
      const result = await client.callTool({ name: tool, arguments: args() });
      const text = (result.content as { text: string }[]).map((c) => c.text).join('\n');
      if (result.isError && text.startsWith('NOT_AVAILABLE'))
        ctx.skip(`${tool}: this build has no REST endpoint for it yet`);
      expect(result.isError, text).toBeFalsy();
      const tokens = countTokens(
        JSON.stringify({ content: result.content, structuredContent: result.structuredContent }),
      );
      measured.push({
        tool,
        tokens,
        text: countTokens(text),
        structured: countTokens(JSON.stringify(result.structuredContent)),
      });
      expect(tokens).toBeLessThan(BUDGET);
    });
  }
});
