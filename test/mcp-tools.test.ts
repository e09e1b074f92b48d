import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiFetcher, createMcpServer, TOOL_NAMES } from '../src/mcp/index.js';

/**
 * Tool logic against the REST contract (spec §2 + DESIGN.md): a scripted API answers with the
 * documented shapes and headers, so each tool's arithmetic, filtering, rendering and error
 * mapping is pinned independently of the catalog. test/mcp-transports.test.ts and
 * test/mcp-token-budget.test.ts run the same tools against the real API.
 */

/** What a test looks at in one REST request the tools made. */
type ApiRequest = { method: string; url: URL; headers: Record<string, string>; body?: string };

type Reply = { status?: number; body: unknown; headers?: Record<string, string> };
type Route = (req: ApiRequest) => Reply | undefined;

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const P3 = '33333333-3333-4333-8333-333333333333';

const envelope = (data: unknown, extra: Record<string, unknown> = {}) => ({
  success: true,
  data,
  meta: {
    requestId: 'req_test',
    timestamp: '2026-11-21T00:00:00Z',
    responseTime: 1,
    version: '2.0.0',
    cached: false,
  },
  ...extra,
});
const failure = (code: string, message: string, extra: Record<string, unknown> = {}) => ({
  success: false,
  error: { code, message, userMessage: message, details: null, retryable: false, retryAfter: null, ...extra },
  meta: {},
});

function product(id: string, over: Record<string, unknown> = {}) {
  return {
    id,
    name: 'Bosch 800 Series SHPM88Z75N Dishwasher',
    slug: 'bosch-800-series-shpm88z75n-dishwasher',
    gtin: '825225978428',
    model_number: 'SHPM88Z75N',
    current_best_price: 949.99,
    min_price: 949.99,
    max_price: 1099,
    brand: { id: 'b-bosch', name: 'Bosch', slug: 'bosch' },
    category: { name: 'Kitchen Appliances' },
    product_type: { id: 'pt-dw', name: 'Dishwasher', slug: 'dishwasher' },
    specifications: { noise_level: '42 dBA', place_settings: '16', third_rack: true, width: '24 in' },
    variant_attributes: { color: 'Stainless steel' },
    offers: [
      { retailer_name: 'Northgate Home', price: 999, in_stock: true, retailer_url: 'https://n.example/1' },
      { retailer_name: 'Cartwell', price: 899, in_stock: false, retailer_url: 'https://c.example/1' },
      { retailer_name: 'VoltMart', price: 949.99, in_stock: true, retailer_url: 'https://v.example/1' },
      { retailer_name: 'HomeDepot-ish', price: 1099, in_stock: true, retailer_url: null },
    ],
    ...over,
  };
}

describe('MCP tools against the REST contract', () => {
  let routes: Route[];
  let requests: ApiRequest[];
  let client: Client;

  const fetcher: ApiFetcher = async (request) => {
    const text = await request.text();
    const req: ApiRequest = {
      method: request.method,
      url: new URL(request.url),
      headers: Object.fromEntries(request.headers),
      ...(text ? { body: text } : {}),
    };
    requests.push(req);
    for (const route of routes) {
      const reply = route(req);
      if (reply)
        return new Response(JSON.stringify(reply.body), {
          status: reply.status ?? 200,
          headers: {
            'content-type': 'application/json',
            'x-ratelimit-remaining': '41',
            'x-monthlyquota-remaining': '49000',
            ...reply.headers,
          },
        });
    }
    return new Response(JSON.stringify(failure('ROUTE_NOT_FOUND', 'no route')), {
      status: 404,
      headers: { 'content-type': 'application/json' },
    });
  };
  const on =
    (method: string, path: string | RegExp, reply: Reply | ((req: ApiRequest) => Reply)): Route =>
    (req) =>
      req.method === method &&
      (typeof path === 'string' ? req.url.pathname === path : path.test(req.url.pathname))
        ? typeof reply === 'function'
          ? reply(req)
          : reply
        : undefined;

  beforeEach(async () => {
    routes = [];
    requests = [];
    const server = createMcpServer('http://api.test/', 'sk_shelf_test_abc', fetcher);
    const [a, b] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'tools-test', version: '1' });
    await Promise.all([server.connect(a), client.connect(b)]);
  });
  afterEach(async () => client.close());

  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    return {
      isError: r.isError === true,
      text: (r.content as { text: string }[])[0]?.text ?? '',
      data: r.structuredContent as Record<string, unknown> & { quota?: unknown },
    };
  };

  it('sends the caller key on every request and reports the quota from the rate-limit headers', async () => {
    routes.push(on('GET', `/v2/products/${P1}`, { body: envelope(product(P1)) }));
    const r = await call('get_product_specs', { product_id: P1 });
    expect(requests[0]?.headers['x-api-key']).toBe('sk_shelf_test_abc');
    expect(r.data.quota).toEqual({ minute_remaining: 41, month_remaining: 49000 });
    expect(r.text).toContain('quota left: 41/min, 49000/month');
  });

  it('compare_prices: in-stock offers cheapest first, out of stock last, saving against the average', async () => {
    routes.push(on('GET', `/v2/products/${P1}`, { body: envelope(product(P1)) }));
    const r = await call('compare_prices', { product_id: P1 });
    expect(requests[0]?.url.searchParams.get('include_offers')).toBe('true');
    expect(r.data.offers).toEqual([
      { retailer: 'VoltMart', price: 949.99, in_stock: true, url: 'https://v.example/1', vs_average: -36.76 },
      {
        retailer: 'Northgate Home',
        price: 999,
        in_stock: true,
        url: 'https://n.example/1',
        vs_average: 12.25,
      },
      { retailer: 'HomeDepot-ish', price: 1099, in_stock: true, url: null, vs_average: 112.25 },
      { retailer: 'Cartwell', price: 899, in_stock: false, url: 'https://c.example/1', vs_average: -87.75 },
    ]);
    expect(r.data.average_price).toBe(986.75);
    expect(r.data.cheapest_in_stock).toEqual({
      retailer: 'VoltMart',
      price: 949.99,
      url: 'https://v.example/1',
      saving_vs_average: 36.76,
      saving_percent: 3.7,
    });
    expect(r.text).toContain('Cheapest in stock: VoltMart $949.99, saves $36.76 (3.7%) vs average');
  });

  it('lookup_product by barcode and by model number (with brand hint) uses the dedicated endpoints', async () => {
    routes.push(
      on('GET', '/v2/products/barcode/825225978428', {
        body: envelope({
          id: P1,
          gtin: '825225978428',
          name: 'Bosch SHPM88Z75N',
          brand: 'Bosch',
          category: 'Kitchen Appliances',
          product_type: 'Dishwasher',
          image_url: null,
          current_best_price: 949.99,
          specifications: { noise_level: '42 dBA' },
          retailers: [
            { name: 'Northgate Home', price: 999, in_stock: true, url: 'https://northgate.example/1' },
            { name: 'VoltMart', price: 949.99, in_stock: true, url: null },
          ],
        }),
      }),
      on('GET', '/v2/products/lookup', (req) => ({
        body: envelope({
          match_type: req.url.searchParams.get('brand') === 'bosch' ? 'exact' : 'fuzzy',
          product: product(P1),
          decoded: {
            brand: 'Bosch',
            productType: 'dishwasher',
            modelNumber: 'SHPM88Z75N',
            specs: {},
            confidence: 0.95,
          },
        }),
      })),
    );
    const byBarcode = await call('lookup_product', { barcode: '825225978428' });
    expect(byBarcode.data.product).toMatchObject({
      gtin: '825225978428',
      best_price: 949.99,
      offers: [
        { retailer: 'VoltMart', price: 949.99, in_stock: true, url: null },
        // the barcode result's offer url reaches the agent
        { retailer: 'Northgate Home', price: 999, url: 'https://northgate.example/1' },
      ],
    });
    const byModel = await call('lookup_product', { model_number: 'SHPM88Z75N', brand: 'bosch' });
    expect(requests.at(-1)?.url.search).toBe('?model=SHPM88Z75N&brand=bosch');
    expect(byModel.data.match).toEqual({ type: 'exact', confidence: 0.95 });
    expect(byModel.data.product).toMatchObject({ id: P1, offer_count: 4 });
    const fuzzy = await call('lookup_product', { model_number: 'SHPM88Z75' });
    expect(fuzzy.text).toContain('match: fuzzy (not exact)');
  });

  it('lookup_product asks for exactly one identifier and validates bounds before any request', async () => {
    const two = await call('lookup_product', { id: P1, barcode: '825225978428' });
    expect(two.isError).toBe(true);
    expect(two.text).toMatch(
      /^INVALID_ARGUMENT: id\|slug\|barcode\|model_number: give exactly one identifier \(got 2\)/,
    );
    const badBarcode = await call('lookup_product', { barcode: '12ab' });
    expect(badBarcode.isError).toBe(true);
    expect(badBarcode.text).toMatch(/barcode/);
    const tooMany = await call('search_products', { query: 'tv', limit: 500 });
    expect(tooMany.isError).toBe(true);
    expect(requests).toHaveLength(0);
  });

  it('search_products uses GET for plain words and advanced search for filters', async () => {
    routes.push(
      on('GET', '/v2/products', {
        body: envelope([product(P1)], { pagination: { total: 7, hasMore: true } }),
      }),
      on('POST', '/v2/products/search', {
        body: envelope([product(P2, { name: 'Bosch 300 Dishwasher' })], { pagination: { total: 1 } }),
      }),
    );
    const plain = await call('search_products', { query: 'bosch dishwasher', max_price: 1000 });
    expect(Object.fromEntries(requests[0]?.url.searchParams ?? [])).toEqual({
      q: 'bosch dishwasher',
      limit: '5',
      max_price: '1000',
    });
    expect(plain.text).toMatch(
      /^7 match "bosch dishwasher", top 1:\n1\. Bosch 800 Series SHPM88Z75N Dishwasher — \$949\.99 · id 1111/,
    );
    const filtered = await call('search_products', {
      query: 'quiet',
      brand: 'Bosch',
      product_type: 'Dish Washer',
      in_stock: true,
    });
    expect(JSON.parse(requests[1]?.body ?? '{}')).toEqual({
      query: 'quiet',
      mode: 'keyword',
      filters: { brand: ['bosch'], product_type: ['dish-washer'], in_stock: true },
      pagination: { limit: 5 },
    });
    expect(filtered.data).toMatchObject({ total: 1, products: [{ id: P2 }] });
  });

  it('search_products with no full match names the types semantic_search reads the need as', async () => {
    routes.push(
      on('GET', '/v2/products', {
        body: envelope([], {
          meta: {
            requestId: 'r',
            interpretation: {
              mode: 'keyword',
              full_match: false,
              note: 'No product matches every word of the query …',
              suggestion: {
                mode: 'semantic',
                types: [{ slug: 'dishwasher', name: 'Dishwasher', confidence: 0.9 }],
              },
            },
          },
          pagination: { total: 0 },
        }),
      }),
    );
    const r = await call('search_products', { query: 'tired of scrubbing plates' });
    expect(r.text).toMatch(
      /^No products match "tired of scrubbing plates"\. Try fewer words or semantic_search \(it reads the query as a need for: Dishwasher\)\./,
    );
  });

  it('semantic_search returns scores and what the query was understood to mean', async () => {
    routes.push(
      on('POST', '/v2/products/semantic-search', {
        body: envelope([{ ...product(P1), _score: 0.91234 }], {
          meta: {
            requestId: 'r',
            interpretation: { product_type: 'dishwasher', price_max: 1000, leftover: ['quiet'] },
          },
        }),
      }),
    );
    const r = await call('semantic_search', { query: 'quiet dishwasher under $1000' });
    expect(JSON.parse(requests[0]?.body ?? '{}')).toEqual({
      query: 'quiet dishwasher under $1000',
      limit: 5,
    });
    expect(r.data).toMatchObject({
      products: [{ id: P1, score: 0.912 }],
      interpretation: { product_type: 'dishwasher' },
    });
    expect(r.text).toMatch(/^Understood: product_type=dishwasher, price_max=1000, leftover=quiet\n1\. /);
  });

  it('semantic_search renders nested interpretation objects compactly', async () => {
    routes.push(
      on('POST', '/v2/products/semantic-search', {
        body: envelope([], {
          meta: {
            interpretation: {
              product_type: { id: 'x', slug: 'boiler', name: 'Boiler' },
              price: { max: 2000 },
              leftover: ['quiet'],
              mode: 'semantic',
              embeddings: 'builtin',
            },
          },
        }),
      }),
    );
    const r = await call('semantic_search', { query: 'quiet boiler under $2000' });
    expect(r.text).toMatch(
      /^Understood: product_type=Boiler, price=≤ \$2000, leftover=quiet, mode=semantic\nNo products match/,
    );
  });

  it('get_price_history summarises and keeps at most 24 points, and says how the price compares', async () => {
    const history = Array.from({ length: 120 }, (_, i) => ({
      date: new Date(Date.UTC(2026, 6, 1) + i * 86_400_000).toISOString().slice(0, 10),
      price: i === 40 ? 799 : 999 - (i % 7),
    }));
    routes.push(
      on('GET', `/v2/products/${P1}/prices`, {
        body: envelope({
          product_id: P1,
          product_name: 'Bosch SHPM88Z75N',
          current: {
            best_price: 949.99,
            retailer_count: 1,
            retailers: [
              {
                retailer: 'VoltMart',
                price: 949.99,
                in_stock: true,
                url: 'https://v.example/1',
                last_seen_at: '2026-11-20T00:00:00Z',
              },
            ],
          },
          summary: { min_ever: 799, max_ever: 999, avg_30d: 990, trend: 'falling' },
          history,
          verdict: {
            kind: 'below_average',
            text: '4 % below its 30-day average',
            window_days: 120,
            window_low: 799,
            window_high: 999,
            vs_avg_30d_percent: -4.04,
            near_low: false,
          },
        }),
      }),
    );
    const r = await call('get_price_history', { product_id: P1, days: 120 });
    expect(requests[0]?.url.search).toBe('?days=120');
    const points = r.data.history as { price: number }[];
    expect(points.length).toBeLessThanOrEqual(24);
    expect(Math.min(...points.map((p) => p.price))).toBe(799);
    expect(r.data.retailers).toEqual([
      { retailer: 'VoltMart', price: 949.99, in_stock: true, url: 'https://v.example/1' },
    ]);
    expect(r.text).toContain('verdict: 4 % below its 30-day average; 18.9% above the period low');
    expect(r.data.verdict).toEqual({
      kind: 'below_average',
      text: '4 % below its 30-day average',
      near_low: false,
      vs_avg_30d_percent: -4.04,
    });
  });

  it('find_alternatives filters similar products to cheaper ones of other brands and names a newer model', async () => {
    routes.push(
      on('GET', `/v2/products/${P1}`, { body: envelope(product(P1)) }),
      on('GET', `/v2/products/${P1}/relationships`, {
        body: envelope({
          productId: P1,
          successor: {
            id: P3,
            name: 'Bosch 800 Series 2027',
            current_best_price: 1099,
            brand: { id: 'b-bosch', name: 'Bosch' },
          },
          predecessor: null,
          similar: [
            {
              id: P2,
              name: 'Miele G 5008',
              current_best_price: 899,
              brand: { id: 'b-miele', name: 'Miele' },
            },
            { id: P3, name: 'Bosch 500', current_best_price: 749, brand: { id: 'b-bosch', name: 'Bosch' } },
            {
              id: '44444444-4444-4444-8444-444444444444',
              name: 'LG QuadWash',
              current_best_price: 1199,
              brand: { id: 'b-lg', name: 'LG' },
            },
          ],
          consumables: [],
          series: [],
        }),
      }),
    );
    const r = await call('find_alternatives', { product_id: P1, cheaper: true, other_brand: true });
    expect(r.data.alternatives).toEqual([
      { id: P2, name: 'Miele G 5008', brand: 'Miele', best_price: 899, vs_product: -50.99 },
    ]);
    expect(r.data.newer_model).toMatchObject({ id: P3, vs_product: 149.01 });
    expect(r.data.source).toBe('similar');
    expect(r.text).toContain('Miele G 5008 — $899.00 (−$50.99)');
  });

  it('lookup_error_code finds a brand code in the overrides, ignores case and dashes, else lists known codes', async () => {
    routes.push(
      on('GET', '/v2/product-types/dishwasher/knowledge', {
        body: envelope({
          product_type: { id: 'pt-dw', name: 'Dishwasher', slug: 'dishwasher' },
          knowledge: [
            {
              type: 'error_code',
              title: 'Water not draining',
              content: 'The dishwasher cannot pump water out.',
              data: {
                code: 'DRAIN_FAILURE',
                canonical_issue: 'drain_failure',
                likely_causes: ['Clogged filter'],
                fixes: ['Clean the filter'],
                diy: true,
                severity: 'medium',
              },
              source: 'Shelf synthesis',
              brand_overrides: [
                {
                  brand: { id: 'b-bosch', name: 'Bosch', slug: 'bosch' },
                  type: 'error_code',
                  title: 'Bosch E24: waste water not draining',
                  content: 'Bosch shows E24 when water is not pumped out.',
                  data: {
                    code: 'E24',
                    canonical_issue: 'drain_failure',
                    likely_causes: ['Kinked drain hose'],
                    fixes: ['Check the drain hose'],
                    diy: true,
                    severity: 'medium',
                  },
                  source: 'Bosch manual',
                },
              ],
            },
          ],
        }),
      }),
    );
    const r = await call('lookup_error_code', { brand: 'Bosch', product_type: 'Dishwasher', code: 'e-24' });
    expect(requests[0]?.url.search).toBe('?type=error_code&brand=bosch');
    expect(r.data).toMatchObject({
      code: 'E24',
      title: 'Bosch E24: waste water not draining',
      likely_causes: ['Kinked drain hose'],
      fixes: ['Check the drain hose'],
      brand_specific: true,
      canonical_issue: 'drain_failure',
      diy: true,
    });
    expect(r.text).toMatch(/^E24 \(Bosch Dishwasher\): Bosch E24: waste water not draining\./);
    const generic = await call('lookup_error_code', {
      brand: 'Bosch',
      product_type: 'dishwasher',
      code: 'drain failure',
    });
    expect(generic.data).toMatchObject({ code: 'DRAIN_FAILURE', brand_specific: false });
    const unknown = await call('lookup_error_code', {
      brand: 'Bosch',
      product_type: 'dishwasher',
      code: 'X99',
    });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(
      /^NOT_FOUND: no error code "X99" is known for Bosch dishwashers; known codes: E24, DRAIN_FAILURE\./,
    );
    // regression: the advice pointed to search_products, which cannot find error codes
    expect(unknown.text).not.toContain('search_products');
    expect(unknown.text).toContain('get_product_knowledge');
  });

  it('regression: days=0 is the documented INVALID_ARGUMENT tool result, not a protocol error', async () => {
    for (const days of [0, 366, 1.5]) {
      const r = await call('get_price_history', { product_id: P1, days });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^INVALID_ARGUMENT: days: .+\nFix the argument/);
      expect(r.text).not.toContain('MCP error');
    }
    expect(requests).toHaveLength(0);
  });

  it('regression: find_alternatives does not offer a colour variant of the same model', async () => {
    const group = { product_group_id: 'g-shpm88' };
    routes.push(
      on('GET', `/v2/products/${P1}`, { body: envelope(product(P1, group)) }),
      on('GET', `/v2/products/${P1}/relationships`, { body: envelope({ productId: P1, similar: [] }) }),
      on('GET', '/v2/products', {
        body: envelope([
          product(P2, {
            ...group,
            name: 'Bosch 800 Series SHPM88Z79N Dishwasher, Black',
            current_best_price: 949,
          }),
          product(P3, { name: 'Miele G 5008', product_group_id: null, current_best_price: 899 }),
        ]),
      }),
    );
    const r = await call('find_alternatives', { product_id: P1 });
    expect((r.data.alternatives as { id: string }[]).map((a) => a.id)).toEqual([P3]);
    expect(r.data.source).toBe('same_type');
    expect(
      requests.find((q) => q.url.pathname === '/v2/products')?.url.searchParams.get('group_variants'),
    ).toBe('true');
    // the server instructions count this fallback as three requests
    expect(requests).toHaveLength(3);
  });

  it('get_product_knowledge on the Free plan is a tool error naming the Starter plan', async () => {
    routes.push(
      on('GET', `/v2/products/${P1}`, { body: envelope(product(P1)) }),
      on('GET', '/v2/product-types/dishwasher/knowledge', {
        status: 403,
        body: failure('PLAN_REQUIRED', 'knowledge requires the Starter plan or above; this key is on Free', {
          details: { requiredPlan: 'starter', currentPlan: 'free' },
        }),
      }),
    );
    const r = await call('get_product_knowledge', { product_id: P1 });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^PLAN_REQUIRED: .*Starter plan or above.*\nTell the user/);
    // regression: the plan was named twice ("… requires the Starter plan or above. Requires the Starter plan or above.")
    expect(r.text.match(/Starter plan or above/gi)).toHaveLength(1);
    expect(requests.at(-1)?.url.search).toBe('?brand=bosch');
  });

  it('get_product_knowledge keeps the asked topics, applies brand overrides and condenses data', async () => {
    const entry = (type: string, title: string, data: Record<string, unknown> = {}) => ({
      type,
      title,
      content: `${title}. `.repeat(40),
      data,
      source: 'manual',
    });
    routes.push(
      on('GET', '/v2/product-types/dishwasher/knowledge', {
        body: envelope({
          product_type: { id: 'pt-dw', name: 'Dishwasher', slug: 'dishwasher' },
          knowledge: [
            entry('error_code', 'E1'),
            entry('lifespan', 'How long', {
              years_low: 7,
              years_typical: 10,
              years_high: 13,
              factors: ['Hard water'],
            }),
            {
              ...entry('maintenance_schedule', 'Clean the filter', {
                interval_months: 1,
                tasks: ['Twist out the filter'],
              }),
              brand_overrides: [
                {
                  brand: { slug: 'bosch' },
                  type: 'maintenance_schedule',
                  title: 'Bosch filter',
                  content: 'Bosch: clean monthly.',
                  data: {},
                },
              ],
            },
            entry('tip', 'Tip 1'),
            entry('tip', 'Tip 2'),
            entry('tip', 'Tip 3'),
            entry('tip', 'Tip 4'),
          ],
        }),
      }),
    );
    const r = await call('get_product_knowledge', {
      product_type: 'dishwasher',
      brand: 'Bosch',
      topics: ['maintenance_schedule', 'lifespan', 'tip'],
    });
    const entries = r.data.entries as {
      type: string;
      title: string;
      content: string;
      facts: string;
      brand_specific: boolean;
    }[];
    expect(entries.map((e) => e.type)).toEqual(['maintenance_schedule', 'lifespan', 'tip', 'tip']);
    expect(entries[0]).toMatchObject({
      title: 'Bosch filter',
      brand_specific: true,
      facts: 'every 1 mo. tasks: Twist out the filter',
    });
    expect(entries[1]?.facts).toBe('7–13 years (typically 10). factors: Hard water');
    expect(entries[2]?.content.length).toBeLessThanOrEqual(221);
  });

  it('maps rate limiting to RATE_LIMITED with the seconds to wait (from the body or Retry-After)', async () => {
    routes.push(
      on('GET', `/v2/products/${P1}`, {
        status: 429,
        body: failure('RATE_LIMITED', 'rate limit of 10 per minute exceeded', { retryAfter: 23 }),
      }),
      on('GET', `/v2/products/${P2}`, {
        status: 429,
        body: { message: 'slow down' },
        headers: { 'retry-after': '9' },
      }),
    );
    const a = await call('compare_prices', { product_id: P1 });
    expect(a.text).toMatch(/^RATE_LIMITED: rate limit of 10 per minute exceeded\. Retry after 23 seconds\./);
    const b = await call('compare_prices', { product_id: P2 });
    expect(b.isError).toBe(true);
    expect(b.text).toMatch(/Retry after 9 seconds/);
  });

  it('an endpoint the server does not have yet is a clear NOT_AVAILABLE tool error', async () => {
    const r = await call('get_price_history', { product_id: P1 });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^NOT_AVAILABLE: this Shelf server does not provide this data yet\./);
  });

  it('any arguments to any tool give a result or a tool error, never a protocol error or a crash', async () => {
    // every endpoint answers as the contract says, with whatever data the fuzzed ids ask for
    routes.push(
      on('GET', /^\/v2\/products\/[^/]+$/, { body: envelope(product(P1)) }),
      on('GET', '/v2/products', { body: envelope([product(P1)], { pagination: { total: 1 } }) }),
    );
    const { tools } = await client.listTools();
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(P1),
      fc.constant('825225978428'),
      fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
    );
    for (const tool of tools) {
      const keys = Object.keys(tool.inputSchema.properties ?? {});
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(fc.constantFrom(...keys, 'extra'), value, { maxKeys: 4 }),
          async (args) => {
            const r = await client.callTool({ name: tool.name, arguments: args });
            const text = (r.content as { text: string }[])[0]?.text ?? '';
            if (r.isError) {
              expect(text, tool.name).toMatch(/^([A-Z_]+: |MCP error -32602: Input validation error)/);
              // INTERNAL would be a bug in the tool itself: the scripted API never fails
              expect(text, `${tool.name} ${JSON.stringify(args)}`).not.toMatch(/^INTERNAL/);
            } else expect(r.structuredContent, tool.name).toHaveProperty('quota');
          },
        ),
        { numRuns: 25 },
      );
    }
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
  });
});
