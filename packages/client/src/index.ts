export {
  createShelfClient,
  type GetPath,
  type PagedPath,
  type PostPath,
  type RequestInit,
  ShelfClient,
  type ShelfClientOptions,
  type ShelfResponse,
  type SuccessBody,
} from './client.js';
export { codeForStatus, type ErrorBody, RETRYABLE_STATUSES, ShelfError } from './errors.js';
export type { components, operations, paths } from './generated/openapi.js';
export { parseRetryAfter, type RateLimit, rateLimitOf } from './rate-limit.js';
export type {
  AiProduct,
  BarcodeResult,
  Brand,
  ModelLookup,
  Offer,
  PriceIntelligence,
  Product,
  ProductListItem,
  ProductRelationships,
  ProductTypeKnowledge,
  ProductVariant,
  Retailer,
  SchemaOrgProduct,
  SearchHit,
  SemanticHit,
} from './resources.js';
export {
  backoffMs,
  DEFAULT_RETRY,
  type FetchLike,
  type RetryEvent,
  type RetryOptions,
  retryingFetch,
} from './retry.js';
