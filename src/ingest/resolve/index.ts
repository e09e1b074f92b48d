/**
 * Entity resolution for ingest: pure functions from retailer listings to products and
 * variant groups. No database, no I/O; deterministic for a given input order.
 *
 * Pipeline (see each module): features (tokens, model numbers, brand, edition facts, TF-IDF
 * title vectors) → blocking on rare title words and codes → a log-odds match score per
 * candidate pair → best-first clustering that keeps one listing per retailer unless two
 * listings are the same item → variant groups by retailer item group and shared base model.
 */
export {
  baseModel,
  type ModelParts,
  type ModelRelation,
  relateModels,
  type SuffixKind,
  splitModel,
} from './base-model.js';
export { titleBrandOpenings } from './brand.js';
export { extractModelNumbers, isModelNumberLike, normalizeModelNumber } from './model-number.js';
export { resolveListings } from './resolve.js';
export type {
  ResolvedProduct,
  ResolveOptions,
  ResolveRecord,
  ResolveResult,
  VariantGroup,
} from './types.js';
