import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Product } from '../schemas/index.js';
import { type ApiResult, type RestClient, ShelfApiError } from './rest-client.js';

const Quota = z.object({ minute_remaining: z.number().nullable(), month_remaining: z.number().nullable() });

const ProductSummary = z.object({
  id: z.string(),
  name: z.string(),
  brand: z.string().nullable(),
  product_type: z.string().nullable(),
  model_number: z.string().nullable(),
  gtin: z.string().nullable(),
  best_price: z.number().nullable(),
  retailers: z
    .array(
      z.object({
        retailer: z.string(),
        price: z.number().nullable(),
        in_stock: z.boolean(),
        url: z.string().nullable(),
      }),
    )
    .optional(),
  specs: z.record(z.string(), z.unknown()).optional(),
});
type ProductSummary = z.infer<typeof ProductSummary>;

const money = (n: number | null) => (n === null ? 'n/a' : `$${n.toFixed(2)}`);

function summarize(p: Product, withSpecs: boolean): ProductSummary {
  return {
    id: p.id,
    name: p.name,
    brand: p.brand?.name ?? null,
    product_type: p.product_type?.name ?? null,
    model_number: p.model_number,
    gtin: p.gtin,
    best_price: p.current_best_price,
    ...(p.offers
      ? {
          retailers: p.offers.map((o) => ({
            retailer: o.retailer_name,
            price: o.price,
            in_stock: o.in_stock,
            url: o.retailer_url,
          })),
        }
      : {}),
    ...(withSpecs ? { specs: p.specifications } : {}),
  };
}

const quotaOf = (r: ApiResult<unknown>) => ({
  minute_remaining: r.quota.minuteRemaining,
  month_remaining: r.quota.monthRemaining,
});

/** A failed call as a tool error the model can act on (never a protocol error). */
export function toolError(error: unknown): CallToolResult {
  if (error instanceof ShelfApiError) {
    const wait = error.retryAfter ? ` Retry after ${error.retryAfter} seconds.` : '';
    return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}.${wait}` }] };
  }
  return { isError: true, content: [{ type: 'text', text: `INTERNAL: ${(error as Error).message}` }] };
}

/** Registers Shelf's tools on an MCP server; each calls the REST API through `client`. */
export function registerTools(server: McpServer, client: RestClient): void {
  server.registerTool(
    'search_products',
    {
      title: 'Search products',
      description:
        'Search the Shelf product catalog by name, brand, model number or category words (e.g. "bosch dishwasher", "65 inch oled tv"). Returns compact product summaries with the best current price; use lookup_product for full details.',
      inputSchema: {
        query: z.string().min(1).max(200).describe('what to search for'),
        limit: z.number().int().min(1).max(20).default(5).describe('how many results (1-20, default 5)'),
      },
      outputSchema: { products: z.array(ProductSummary), total: z.number(), quota: Quota },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, limit }) => {
      try {
        const result = await client.get<Product[]>('v2/products', { q: query, limit });
        const products = result.data.map((p) => summarize(p, false));
        const lines = products.map(
          (p, i) =>
            `${i + 1}. ${p.name} | ${p.brand ?? '?'} | ${p.model_number ?? '-'} | ${money(p.best_price)} | id ${p.id}`,
        );
        return {
          content: [
            {
              type: 'text',
              text: products.length
                ? `${result.pagination?.total ?? products.length} found:\n${lines.join('\n')}`
                : `No products match "${query}".`,
            },
          ],
          structuredContent: {
            products,
            total: result.pagination?.total ?? products.length,
            quota: quotaOf(result),
          },
        };
      } catch (error) {
        return toolError(error);
      }
    },
  );

  server.registerTool(
    'lookup_product',
    {
      title: 'Look up a product',
      description:
        'Get one product by its Shelf id (UUID from search_products) or slug, with specifications and the offers of every retailer (price, stock, link).',
      inputSchema: {
        id: z.string().min(1).max(200).describe('product id (UUID) or slug'),
      },
      outputSchema: { product: ProductSummary, quota: Quota },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ id }) => {
      try {
        const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
        const path = isUuid
          ? `v2/products/${encodeURIComponent(id)}`
          : `v2/products/by-slug/${encodeURIComponent(id)}`;
        const result = await client.get<Product>(path, { include_offers: true });
        const product = summarize(result.data, true);
        const offers = (product.retailers ?? []).map(
          (o) => `  ${o.retailer}: ${money(o.price)}${o.in_stock ? '' : ' (out of stock)'}`,
        );
        const specs = Object.entries(product.specs ?? {})
          .slice(0, 12)
          .map(([k, v]) => `${k}=${String(v)}`);
        const text = [
          `${product.name} (${product.brand ?? 'unknown brand'}, ${product.product_type ?? 'unclassified'})`,
          `model ${product.model_number ?? '-'}, GTIN ${product.gtin ?? '-'}, best price ${money(product.best_price)}`,
          specs.length ? `specs: ${specs.join('; ')}` : '',
          offers.length ? `offers:\n${offers.join('\n')}` : '',
        ]
          .filter(Boolean)
          .join('\n');
        return { content: [{ type: 'text', text }], structuredContent: { product, quota: quotaOf(result) } };
      } catch (error) {
        return toolError(error);
      }
    },
  );
}
