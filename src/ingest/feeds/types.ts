/** One feed file and the retailer it belongs to. */
export interface FeedSource {
  path: string;
  /** retailer slug */
  retailer: string;
}

/** A feed row as read: attribute names normalized (lower case, `g:` prefix removed, spaces → `_`). */
export interface RawRow {
  file: string;
  line: number;
  fields: Record<string, string>;
}

/** A row that could not be used, or a problem with a row that was still used. */
export interface RowIssue {
  file: string;
  line: number;
  retailer: string;
  severity: 'error' | 'warning';
  reason: string;
  item_id?: string;
}
