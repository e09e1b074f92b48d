import type { BarcodeResult, Product } from '@shelf/client';
import { z } from 'zod';
import {
  answer,
  defineTool,
  InvalidArgument,
  jsonProduct,
  lastQuota,
  money,
  NameOrSlug,
  OfferOut,
  offerLine,
  ok,
  ProductId,
  ProductRef,
  productRef,
  QuotaOut,
  quotaOf,
  shortOffer,
  sortOffers,
  type ToolContext,
  UUID_RE,
} from '../tool-kit.js';

/** Specs and offers shown by lookup_product; get_product_specs and compare_prices give all. */
const LOOKUP_SPECS = 10;
const LOOKUP_OFFERS = 8;

type Spec = string | number | boolean | string[] | null;

const specText = (v: unknown): string => (Array.isArray(v) ? v.join(', ') : String(v));
const specsLine = (specs: Record<string, unknown>): string =>
  Object.entries(specs)
    .map(([k, v]) => `${k} ${specText(v)}`)
    .join('; ');

const LookupOut = {
  product: ProductRef.extend({
    id: z.string().nullable(),
    slug: z.string().nullable(),
    category: z.string().nullable(),
    gtin: z.string().nullable(),
    price_range: z.object({ min: z.number().nullable(), max: z.number().nullable() }).nullable(),
    specs: z.record(z.string(), z.unknown()),
    more_specs: z.number().describe('further specs available through get_product_specs'),
    offers: z.array(OfferOut).describe('in stock first, cheapest first'),
    offer_count: z.number(),
  }).nullable(),
  match: z
    .object({ type: z.string(), confidence: z.number().nullable() })
    .nullable()
    .describe('how a model number matched (model lookups only)'),
  quota: QuotaOut,
};
type LookupProduct = NonNullable<z.infer<typeof LookupOut.product>>;

function fromProduct(p: Product): LookupProduct {
  const specs = Object.entries(p.specifications ?? {});
  const offers = sortOffers((p.offers ?? []).map(shortOffer));
  return {
    ...productRef(p),
    slug: p.slug,
    category: p.category?.name ?? null,
    gtin: p.gtin,
    price_range: p.min_price === null && p.max_price === null ? null : { min: p.min_price, max: p.max_price },
    specs: Object.fromEntries(specs.slice(0, LOOKUP_SPECS)),
    more_specs: Math.max(0, specs.length - LOOKUP_SPECS),
    offers: offers.slice(0, LOOKUP_OFFERS),
    offer_count: offers.length,
  };
}

function fromBarcode(b: BarcodeResult): LookupProduct {
  const specs = Object.entries(b.specifications);
  const offers = sortOffers(
    b.retailers.map((r) => ({ retailer: r.name, price: r.price, in_stock: r.in_stock, url: r.url })),
  );
  const prices = offers.map((o) => o.price).filter((n): n is number => n !== null);
  return {
    id: b.id,
    name: b.name,
    slug: null,
    brand: b.brand,
    category: b.category,
    product_type: b.product_type,
    model_number: null,
    gtin: b.gtin,
    best_price: b.current_best_price,
    price_range: prices.length ? { min: Math.min(...prices), max: Math.max(...prices) } : null,
    specs: Object.fromEntries(specs.slice(0, LOOKUP_SPECS)),
    more_specs: Math.max(0, specs.length - LOOKUP_SPECS),
    offers: offers.slice(0, LOOKUP_OFFERS),
    offer_count: offers.length,
  };
}

function renderLookup(p: LookupProduct): string {
  const range =
    p.price_range && p.price_range.min !== p.price_range.max
      ? ` (range ${money(p.price_range.min)}–${money(p.price_range.max)})`
      : '';
  return [
    `${p.name} — ${[p.brand, p.product_type].filter(Boolean).join(' · ')}`,
    [p.id && `id ${p.id}`, p.model_number && `model ${p.model_number}`, p.gtin && `GTIN ${p.gtin}`]
      .filter(Boolean)
      .join(' · '),
    `best price ${money(p.best_price)}${range}`,
    Object.keys(p.specs).length
      ? `specs: ${specsLine(p.specs)}${p.more_specs ? ` (+${p.more_specs} more: get_product_specs)` : ''}`
      : '',
    p.offers.length
      ? `offers: ${p.offers.map(offerLine).join('; ')}${p.offer_count > p.offers.length ? ` (+${p.offer_count - p.offers.length} more: compare_prices)` : ''}`
      : 'no current offers',
  ]
    .filter(Boolean)
    .join('\n');
}

/** lookup_product (id, slug, barcode or model number) and get_product_specs. */
export function registerProductTools({ server, client }: ToolContext): void {
  defineTool(
    server,
    'lookup_product',
    {
      title: 'Look up a product',
      description:
        'Get one product by exactly one identifier: Shelf id (UUID), slug, barcode (GTIN/UPC/EAN, 8-14 digits) or manufacturer model number ' +
        '(optionally with brand to narrow it). Returns name, brand, type, best price, the main specs and the offers of each retailer ' +
        '(retailer, price, in_stock, url). Use search_products when you only have words.',
      input: {
        id: z.string().regex(UUID_RE, 'must be a UUID').optional().describe('Shelf product id (UUID)'),
        slug: z
          .string()
          .regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and hyphens')
          .max(200)
          .optional(),
        // Clients and models often send a barcode as a JSON number; leading zeros do not change a GTIN.
        barcode: z
          .union([
            z.string().regex(/^\d{8,14}$/, 'must be 8 to 14 digits'),
            z.number().int().min(1).max(99_999_999_999_999),
          ])
          .optional()
          .describe('GTIN, UPC or EAN (8-14 digits)'),
        model_number: z
          .string()
          .trim()
          .min(2)
          .max(60)
          .optional()
          .describe('manufacturer model number, e.g. "SHPM88Z75N"'),
        brand: NameOrSlug().optional().describe('brand hint for model_number lookups'),
      },
      output: LookupOut,
    },
    async ({ id, slug, barcode, model_number, brand }) => {
      const given = [id, slug, barcode, model_number].filter((v) => v !== undefined).length;
      if (given !== 1)
        throw new InvalidArgument(
          'id|slug|barcode|model_number',
          `give exactly one identifier (got ${given})`,
        );
      let product: LookupProduct;
      let match: z.infer<typeof LookupOut.match> = null;
      let quota: z.infer<typeof QuotaOut>;
      if (id || slug) {
        const query = { include_offers: 'true' };
        const result = id
          ? await client.get('/v2/products/{id}', { params: { path: { id }, query } })
          : await client.get('/v2/products/by-slug/{slug}', {
              params: { path: { slug: slug ?? '' }, query },
            });
        product = fromProduct(jsonProduct(result.data));
        quota = quotaOf(result);
      } else if (barcode !== undefined) {
        const gtin = String(barcode).padStart(8, '0');
        const result = await client.get('/v2/products/barcode/{gtin}', { params: { path: { gtin } } });
        product = fromBarcode(result.data);
        quota = quotaOf(result);
      } else {
        const result = await client.get('/v2/products/lookup', {
          params: { query: { model: model_number ?? '', ...(brand === undefined ? {} : { brand }) } },
        });
        if (!result.data.product)
          return ok(`No product with model number "${model_number}" was found.`, {
            product: null,
            match: null,
            quota: quotaOf(result),
          });
        // The lookup result carries the product without offers; fetch them (a second request).
        let found = result.data.product;
        quota = quotaOf(result);
        if (!found.offers) {
          const full = await client.get('/v2/products/{id}', {
            params: { path: { id: found.id }, query: { include_offers: 'true' } },
          });
          found = jsonProduct(full.data);
          quota = lastQuota(result, full);
        }
        product = fromProduct(found);
        match = { type: result.data.match_type, confidence: result.data.decoded.confidence };
      }
      const matchLine = match && match.type !== 'exact' ? `match: ${match.type} (not exact)` : '';
      return answer([renderLookup(product), matchLine], {
        product,
        match,
        quota,
      });
    },
  );

  defineTool(
    server,
    'get_product_specs',
    {
      title: 'Get product specifications',
      description:
        'All specifications of one product (dimensions, capacity, noise, power, features…) as key → value with units, plus its variant ' +
        'attributes (color, size). Pass keys to get only some specs, e.g. ["noise_level", "width"].',
      input: {
        product_id: ProductId,
        keys: z
          .array(z.string().trim().min(1).max(60))
          .min(1)
          .max(30)
          .optional()
          .describe('only these spec keys (default: all)'),
      },
      output: {
        product: ProductRef,
        specs: z.record(z.string(), z.unknown()),
        variant: z.record(z.string(), z.unknown()).describe('what sets this variant apart (e.g. color)'),
        missing_keys: z.array(z.string()).describe('requested keys this product has no value for'),
        quota: QuotaOut,
      },
    },
    async ({ product_id, keys }) => {
      const result = await client.get('/v2/products/{id}', { params: { path: { id: product_id } } });
      const p = jsonProduct(result.data);
      const all = (p.specifications ?? {}) as Record<string, Spec>;
      const wanted = keys?.map((k) => k.toLowerCase().replace(/[\s-]+/g, '_'));
      const specs = wanted ? Object.fromEntries(wanted.filter((k) => k in all).map((k) => [k, all[k]])) : all;
      const missing = wanted ? wanted.filter((k) => !(k in all)) : [];
      const quota = quotaOf(result);
      const text = [
        `${p.name} — ${Object.keys(specs).length} specs`,
        ...Object.entries(specs).map(([k, v]) => `${k}: ${specText(v)}`),
        Object.keys(p.variant_attributes ?? {}).length ? `variant: ${specsLine(p.variant_attributes)}` : '',
        missing.length ? `not known: ${missing.join(', ')}` : '',
      ];
      return answer(text, {
        product: productRef(p),
        specs,
        variant: p.variant_attributes ?? {},
        missing_keys: missing,
        quota,
      });
    },
  );
}
