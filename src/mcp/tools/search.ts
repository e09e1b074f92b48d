import { z } from 'zod';
import type { Product } from '../../schemas/index.js';
import {
  defineTool,
  InvalidArgument,
  ok,
  ProductRef,
  productLine,
  productRef,
  QuotaOut,
  quotaLine,
  quotaOf,
  type ToolContext,
  typeSlug,
} from '../tool-kit.js';

const Price = z.number().min(0).max(10_000_000);

/** "product_type=Dishwasher, price=≤ $800, leftover=quiet": the interpretation in a few tokens. */
export function describeInterpretation(interpretation: Record<string, unknown>): string {
  const show = (v: unknown): string => {
    if (Array.isArray(v)) return v.map(show).join(' ');
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.name === 'string') return o.name;
      if ('min' in o || 'max' in o)
        return [o.min != null && `≥ $${o.min}`, o.max != null && `≤ $${o.max}`].filter(Boolean).join(' ');
      return Object.entries(o)
        .map(([k, x]) => `${k} ${show(x)}`)
        .join(', ');
    }
    return String(v);
  };
  return Object.entries(interpretation)
    .filter(
      ([k, v]) => v !== null && v !== undefined && k !== 'embeddings' && !(Array.isArray(v) && !v.length),
    )
    .map(([k, v]) => `${k}=${show(v)}`)
    .join(', ');
}

/** search_products (keyword, with optional filters) and semantic_search (natural language). */
export function registerSearchTools({ server, client }: ToolContext): void {
  defineTool(
    server,
    'search_products',
    {
      title: 'Search products',
      description:
        'Keyword search of the Shelf catalog by name, brand, model number or category words, e.g. "bosch dishwasher" or "SHPM88Z75N". ' +
        'Optional filters narrow by brand, product type, price (USD) and stock. Returns short summaries with the best current price and the id ' +
        'to pass to lookup_product, compare_prices or get_product_specs. For questions in plain language ("a quiet dishwasher under $800") use semantic_search.',
      input: {
        query: z.string().trim().min(1).max(200).describe('words to search for'),
        brand: z
          .string()
          .trim()
          .min(1)
          .max(80)
          .optional()
          .describe('only this brand (name or slug, e.g. "Bosch")'),
        product_type: z
          .string()
          .trim()
          .min(1)
          .max(80)
          .optional()
          .describe('only this product type (name or slug, e.g. "dishwasher", "robot vacuum")'),
        min_price: Price.optional().describe('lowest best price in USD'),
        max_price: Price.optional().describe('highest best price in USD'),
        in_stock: z.boolean().optional().describe('true: only products some retailer has in stock'),
        limit: z.number().int().min(1).max(20).default(5).describe('how many results, 1-20 (default 5)'),
      },
      output: {
        products: z.array(ProductRef),
        total: z.number().describe('how many products match in all'),
        quota: QuotaOut,
      },
    },
    async ({ query, brand, product_type, min_price, max_price, in_stock, limit }) => {
      if (min_price !== undefined && max_price !== undefined && min_price > max_price)
        throw new InvalidArgument('min_price', 'must not be greater than max_price');
      const filtered = brand !== undefined || product_type !== undefined || in_stock !== undefined;
      // Plain keyword queries use the cheap GET endpoint; filters need advanced search.
      const result = filtered
        ? await client.post<Product[]>('v2/products/search', {
            query,
            mode: 'keyword',
            filters: {
              ...(brand ? { brand: [typeSlug(brand)] } : {}),
              ...(product_type ? { product_type: [typeSlug(product_type)] } : {}),
              ...(min_price !== undefined || max_price !== undefined
                ? {
                    price: {
                      ...(min_price !== undefined ? { min: min_price } : {}),
                      ...(max_price !== undefined ? { max: max_price } : {}),
                    },
                  }
                : {}),
              ...(in_stock !== undefined ? { in_stock } : {}),
            },
            pagination: { limit },
          })
        : await client.get<Product[]>('v2/products', { q: query, limit, min_price, max_price });
      const products = result.data.map(productRef);
      const total = result.pagination?.total ?? products.length;
      const quota = quotaOf(result);
      const text = products.length
        ? [
            `${total} match "${query}"${total > products.length ? `, top ${products.length}` : ''}:`,
            ...products.map(productLine),
            quotaLine(quota),
          ]
        : [
            `No products match "${query}"${filtered ? ' with these filters' : ''}. Try fewer words or semantic_search.`,
            quotaLine(quota),
          ];
      return ok(text.filter(Boolean).join('\n'), { products, total, quota });
    },
  );

  defineTool(
    server,
    'semantic_search',
    {
      title: 'Semantic product search',
      description:
        'Natural-language product search: describe the need ("quiet dishwasher under $800 with a third rack", "cordless drill for light DIY") ' +
        'and get the best matching products with a relevance score and what the query was understood to mean (product type, brand, price bounds, specs). ' +
        'Use search_products instead for exact names or model numbers.',
      input: {
        query: z.string().trim().min(2).max(300).describe('the need, in plain language'),
        limit: z.number().int().min(1).max(20).default(5).describe('how many results, 1-20 (default 5)'),
      },
      output: {
        products: z.array(ProductRef.extend({ score: z.number().nullable() })),
        interpretation: z
          .record(z.string(), z.unknown())
          .nullable()
          .describe('what the query was understood to mean'),
        quota: QuotaOut,
      },
    },
    async ({ query, limit }) => {
      const result = await client.post<Product[]>('v2/products/semantic-search', { query, limit });
      const products = result.data.map((p) => ({
        ...productRef(p),
        score: typeof p._score === 'number' ? Math.round(p._score * 1000) / 1000 : null,
      }));
      const interpretation = (result.meta.interpretation as Record<string, unknown> | undefined) ?? null;
      const understood = interpretation ? describeInterpretation(interpretation) : '';
      const quota = quotaOf(result);
      const text = [
        understood ? `Understood: ${understood}` : '',
        products.length ? products.map(productLine).join('\n') : `No products match "${query}".`,
        quotaLine(quota),
      ];
      return ok(text.filter(Boolean).join('\n'), { products, interpretation, quota });
    },
  );
}
