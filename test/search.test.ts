import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../src/access/index.js';
import { type RunningServer, startServer } from '../src/api/index.js';
import { loadConfig } from '../src/config.js';
import { runIngest } from '../src/ingest/index.js';
import type { Product } from '../src/schemas/index.js';
import { expectError, expectOk } from './helpers/assertions.js';
import { get } from './helpers/http.js';

const FEED = resolve(import.meta.dirname, 'fixtures/search/shop.tsv');

async function post(base: string, path: string, key: string, body: unknown) {
  const response = await fetch(new URL(path, base), {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown> & { data?: unknown },
  };
}

const names = (res: { body: { data?: unknown } }) => (res.body.data as Product[]).map((p) => p.name);

/** Search as a user sees it: a small real catalog (12 listings) served on a free port. */
describe('search over HTTP', () => {
  let dataDir: string;
  let server: RunningServer;
  let key: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'shelf-search-test-'));
    const report = await runIngest({ dataDir, feeds: [{ retailer: 'shop', path: FEED }], day: '2026-11-20' });
    expect(report.products).toBe(12);
    const keys = new KeyStore(dataDir);
    key = keys.create({ plan: 'pro', type: 'secret', env: 'live' }).key;
    keys.close();
    server = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', SHELF_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    );
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keyword search tolerates one typo in a word of 5+ letters and matches the last word as a prefix', async () => {
    expect(names(await get(server.url, '/v2/products?q=dishwaser', key))).toHaveLength(4);
    expect(names(await get(server.url, '/v2/products?q=refrigerater', key))).toHaveLength(2);
    expect(names(await get(server.url, '/v2/products?q=frigid', key))).toEqual([
      'Frigidaire Top Freezer Refrigerator FFTR1835VW White',
    ]);
    // four letters: no typo tolerance
    expect(names(await get(server.url, '/v2/products?q=tvvv', key))).toEqual([]);
  });

  it('a model number never matches another model one character away', async () => {
    const res = await get(server.url, '/v2/products?q=WF45R6100AW', key);
    expect(names(res)).toEqual(['Samsung WF45R6100AW Front Load Washer White']);
    const none = await get(server.url, '/v2/products?q=WF45R6100AX', key);
    expect(names(none)).toEqual([]);
  });

  it('an exact model number or GTIN as the query ranks that product first', async () => {
    const byModel = await post(server.url, '/v2/products/search', key, { query: 'wdt730pahz' });
    expect(names(byModel)[0]).toBe('Whirlpool WDT730PAHZ Dishwasher Stainless');
    const byGtin = await get(server.url, '/v2/products?q=825225978428', key);
    expect(names(byGtin)[0]).toBe('Bosch 800 Series SHPM88Z75N Dishwasher Stainless');
  });

  it('quotes, operators and FTS syntax in a query are plain text, never an error', async () => {
    const odd = fc.stringMatching(/^[a-z0-9 "'*^:()+\-~{}[\]<>|&!?.,;/\\]{0,40}$/);
    await fc.assert(
      fc.asyncProperty(odd, async (q) => {
        const g = await get(server.url, `/v2/products?q=${encodeURIComponent(q)}`, key);
        expect(g.status).toBe(200);
        const p = await post(server.url, '/v2/products/search', key, { query: q, mode: 'hybrid' });
        expect(p.status).toBe(200);
      }),
      { numRuns: 60 },
    );
    for (const q of ['"', 'NEAR(a b)', 'name:washer', 'a OR', 'AND', '*', '-x', 'dish* ^wash']) {
      expect((await get(server.url, `/v2/products?q=${encodeURIComponent(q)}`, key)).status).toBe(200);
    }
  });

  it('filters by brand slug, price, stock and spec values, with facets over the filtered set', async () => {
    const res = await post(server.url, '/v2/products/search', key, {
      query: 'dishwasher',
      filters: { price: { max: 800 }, in_stock: true, specs: { third_rack: true } },
      facets: ['brand', 'price', 'spec:noise_level', 'product_type'],
    });
    expect(names(res).sort()).toEqual([
      'Bosch 800 Series SHPM88Z75N Dishwasher Stainless',
      'Whirlpool WDT730PAHZ Dishwasher Stainless',
    ]);
    const facets = res.body.facets as Record<string, { name?: string; value?: string; count: number }[]>;
    expect(facets.brand?.map((b) => [b.name, b.count]).sort()).toEqual([
      ['Bosch', 1],
      ['Whirlpool', 1],
    ]);
    expect(facets.product_type).toEqual([expect.objectContaining({ slug: 'dishwasher', count: 2 })]);
    expect(facets['spec:noise_level']?.map((v) => v.value).sort()).toEqual(['42 dBA', '47 dBA']);
    expect(facets.price).toEqual([{ min: 500, max: 1000, count: 2 }]);

    const tvs = await post(server.url, '/v2/products/search', key, {
      filters: { product_type: ['tv'], specs: { screen_size: { min: 50 } } },
      sort: { field: 'price', order: 'desc' },
    });
    expect(names(tvs)).toEqual([
      'Sony Bravia 65 inch OLED 4K TV XR65A80L',
      'Hisense 55 inch 4K ULED Mini-LED TV 55U8K',
      'TCL 65 inch 4K UHD Google TV 65S450G',
    ]);
  });

  it('GET ?q and POST keyword search return the same products in the same order, with the same total', async () => {
    const queries = [
      'dishwasher',
      'stainless dishwasher',
      'samsung washer',
      'tv',
      '65 inch',
      'refrigerater',
      'frigid',
      'SHPM88Z75N',
      'fridge',
      'white',
    ];
    for (const q of queries) {
      const viaGet = await get(server.url, `/v2/products?q=${encodeURIComponent(q)}&limit=50`, key);
      const viaPost = await post(server.url, '/v2/products/search', key, {
        query: q,
        mode: 'keyword',
        pagination: { limit: 50 },
      });
      const ids = (res: { body: { data?: unknown } }) => (res.body.data as Product[]).map((p) => p.id);
      expect(ids(viaGet), q).toEqual(ids(viaPost));
      expect((viaGet.body.pagination as { total: number }).total, q).toBe(
        (viaPost.body.pagination as { total: number }).total,
      );
    }
  });

  it('keyword search does not fall back to products with any of the words: total counts full matches', async () => {
    // no product is both a dishwasher and a television
    for (const q of ['dishwasher television', 'bosch oled']) {
      const viaGet = await get(server.url, `/v2/products?q=${encodeURIComponent(q)}`, key);
      expect(names(viaGet), q).toEqual([]);
      expect((viaGet.body.pagination as { total: number }).total, q).toBe(0);
      const viaPost = await post(server.url, '/v2/products/search', key, { query: q });
      expect((viaPost.body.pagination as { total: number }).total, q).toBe(0);
    }
    const res = await get(server.url, '/v2/products?q=stainless%20dishwasher', key);
    expect((res.body.pagination as { total: number }).total).toBe(names(res).length);
    expect(names(res).every((n) => /stainless/i.test(n) && /dishwasher/i.test(n))).toBe(true);
  });

  it('a need-phrased keyword query no product fully matches says so and offers the semantic reading', async () => {
    const q = 'tired of scrubbing plates by hand every night';
    type Miss = {
      mode: string;
      full_match: boolean;
      note: string;
      suggestion: { mode: string; types: { slug: string; confidence: number }[] };
    };
    for (const res of [
      await get(server.url, `/v2/products?q=${encodeURIComponent(q)}`, key),
      await post(server.url, '/v2/products/search', key, { query: q, mode: 'keyword' }),
    ]) {
      expect(names(res)).toEqual([]);
      expect((res.body.pagination as { total: number }).total).toBe(0);
      const miss = (res.body.meta as { interpretation: Miss }).interpretation;
      expect(miss).toMatchObject({ mode: 'keyword', full_match: false, suggestion: { mode: 'semantic' } });
      expect(miss.suggestion.types[0]?.slug).toBe('dishwasher');
      expect(miss.note).toMatch(
        /^No product matches every word of the query.*Dishwasher \d\.\d\d.*semantic-search/,
      );
    }
    // a query with full matches carries no interpretation in keyword mode
    const hit = await get(server.url, '/v2/products?q=dishwasher', key);
    expect((hit.body.meta as Record<string, unknown>).interpretation).toBeUndefined();
  });

  it('a model number written with separators, spaces or another case finds the model in every mode', async () => {
    const bosch = 'Bosch 800 Series SHPM88Z75N Dishwasher Stainless';
    for (const q of ['SHPM-88Z75N', 'shpm 88z75n', 'SHPM.88Z75N', 'shpm/88z75n', 'SHPM88Z75N']) {
      expect(names(await get(server.url, `/v2/products?q=${encodeURIComponent(q)}`, key))[0], q).toBe(bosch);
      for (const mode of ['keyword', 'semantic', 'hybrid'])
        expect(
          names(await post(server.url, '/v2/products/search', key, { query: q, mode }))[0],
          `${mode} ${q}`,
        ).toBe(bosch);
    }
    // the start of a model code names its model family
    expect(names(await get(server.url, '/v2/products?q=WF45-R6100', key))).toHaveLength(2);
  });

  it('pages with offset and with cursors, every pagination field set', async () => {
    const first = await post(server.url, '/v2/products/search', key, {
      filters: { product_type: ['tv'] },
      sort: { field: 'name', order: 'asc' },
      pagination: { limit: 3 },
    });
    expect(first.body.pagination).toMatchObject({ total: 4, limit: 3, offset: 0, page: 1, hasMore: true });
    const cursor = (first.body.pagination as { nextCursor: string }).nextCursor;
    const second = await post(server.url, '/v2/products/search', key, {
      filters: { product_type: ['tv'] },
      sort: { field: 'name', order: 'asc' },
      pagination: { limit: 3, cursor },
    });
    expect(names(second)).toEqual(['TCL 65 inch 4K UHD Google TV 65S450G']);
    expect(second.body.pagination).toMatchObject({ offset: 3, page: 2, hasMore: false, nextCursor: null });
    const byOffset = await post(server.url, '/v2/products/search', key, {
      filters: { product_type: ['tv'] },
      sort: { field: 'name', order: 'asc' },
      pagination: { limit: 3, offset: 3 },
    });
    expect(names(byOffset)).toEqual(names(second));
    expectError(
      await post(server.url, '/v2/products/search', key, { pagination: { cursor: 'bm90LWEtY3Vyc29y' } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await post(server.url, '/v2/products/search', key, { mode: 'fuzzy' }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('semantic search understands type, price and spec constraints and says so in meta.interpretation', async () => {
    const res = await post(server.url, '/v2/products/semantic-search', key, {
      query: 'quiet dishwasher under $800 with a third rack',
    });
    const data = expectOk<Product[]>(res);
    const interpretation = (res.body.meta as { interpretation: Record<string, unknown> }).interpretation;
    expect(interpretation).toMatchObject({
      product_type: { slug: 'dishwasher' },
      price: { max: 800 },
      specs: expect.arrayContaining([
        expect.objectContaining({ key: 'third_rack', value: true }),
        expect.objectContaining({ key: 'noise_level', max: expect.any(Number) }),
      ]),
      embeddings: 'builtin',
    });
    // "quiet" ranks rather than filters: the quiet one first, the louder one after it
    expect(data.map((p) => p.name)).toEqual([
      'Bosch 800 Series SHPM88Z75N Dishwasher Stainless',
      'Whirlpool WDT730PAHZ Dishwasher Stainless',
    ]);
    expect(interpretation.specs).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: 'noise_level', soft: true })]),
    );
    expect(data[0]?._score).toEqual(expect.any(Number));

    const tv = await post(server.url, '/v2/products/semantic-search', key, {
      query: '65 inch oled tv between 1000 and 2000',
    });
    expect(names(tv)).toEqual(['Sony Bravia 65 inch OLED 4K TV XR65A80L']);
    expect((tv.body.meta as { interpretation: { price: unknown } }).interpretation.price).toEqual({
      min: 1000,
      max: 2000,
    });
  });

  it('regression: a spec range in the interpretation carries its unit (MCP showed "Noise level ≤ 44" without dBA)', async () => {
    const res = await post(server.url, '/v2/products/semantic-search', key, { query: 'quiet dishwasher' });
    expectOk<Product[]>(res);
    const { specs } = (res.body.meta as { interpretation: { specs: Record<string, unknown>[] } })
      .interpretation;
    expect(specs).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: 'noise_level', unit: 'dBA', soft: true })]),
    );
    const tv = await post(server.url, '/v2/products/semantic-search', key, { query: '65 inch oled tv' });
    const tvSpecs = (tv.body.meta as { interpretation: { specs: Record<string, unknown>[] } }).interpretation
      .specs;
    expect(tvSpecs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'screen_size', unit: 'in', min: expect.any(Number) }),
      ]),
    );
  });

  it('semantic search finds the type a need describes and shows the types considered with confidence and why', async () => {
    const res = await post(server.url, '/v2/products/semantic-search', key, {
      query: 'tired of scrubbing plates by hand every night',
    });
    const data = expectOk<Product[]>(res);
    const { types } = (
      res.body.meta as {
        interpretation: { types: { slug: string; confidence: number; matched: string[] }[] };
      }
    ).interpretation;
    expect(types[0]).toMatchObject({ slug: 'dishwasher', confidence: expect.any(Number) });
    expect(types[0]!.confidence).toBeGreaterThan(0.5);
    expect(types[0]!.matched.join(' ')).toMatch(/plates/);
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((p) => p.product_type?.slug === 'dishwasher')).toBe(true);
  });

  it('semantic and hybrid search answer in every format (json, schemaorg, ai) with the interpretation', async () => {
    for (const format of ['json', 'schemaorg', 'ai']) {
      const semantic = await post(server.url, '/v2/products/semantic-search', key, {
        query: 'quiet dishwasher',
        format,
      });
      expect(semantic.status, format).toBe(200);
      expect((semantic.body.data as unknown[]).length, format).toBeGreaterThan(0);
      expect((semantic.body.meta as { interpretation: unknown }).interpretation, format).toBeDefined();
      const hybrid = await post(server.url, '/v2/products/search', key, {
        query: 'fridge',
        mode: 'hybrid',
        format,
        facets: ['brand'],
      });
      expect(hybrid.status, format).toBe(200);
      expect(hybrid.body.facets, format).toHaveProperty('brand');
    }
    const ai = await post(server.url, '/v2/products/semantic-search', key, { query: 'fridge', format: 'ai' });
    expect(JSON.stringify(ai.body.data)).not.toContain('"specifications"');
    const ld = await post(server.url, '/v2/products/semantic-search', key, {
      query: 'fridge',
      format: 'schemaorg',
    });
    expect((ld.body.data as { '@type': string }[])[0]?.['@type']).toBe('Product');
    const bad = await post(server.url, '/v2/products/semantic-search', key, {
      query: 'fridge',
      format: 'xml',
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/json.*schemaorg.*ai/);
  });

  it('drops only the understood spec constraints that no product meets, and says which', async () => {
    const res = await post(server.url, '/v2/products/semantic-search', key, { query: '8k oled tv' });
    const interpretation = (res.body.meta as { interpretation: { relaxed: string[]; specs: unknown[] } })
      .interpretation;
    expect(interpretation.specs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'resolution', value: '8K' }),
        expect.objectContaining({ key: 'panel_type', value: 'OLED' }),
      ]),
    );
    // no TV is 8K; the type and the rest still hold, and similarity puts the OLED first
    expect(interpretation.relaxed).toContain('resolution');
    expect(names(res)[0]).toBe('Sony Bravia 65 inch OLED 4K TV XR65A80L');
    expect(names(res).length).toBeGreaterThan(0);
  });

  it('hybrid mode answers with the keyword full matches first, in keyword order', async () => {
    const all = { data_tier: [1, 2, 3, 4] };
    const keyword = names(
      await post(server.url, '/v2/products/search', key, { query: 'stainless dishwasher', filters: all }),
    );
    const hybrid = names(
      await post(server.url, '/v2/products/search', key, {
        query: 'stainless dishwasher',
        mode: 'hybrid',
        filters: all,
      }),
    );
    expect(keyword.length).toBeGreaterThan(0);
    expect(hybrid.slice(0, keyword.length)).toEqual(keyword);
  });

  it('hybrid mode finds products by meaning and by typo', async () => {
    const res = await post(server.url, '/v2/products/search', key, {
      query: 'fridge',
      mode: 'hybrid',
      facets: ['brand'],
    });
    expect(names(res).slice(0, 2).sort()).toEqual([
      'Frigidaire Top Freezer Refrigerator FFTR1835VW White',
      'LG French Door Refrigerator LRFXS2503S Stainless',
    ]);
    expect((res.body.meta as { interpretation: { mode: string } }).interpretation.mode).toBe('hybrid');
  });
});
