/**
 * Entity resolution for ingest: pure functions from retailer listings to products and
 * variant groups. No database, no I/O.
 */
export { baseModel, type ModelParts, type SuffixKind, splitModel } from './base-model.js';
export { extractModelNumbers, isModelNumberLike, normalizeModelNumber } from './model-number.js';
export { resolveListings } from './resolve.js';
export type {
  ResolvedProduct,
  ResolveOptions,
  ResolveRecord,
  ResolveResult,
  VariantGroup,
} from './types.js';
