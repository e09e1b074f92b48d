export {
  type AdvancedSearchRequest,
  advancedSearch,
  type KeywordMiss,
  keywordMiss,
  SEARCH_SORT_FIELDS,
  type SearchResult,
  type SemanticSearchRequest,
  semanticSearch,
} from './advanced.js';
export { buildSearchIndex, type PendingSearchIndex, startSearchIndex } from './build-index.js';
export { builtinProvider, embedQueryBuiltin } from './embeddings/builtin-provider.js';
export { providerFromConfig } from './embeddings/from-config.js';
export { HttpEmbeddings, httpProvider } from './embeddings/http-provider.js';
export type { EmbeddingProvider } from './embeddings/provider.js';
export {
  createSearchEngine,
  type RankOptions,
  SEARCH_MODES,
  type SearchEngine,
  type SearchMode,
} from './engine.js';
export { computeFacets, type FacetBucket } from './facets.js';
export { compileFilters, type SearchFilters } from './filters.js';
export {
  exactMatches,
  FTS_WEIGHTS,
  type KeywordPlan,
  keywordPlan,
  keywordRanking,
  type Ranked,
  rankKeyword,
} from './keyword.js';
export { Vocabulary } from './typo.js';
export { type Interpretation, type SpecConstraint, understand } from './understand.js';
