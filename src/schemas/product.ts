import { type Static, Type } from 'typebox';
import { BrandSummary, CategorySummary, Offer, ProductTypeSummary } from './catalog.js';
import { FreeObject, NamedFields, Nullable, namedExtension, namedObject, Timestamp, Uuid } from './common.js';
import { ProductKnowledge } from './knowledge.js';

/** The group embedded in a product: a summary; GET /v2/product-groups/{id} has the full ProductGroup. */
export const ProductGroupRef = namedObject(
  'ProductGroupRef',
  {
    id: Uuid,
    name: Type.String(),
    slug: Type.String(),
    base_model: Nullable(Type.String()),
    series_name: Nullable(Type.String()),
    variant_dimensions: Type.Array(Type.String()),
  },
  {
    description:
      'Summary of the variant group (id, name, slug, base model, series, variant dimensions); GET /v2/product-groups/{id} gives the full ProductGroup with prices, status and products',
  },
);

export const QualityBreakdown = namedObject('QualityBreakdown', {
  completeness: Type.Number(),
  validity: Type.Number(),
  confidence: Type.Number(),
  crossValidation: Type.Number(),
  attributeScore: Type.Number(),
  nameScore: Type.Number(),
  knowledgeScore: Type.Number(),
});

export const KnowledgeMeta = namedObject('KnowledgeMeta', {
  product_type_slug: Type.String(),
  available: Type.Array(Type.String()),
  entry_count: Type.Integer(),
  has_brand_overrides: Type.Boolean(),
  brand_profile: Type.Boolean(),
  knowledge_url: Type.String(),
});

/** Price and lifecycle signals (include_signals); the rules are in docs/api.md. */
export const Signals = namedObject('Signals', {
  price_trend: Type.Union([Type.Literal('rising'), Type.Literal('falling'), Type.Literal('stable')]),
  avg_30d: Nullable(Type.Number({ description: 'average of the daily best price over the last 30 days' })),
  price_vs_avg_30d: Nullable(
    Type.Number({ description: 'current best price against avg_30d, in percent (negative = cheaper)' }),
  ),
  lowest_90d: Nullable(Type.Number({ description: 'lowest daily best price in the last 90 days' })),
  is_lowest_in_90_days: Type.Boolean(),
  in_stock_offers: Type.Integer(),
  lifecycle: Type.Union([
    Type.Literal('current'),
    Type.Literal('successor_available'),
    Type.Literal('legacy'),
  ]),
  successor_id: Nullable(Type.String()),
});
export type Signals = Static<typeof Signals>;

export const Attribute = namedObject('Attribute', {
  key: Type.String(),
  value: Type.String(),
  numericValue: Nullable(Type.Number()),
  unit: Nullable(Type.String()),
  role: Type.Union([Type.Literal('variant'), Type.Literal('identity'), Type.Literal('spec')]),
});
export type Attribute = Static<typeof Attribute>;

const productFields = {
  ...NamedFields,
  description: Nullable(Type.String()),
  gtin: Nullable(Type.String()),
  mpn: Nullable(Type.String()),
  model_number: Nullable(Type.String()),
  current_best_price: Nullable(Type.Number()),
  min_price: Nullable(Type.Number()),
  max_price: Nullable(Type.Number()),
  avg_price: Nullable(Type.Number()),
  image_url: Nullable(Type.String()),
  variant_attributes: FreeObject,
  specifications: FreeObject,
  data: FreeObject,
  quality_score: Type.Number(),
  data_tier: Type.Integer(),
  source_type: Type.String(),
  product_group_id: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  brand: Nullable(BrandSummary),
  category: Nullable(CategorySummary),
  product_type: Nullable(ProductTypeSummary),
  product_group: Nullable(ProductGroupRef),
  offers: Type.Optional(Type.Array(Offer)),
  signals: Type.Optional(Signals),
  _variant_count: Type.Optional(Type.Integer()),
  _naming_method: Nullable(Type.String()),
  _naming_confidence: Nullable(Type.Number()),
  _category_profile_key: Nullable(Type.String()),
  _spec_sources: FreeObject,
  _quality_breakdown: QualityBreakdown,
  _knowledge: Type.Optional(KnowledgeMeta),
  knowledge: Type.Optional(ProductKnowledge),
  attributes: Type.Optional(Type.Array(Attribute)),
  _score: Type.Optional(Type.Number()),
};

/** A variant inside a product (include_variants): a product without variants of its own. */
export const ProductVariant = namedObject('ProductVariant', productFields);

export const Product = namedExtension('Product', ProductVariant, {
  variants: Type.Optional(Type.Array(ProductVariant)),
});
export type Product = Static<typeof Product>;
