export {
  type ResolveRecord,
  type ResolveResult,
  type Resolver,
  resolveByIdentifiers,
} from './build/resolver.js';
export type { FeedSource, RowIssue } from './feeds/index.js';
export { DEFAULT_MAX_DROP } from './guards.js';
export type { HistoryReport } from './history.js';
export type { FeedReport } from './read-feeds.js';
export {
  IngestInputError,
  type IngestOptions,
  type IngestReport,
  parseFeedArgument,
  runIngest,
  validateIngestOptions,
} from './run.js';
export {
  fetchSources,
  loadSources,
  msUntil,
  refreshOnce,
  type SourcesFile,
  scheduleDaily,
} from './schedule.js';
