import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { countTokens } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../src/content/index.js';
import { generateDemo } from '../src/demo/index.js';
import { runIngest } from '../src/ingest/index.js';
import { type InjectedApp, injectedApp } from './helpers/injected-app.js';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

/**
 * format=ai is the condensed form of spec §2.17: about 300 tokens instead of about 2,000.
 * Measured with a real tokenizer (gpt-tokenizer, o200k_base) on demo products, against the
 * full json form of the same product (include_offers=true, as format=ai also summarizes offers).
 */
describe('format=ai on demo products', () => {
  let dataDir: string;
  let app: FastifyInstance;
  let served: InjectedApp;
  let key: string;
  let ids: string[];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'shelf-ai-'));
    const content = loadContent();
    // main's demo generator defaults to 35k products: about three per product type is enough here
    const demo = await generateDemo({ outDir: join(dataDir, 'feeds'), content, products: 600 });
    // three retailers' feeds keep the test quick and still give a product of every kind
    await runIngest({ dataDir, feeds: demo.feeds.slice(0, 3), content });
    served = await injectedApp(dataDir);
    ({ app, key } = served);
    const rows = served.db.prepare('SELECT id FROM products WHERE data_tier < 3 ORDER BY id LIMIT 80').all();
    ids = (rows as { id: string }[]).map((r) => r.id);
  }, 300_000);
  afterAll(async () => {
    await served?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('has a median of at most 300 tokens and is at least 5× smaller than the json form', async () => {
    expect(ids.length).toBeGreaterThanOrEqual(50);
    const ai: number[] = [];
    const ratio: number[] = [];
    for (const id of ids) {
      const get = async (qs: string) => {
        const res = await app.inject({ url: `/v2/products/${id}?${qs}`, headers: { 'x-api-key': key } });
        expect(res.statusCode).toBe(200);
        return JSON.stringify((JSON.parse(res.body) as { data: unknown }).data);
      };
      const full = countTokens(await get('include_offers=true'));
      const condensed = countTokens(await get('format=ai'));
      ai.push(condensed);
      ratio.push(full / condensed);
    }
    console.log(
      `format=ai tokens: median ${median(ai)}, max ${Math.max(...ai)}; json/ai ratio: median ${median(ratio).toFixed(1)}`,
    );
    expect(median(ai)).toBeLessThanOrEqual(300);
    expect(median(ratio)).toBeGreaterThanOrEqual(5);
  }, 120_000);
});
