export { buildSearchIndex } from './build-index.js';
export { builtinProvider, embedQueryBuiltin } from './embeddings/builtin-provider.js';
export type { EmbeddingProvider } from './embeddings/provider.js';
export {
  createSearchEngine,
  type RankOptions,
  SEARCH_MODES,
  type SearchEngine,
  type SearchMode,
} from './engine.js';
export {
  exactMatches,
  FTS_WEIGHTS,
  type KeywordPlan,
  keywordPlan,
  keywordRanking,
  type Ranked,
} from './keyword.js';
export { Vocabulary } from './typo.js';
export { reciprocalRankFusion } from './vector-search.js';
