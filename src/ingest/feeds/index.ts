export { normalizeAttributeName } from './attribute-names.js';
export { detectFormat, FeedFormatError, readFeed } from './read-feed.js';
export type { FeedSource, RawRow, RowIssue } from './types.js';
