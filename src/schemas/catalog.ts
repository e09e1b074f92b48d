import { type Static, type TSchema, Type } from 'typebox';
import { FreeObject, NamedFields, Nullable, namedObject, Timestamp } from './common.js';

/** A profile field: null when the authored data does not say (never omitted). */
const known = <T extends TSchema>(schema: T, description: string) =>
  Nullable(Type.Unsafe<Static<T>>({ ...schema, description, default: null }));

/** A brand's profile: every field present, null when unknown (docs/api.md, nullability). */
export const BrandProfile = namedObject('BrandProfile', {
  summary: known(Type.String(), 'what the brand is known for, in a sentence or two'),
  quality_tier: known(Type.String(), 'budget, mid-range, premium or luxury'),
  price_position: known(Type.String(), 'value, mainstream, upper-mainstream or premium'),
  target_audience: known(Type.String(), 'who the brand sells to'),
  known_for: known(Type.Array(Type.String()), 'products or traits the brand is known for'),
  support_reputation: known(Type.String(), 'poor, average, good or excellent'),
  country_of_origin: known(Type.String(), 'country of the brand'),
  founded_year: known(Type.Integer(), 'year the brand was founded'),
  parent_company: known(Type.String(), 'owning company, null when independent or unknown'),
  repairability: known(Type.String(), 'poor, fair, good or excellent'),
  warranty: known(
    Type.Object({
      standard_years: known(Type.Number(), 'standard warranty in years'),
      extended_available: known(Type.Boolean(), 'whether an extended warranty is sold'),
      notes: known(Type.String(), 'warranty details'),
    }),
    'standard warranty',
  ),
  sustainability: known(FreeObject, 'sustainability programmes and claims, as the brand states them'),
});
export type BrandProfile = Static<typeof BrandProfile>;

export const Brand = namedObject('Brand', {
  ...NamedFields,
  logo_url: Nullable(Type.String()),
  website_url: Nullable(Type.String()),
  created_at: Timestamp,
  description: Type.Optional(Nullable(Type.String())),
  profile: Type.Optional(Nullable(BrandProfile)),
});
export type Brand = Static<typeof Brand>;

export const BrandRef = Type.Object(NamedFields);

export const Category = namedObject('Category', {
  ...NamedFields,
  description: Nullable(Type.String()),
  icon: Nullable(Type.String()),
  is_featured: Type.Boolean(),
  parent_id: Nullable(Type.String()),
  level: Type.Integer(),
  path: Type.String(),
  children: Type.Optional(Type.Array(Type.Unknown())),
});
export type Category = Static<typeof Category>;

export const ProductType = namedObject('ProductType', {
  ...NamedFields,
  subcategory_id: Nullable(Type.String()),
  is_active: Type.Boolean(),
  level: Type.Integer(),
  path: Type.String(),
  knowledge_entry_count: Type.Optional(Type.Integer()),
  knowledge_types: Type.Optional(Type.Array(Type.String())),
  has_brand_overrides: Type.Optional(Type.Boolean()),
});
export type ProductType = Static<typeof ProductType>;

// What a product or a group embeds of its brand, category and type: each one named, so the
// OpenAPI document and the generated client spell it once.
export const BrandSummary = namedObject(
  'BrandSummary',
  Type.Omit(Brand, ['description', 'profile']).properties,
);
export const CategorySummary = namedObject('CategorySummary', Type.Omit(Category, ['children']).properties);
export const ProductTypeSummary = namedObject(
  'ProductTypeSummary',
  Type.Omit(ProductType, ['knowledge_entry_count', 'knowledge_types', 'has_brand_overrides']).properties,
);

export const Retailer = namedObject('Retailer', {
  ...NamedFields,
  domain: Nullable(Type.String()),
  logo_url: Nullable(Type.String()),
  is_active: Type.Boolean(),
  profile: Nullable(FreeObject),
});
export type Retailer = Static<typeof Retailer>;

export const OfferMatch = namedObject(
  'OfferMatch',
  {
    method: Type.Union(
      [
        Type.Literal('gtin'),
        Type.Literal('model_number'),
        Type.Literal('title_similarity'),
        Type.Literal('single_listing'),
      ],
      {
        description:
          'The strongest evidence joining this listing to the product: a shared GTIN, a shared manufacturer model number, the learned title/attribute match score, or single_listing when no other listing was merged',
      },
    ),
    confidence: Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        'Match probability of that link, learned from the ingested feeds; 1 for gtin and single_listing. Below 0.5 the merge rests on the two listings being each other’s best candidate: treat it with care',
    }),
    title: Type.String({ description: "The retailer listing's own title" }),
    gtin: Nullable(
      Type.String({ description: "The retailer listing's own GTIN-14, if its feed gave a valid one" }),
    ),
  },
  { description: 'How this offer’s listing was matched to the product (entity resolution evidence)' },
);
export type OfferMatch = Static<typeof OfferMatch>;

export const Offer = namedObject('Offer', {
  retailer_name: Type.String(),
  retailer_slug: Type.String(),
  price: Type.Number({ description: 'current price; a listing without one is not an offer' }),
  original_price: Nullable(Type.Number()),
  currency: Type.String(),
  in_stock: Type.Boolean(),
  availability: Type.String({ description: 'in_stock, out_of_stock, preorder or backorder' }),
  retailer_url: Nullable(Type.String()),
  last_seen_at: Timestamp,
  /** Null in catalogs built before match evidence was kept (snapshot schema < 5). */
  match: Nullable(OfferMatch),
});
export type Offer = Static<typeof Offer>;
