import type { ProductListItem, SearchHit, SemanticHit } from '@shelf/client';
import { z } from 'zod';
import {
  answer,
  defineTool,
  InvalidArgument,
  jsonList,
  NameOrSlug,
  ProductRef,
  productLine,
  productRef,
  QuotaOut,
  quotaOf,
  type ToolContext,
  typeSlug,
} from '../tool-kit.js';

const Price = z.number().min(0).max(10_000_000);

/**
 * "product_type=Dishwasher, price=≤ $800, specs=Noise level ≤ 40 dBA; Width 23.28–24.72 in":
 * the interpretation in a few tokens. Only prices carry a dollar sign; a spec shows its label,
 * value or range and unit; ids and the words each part came from are left out.
 */
export function describeInterpretation(interpretation: Record<string, unknown>): string {
  const range = (o: Record<string, unknown>, money: boolean): string => {
    const unit = typeof o.unit === 'string' && o.unit ? ` ${o.unit}` : '';
    const n = (x: unknown) => (money ? `$${x}` : `${x}${unit}`);
    if (o.min != null && o.max != null) return money ? `${n(o.min)}–${n(o.max)}` : `${o.min}–${o.max}${unit}`;
    if (o.min != null) return `≥ ${n(o.min)}`;
    if (o.max != null) return `≤ ${n(o.max)}`;
    return '';
  };
  const show = (v: unknown, money: boolean): string => {
    if (Array.isArray(v)) return v.map((x) => show(x, money)).join('; ');
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const label = typeof o.label === 'string' ? o.label : typeof o.key === 'string' ? o.key : null;
      if (label !== null) {
        const value =
          o.value === true
            ? ''
            : Array.isArray(o.value)
              ? o.value.join(' or ')
              : o.value != null
                ? String(o.value)
                : '';
        return [label, value || range(o, false)].filter(Boolean).join(' ');
      }
      if (typeof o.name === 'string') return o.name;
      if ('min' in o || 'max' in o) return range(o, money);
      return Object.entries(o)
        .filter(([, x]) => x !== null && x !== undefined)
        .map(([k, x]) => `${k} ${show(x, money)}`)
        .join(', ');
    }
    return String(v);
  };
  return Object.entries(interpretation)
    .filter(
      ([k, v]) => v !== null && v !== undefined && k !== 'embeddings' && !(Array.isArray(v) && !v.length),
    )
    .map(([k, v]) => `${k}=${k === 'types' && Array.isArray(v) ? showTypes(v) : show(v, k === 'price')}`)
    .join(', ');
}

/**
 * "Humidifier 0.82 (dry → dry air (problems); night → bedroom (places)); Air purifier 0.09": the
 * types considered, most likely first, each with its confidence and the first reasons it
 * matched; at most three types and two reasons each, so the line stays a line.
 */
function showTypes(types: unknown[]): string {
  return types
    .slice(0, 3)
    .map((t) => {
      const o = (t && typeof t === 'object' ? t : {}) as Record<string, unknown>;
      const name = typeof o.name === 'string' ? o.name : String(o.slug ?? '?');
      const confidence = typeof o.confidence === 'number' ? ` ${o.confidence.toFixed(2)}` : '';
      const why = Array.isArray(o.matched) ? o.matched.slice(0, 2).join('; ') : '';
      return `${name}${confidence}${why ? ` (${why})` : ''}`;
    })
    .join('; ');
}

/** " (it reads the query as a need for: Dishwasher, Dish rack)": a keyword miss's semantic reading. */
function suggested(interpretation: unknown): string {
  const types = (interpretation as { suggestion?: { types?: { name?: unknown }[] } } | undefined)?.suggestion
    ?.types;
  const names = Array.isArray(types) ? types.map((t) => t.name).filter((n) => typeof n === 'string') : [];
  return names.length ? ` (it reads the query as a need for: ${names.join(', ')})` : '';
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
        brand: NameOrSlug().optional().describe('only this brand (name or slug, e.g. "Bosch")'),
        product_type: NameOrSlug()
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
        ? await client.post('/v2/products/search', {
            body: {
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
            },
          })
        : await client.get('/v2/products', { params: { query: { q: query, limit, min_price, max_price } } });
      const products = jsonList<SearchHit | ProductListItem>(result.data).map(productRef);
      const total = result.pagination?.total ?? products.length;
      const quota = quotaOf(result);
      const text = products.length
        ? [
            `${total} match "${query}"${total > products.length ? `, top ${products.length}` : ''}:`,
            ...products.map(productLine),
          ]
        : [
            `No products match "${query}"${filtered ? ' with these filters' : ''}. Try fewer words or semantic_search${suggested(result.meta.interpretation)}.`,
          ];
      return answer(text, { products, total, quota });
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
      const result = await client.post('/v2/products/semantic-search', { body: { query, limit } });
      const products = jsonList<SemanticHit>(result.data).map((p) => ({
        ...productRef(p),
        score: typeof p._score === 'number' ? Math.round(p._score * 1000) / 1000 : null,
      }));
      const interpretation = result.meta.interpretation ?? null;
      const understood = interpretation ? describeInterpretation(interpretation) : '';
      const quota = quotaOf(result);
      const text = [
        understood ? `Understood: ${understood}` : '',
        products.length ? products.map(productLine).join('\n') : `No products match "${query}".`,
      ];
      return answer(text, { products, interpretation, quota });
    },
  );
}
