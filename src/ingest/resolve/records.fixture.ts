import type { ResolveRecord } from './types.js';

/** A listing for the resolver's tests: key, retailer and title, plus whatever the test sets. */
export const rec = (
  key: string,
  source: string,
  title: string,
  extra: Partial<ResolveRecord> = {},
): ResolveRecord => ({
  key,
  source,
  title,
  ...extra,
});
