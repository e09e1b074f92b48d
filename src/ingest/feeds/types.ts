/** One feed file and the retailer it belongs to. */
export interface FeedSource {
  path: string;
  /** retailer slug */
  retailer: string;
}

/** One `product_detail` entry: a spec as the retailer named it. */
export interface DetailEntry {
  section: string;
  name: string;
  value: string;
}

/** A feed row as read: attribute names normalized (lower case, `g:` prefix removed, spaces → `_`). */
export interface RawRow {
  file: string;
  /** line of the row (delimited, NDJSON) or of the item's start tag (XML); item number in a JSON array */
  line: number;
  fields: Record<string, string>;
  /** structured `product_detail` entries (XML and JSON feeds); delimited feeds use the `product_detail` field */
  details?: DetailEntry[];
}

/** A row the reader could not make sense of (an NDJSON line that is not JSON, a non-object item). */
export interface BadRow {
  file: string;
  line: number;
  error: string;
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
