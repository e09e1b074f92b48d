import { type Static, Type } from 'typebox';
import { BrandSummary, CategorySummary, ProductTypeSummary } from './catalog.js';
import { FreeObject, NamedFields, Nullable, namedObject, StringEnum, Timestamp, Uuid } from './common.js';
import { KnowledgeEntry } from './knowledge.js';
import { Attribute, Product } from './product.js';

/** Product group (spec §2.8): the variants of one model, linked. */
export const ProductGroup = namedObject('ProductGroup', {
  ...NamedFields,
  description: Nullable(Type.String()),
  base_model: Nullable(Type.String()),
  series_name: Nullable(Type.String()),
  variant_dimensions: Type.Array(Type.String()),
  original_msrp: Nullable(Type.Number()),
  current_market_value: Nullable(Type.Number()),
  product_status: Nullable(
    Type.String({ description: 'active (a member has a current offer) or discontinued' }),
  ),
  brand_id: Nullable(Type.String()),
  category_id: Nullable(Type.String()),
  product_type_id: Nullable(Type.String()),
  brand: Nullable(BrandSummary),
  category: Nullable(CategorySummary),
  product_type: Nullable(ProductTypeSummary),
  variant_count: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
  products: Type.Optional(Type.Array(Product)),
});
export type ProductGroup = Static<typeof ProductGroup>;

/** Category with its direct subcategories (include_children). */
export const CategoryWithChildren = namedObject('CategoryWithChildren', {
  ...CategorySummary.properties,
  children: Type.Optional(Type.Array(CategorySummary)),
});

/** Relationship summary item (spec §2.11). */
export const RelationshipItem = namedObject('RelationshipItem', {
  ...NamedFields,
  image_url: Nullable(Type.String()),
  current_best_price: Nullable(Type.Number()),
  brand: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
});
export type RelationshipItem = Static<typeof RelationshipItem>;

/** Relationships of a product (spec §4.5); fields of types not asked for are omitted. */
export const Relationships = namedObject('Relationships', {
  productId: Uuid,
  successor: Type.Optional(Nullable(RelationshipItem)),
  predecessor: Type.Optional(Nullable(RelationshipItem)),
  similar: Type.Optional(Type.Array(RelationshipItem)),
  consumables: Type.Optional(Type.Array(RelationshipItem)),
  accessories: Type.Optional(Type.Array(RelationshipItem)),
  series: Type.Optional(Type.Array(RelationshipItem)),
});
export type Relationships = Static<typeof Relationships>;

export const ProductAttributes = namedObject('ProductAttributes', {
  productId: Uuid,
  attributes: Type.Array(Attribute),
  count: Type.Integer(),
});

/**
 * The current best price judged against the window's history, in plain words and as data:
 * what a price chart's badge says. Computed by the API so every client says the same thing.
 */
export const PriceVerdict = namedObject('PriceVerdict', {
  kind: StringEnum(
    ['lowest', 'unchanged', 'below_average', 'at_average', 'above_average', 'no_history', 'no_price'],
    {
      description:
        'lowest: the current best price is the lowest of the window; unchanged: the same best price every day of the window; ' +
        'below_average / at_average / above_average: against the 30-day average (within ±0.5 % counts as at); ' +
        'no_history: a current price but no recorded history; no_price: no current offer has a price',
    },
  ),
  text: Type.String({
    description: 'the verdict in plain words, e.g. "lowest price in 90 days", "3 % above its 30-day average"',
  }),
  window_days: Type.Integer({ description: 'days of recorded history inside the requested window (≤ days)' }),
  window_low: Nullable(Type.Number({ description: 'lowest daily best price in the window' })),
  window_high: Nullable(Type.Number({ description: 'highest daily best price in the window' })),
  vs_avg_30d_percent: Nullable(
    Type.Number({ description: 'current best price against the 30-day average, percent (negative: below)' }),
  ),
  near_low: Type.Boolean({
    description: 'the current best price is within 5 % of the window low (a good deal)',
  }),
});
export type PriceVerdict = Static<typeof PriceVerdict>;

/** Price intelligence (spec §2.12). */
export const PriceIntelligence = namedObject('PriceIntelligence', {
  product_id: Uuid,
  product_name: Type.String(),
  days: Type.Integer(),
  current: Type.Object({
    best_price: Nullable(Type.Number()),
    retailer_count: Type.Integer(),
    retailers: Type.Array(
      Type.Object({
        retailer: Type.String(),
        price: Nullable(Type.Number()),
        in_stock: Type.Boolean(),
        url: Nullable(Type.String({ description: "the offer's page at the retailer" })),
        last_seen_at: Timestamp,
      }),
    ),
  }),
  summary: Type.Object({
    min_ever: Nullable(Type.Number()),
    max_ever: Nullable(Type.Number()),
    avg_30d: Nullable(Type.Number()),
    trend: Type.Union([Type.Literal('rising'), Type.Literal('falling'), Type.Literal('stable')]),
  }),
  history: Type.Array(Type.Object({ date: Type.String(), price: Type.Number() })),
  verdict: PriceVerdict,
});
export type PriceIntelligence = Static<typeof PriceIntelligence>;

/** Barcode result (spec §2.13). */
export const BarcodeResult = namedObject('BarcodeResult', {
  id: Uuid,
  gtin: Type.String({ description: 'the GTIN as asked for' }),
  name: Type.String(),
  brand: Nullable(Type.String()),
  category: Nullable(Type.String()),
  product_type: Nullable(Type.String()),
  image_url: Nullable(Type.String()),
  current_best_price: Nullable(Type.Number()),
  specifications: FreeObject,
  retailers: Type.Array(
    Type.Object({
      name: Type.String(),
      price: Nullable(Type.Number()),
      in_stock: Type.Boolean(),
      url: Nullable(
        Type.String({ description: "the offer's page at the retailer (null when the feed gave none)" }),
      ),
    }),
  ),
});
export type BarcodeResult = Static<typeof BarcodeResult>;

/** Model lookup result (spec §2.14). */
export const ModelLookup = namedObject('ModelLookup', {
  match_type: Type.Union([
    Type.Literal('exact'),
    Type.Literal('prefix'),
    Type.Literal('fuzzy'),
    Type.Literal('decoded'),
  ]),
  product: Nullable(Product),
  decoded: Type.Object({
    brand: Nullable(Type.String()),
    productType: Nullable(Type.String()),
    modelNumber: Type.String(),
    specs: Type.Record(Type.String(), Type.String()),
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
  }),
});
export type ModelLookup = Static<typeof ModelLookup>;

/** Attribute schema of a product type (spec §2.15). */
export const AttributeSchema = namedObject('AttributeSchema', {
  product_type: Type.Object({
    name: Type.String(),
    slug: Type.String(),
    marketplace_category_id: Nullable(Type.String()),
    marketplace_category_path: Nullable(Type.String()),
  }),
  identity_dimensions: Type.Array(Type.String()),
  variant_dimensions: Type.Array(Type.String()),
  valid_spec_keys: Type.Array(Type.String()),
  controlled_values: Type.Record(
    Type.String(),
    Type.Object({
      marketplace_handle: Type.String(),
      marketplace_name: Type.String(),
      values: Type.Array(Type.String()),
    }),
  ),
  curated_attributes: Type.Array(
    Type.Object({
      key: Type.String(),
      label: Type.String(),
      type: Type.String({ description: 'number, string, boolean, enum or list' }),
      unit: Nullable(Type.String()),
      values: Nullable(Type.Array(Type.String())),
      headline: Type.Boolean({ description: 'used in condensed summaries (format=ai)' }),
    }),
  ),
});
export type AttributeSchema = Static<typeof AttributeSchema>;

export const ProductTypeKnowledge = namedObject('ProductTypeKnowledge', {
  product_type: Type.Object({ id: Uuid, name: Type.String(), slug: Type.String() }),
  knowledge: Type.Array(KnowledgeEntry),
});
export type ProductTypeKnowledge = Static<typeof ProductTypeKnowledge>;

/** Condensed product (spec §2.17, format=ai). */
export const AiProduct = Type.Object({
  id: Uuid,
  summary: Type.String(),
  price_range: Type.String(),
  retailers: Type.Array(Type.String()),
  key_specs: Type.Record(Type.String(), Type.String()),
  knowledge: Type.Record(Type.String(), Type.String()),
});
export type AiProduct = Static<typeof AiProduct>;

/** schema.org Product as JSON-LD (format=schemaorg). */
export const SchemaOrgProduct = Type.Object(
  {
    '@context': Type.Literal('https://schema.org'),
    '@type': Type.Literal('Product'),
    '@id': Type.String(),
    name: Type.String(),
  },
  { additionalProperties: true, description: 'schema.org Product (JSON-LD)' },
);
