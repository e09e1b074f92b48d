import type { GetPath, PostPath, SuccessBody } from './client.js';
import type { components } from './generated/openapi.js';

/**
 * Names for the resources of the generated types, all derived from the OpenAPI document (so
 * they follow it on every `npm run client:generate`), none declared by hand.
 */

type DataOf<B> = B extends { data: infer D } ? D : never;
type GetData<P extends GetPath> = DataOf<SuccessBody<P, 'get'>>;
type PostData<P extends PostPath> = DataOf<SuccessBody<P, 'post'>>;

export type AiProduct = components['schemas']['AiProduct'];
export type SchemaOrgProduct = components['schemas']['SchemaOrgProduct'];
/** A product in the default `format=json` shape (with `offers` when `include_offers=true`). */
export type Product = Exclude<GetData<'/v2/products/{id}'>, AiProduct | SchemaOrgProduct>;
/** A variant inside a product (`include_variants=true`): the product's fields without `variants`. */
export type ProductVariant = components['schemas']['ProductVariant'];
/** One retailer's offer of a product (`include_offers=true`). */
export type Offer = NonNullable<Product['offers']>[number];
/** A product of a list or search result page (format=json). */
export type ProductListItem = Exclude<GetData<'/v2/products'>, (AiProduct | SchemaOrgProduct)[]>[number];
/** A hit of the advanced search (format=json). */
export type SearchHit = Exclude<PostData<'/v2/products/search'>, (AiProduct | SchemaOrgProduct)[]>[number];
/** A hit of the semantic search (format=json). */
export type SemanticHit = Exclude<
  PostData<'/v2/products/semantic-search'>,
  (AiProduct | SchemaOrgProduct)[]
>[number];
export type PriceIntelligence = GetData<'/v2/products/{id}/prices'>;
export type BarcodeResult = GetData<'/v2/products/barcode/{gtin}'>;
export type ModelLookup = GetData<'/v2/products/lookup'>;
export type Brand = GetData<'/v2/brands/{identifier}'>;
export type Retailer = GetData<'/v2/retailers/{identifier}'>;
export type ProductTypeKnowledge = GetData<'/v2/product-types/{slug}/knowledge'>;
export type ProductRelationships = GetData<'/v2/products/{id}/relationships'>;
