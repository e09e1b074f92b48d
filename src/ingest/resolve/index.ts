/**
 * Entity resolution for ingest: pure functions from retailer listings to products and
 * variant groups. No database, no I/O; deterministic for a given input order.
 *
 * Pipeline (see each module): features (tokens, model numbers, brand, edition facts, quantities, the
 * product a listing serves (accessory.ts), TF-IDF title vectors) → blocking on rare title words and codes → a comparison vector and a fixed
 * log-odds score per candidate pair → Fellegi–Sunter weights learned from the batch by EM
 * under one-to-one and hard-conflict constraints (learn.ts), which vet the weak pairs and the
 * title-only second choices (a pair that is not the first choice of both its listings) and
 * title-only pairs whose feeds state different brands →
 * best-first clustering that keeps one listing per retailer unless two listings are the same
 * item, recording how each listing was matched → variant groups by retailer item group and
 * shared base model. Listings that name their previous product keep it unless new evidence
 * contradicts it (carry.ts), so ids survive re-ingests. The method and its measurements:
 * docs/ingest.md.
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
export { type FactInput, type FactSource, type RecordFacts, recordFacts } from './features.js';
export { extractModelNumbers, isModelNumberLike, normalizeModelNumber } from './model-number.js';
export { resolveListings } from './resolve.js';
export { FEATURES } from './score.js';
export type {
  LearnedModel,
  ListingMatch,
  ResolvedProduct,
  ResolveOptions,
  ResolveRecord,
  ResolveResult,
  VariantGroup,
} from './types.js';
export { commonTitlePrefix } from './variants.js';
