import { type Static, Type } from 'typebox';
import { FreeObject, Nullable, Timestamp, Uuid } from './common.js';

export const Brand = Type.Object({
  id: Uuid,
  name: Type.String(),
  slug: Type.String(),
  logo_url: Nullable(Type.String()),
  website_url: Nullable(Type.String()),
  created_at: Timestamp,
  description: Type.Optional(Nullable(Type.String())),
  profile: Type.Optional(Nullable(FreeObject)),
});
export type Brand = Static<typeof Brand>;

export const BrandRef = Type.Object({ id: Uuid, name: Type.String(), slug: Type.String() });

export const Category = Type.Object({
  id: Uuid,
  name: Type.String(),
  slug: Type.String(),
  description: Nullable(Type.String()),
  icon: Nullable(Type.String()),
  is_featured: Type.Boolean(),
  parent_id: Nullable(Type.String()),
  level: Type.Integer(),
  path: Type.String(),
  children: Type.Optional(Type.Array(Type.Unknown())),
});
export type Category = Static<typeof Category>;

export const ProductType = Type.Object({
  id: Uuid,
  name: Type.String(),
  slug: Type.String(),
  subcategory_id: Nullable(Type.String()),
  is_active: Type.Boolean(),
  level: Type.Integer(),
  path: Type.String(),
  knowledge_entry_count: Type.Optional(Type.Integer()),
  knowledge_types: Type.Optional(Type.Array(Type.String())),
  has_brand_overrides: Type.Optional(Type.Boolean()),
});
export type ProductType = Static<typeof ProductType>;

export const Retailer = Type.Object({
  id: Uuid,
  name: Type.String(),
  slug: Type.String(),
  domain: Nullable(Type.String()),
  logo_url: Nullable(Type.String()),
  is_active: Type.Boolean(),
  profile: Nullable(FreeObject),
});
export type Retailer = Static<typeof Retailer>;

export const Offer = Type.Object({
  retailer_name: Type.String(),
  retailer_slug: Type.String(),
  price: Type.Number({ description: 'current price; a listing without one is not an offer' }),
  original_price: Nullable(Type.Number()),
  currency: Type.String(),
  in_stock: Type.Boolean(),
  availability: Type.String({ description: 'in_stock, out_of_stock, preorder or backorder' }),
  retailer_url: Nullable(Type.String()),
  last_seen_at: Timestamp,
});
export type Offer = Static<typeof Offer>;
