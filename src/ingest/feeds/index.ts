export { normalizeAttributeName } from './attribute-names.js';
export { detectFormat, type FeedFormat, FeedFormatError, readFeed, sniffFormat } from './read-feed.js';
export type { BadRow, DetailEntry, FeedSource, RawRow, RowIssue } from './types.js';
