import type { RawRow, RowIssue } from './feeds/index.js';
import { cleanText, parseGtin, parsePrice } from './normalize/index.js';

export type Availability = 'in_stock' | 'out_of_stock' | 'preorder' | 'backorder' | 'discontinued';

/** One retailer's listing after normalization: the unit entity resolution works on. */
export interface Listing {
  /** `<retailer>:<item id>`, unique in a run */
  key: string;
  retailer: string;
  itemId: string;
  file: string;
  line: number;
  title: string;
  description: string | null;
  link: string | null;
  imageLink: string | null;
  /** the price the shopper pays now (sale price when on sale) */
  price: number | null;
  /** the regular price when on sale */
  originalPrice: number | null;
  currency: string;
  availability: Availability;
  brandName: string | null;
  gtin14: string | null;
  mpn: string | null;
  /** retailer's own category path (`product_type`) */
  categoryPath: string | null;
  googleCategory: string | null;
  itemGroupId: string | null;
  color: string | null;
  size: string | null;
  /** provenance of the feed: `retailer_feed` or `synthetic` */
  sourceType?: 'retailer_feed' | 'synthetic';
  /** specs as the feed named them (product_detail and spec-like columns) */
  rawSpecs: Record<string, string>;
  /** set on listings kept from the previous catalog because their retailer's feed failed */
  carriedFrom?: {
    lastSeenAt: string;
    /** its retailer's feed was read but no longer lists it: kept (without an offer) so its product stays, as legacy */
    gone?: boolean;
  };
}

/**
 * What a large run keeps in memory of a listing it moved to its scratch file as soon as it was
 * read (issue 20): what the merge of the feeds, the guards and the run's sort need. The listing
 * itself is read back by `id` when it is classified and when its product is assembled.
 */
export class SpilledListing {
  constructor(
    /** where the listing waits in the run's scratch file */
    readonly id: number,
    readonly key: string,
    readonly retailer: string,
    readonly file: string,
    readonly line: number,
    readonly price: number | null,
  ) {}

  /** the item id is the key's part after `<retailer>:` */
  get itemId(): string {
    return this.key.slice(this.retailer.length + 1);
  }
}

/** A run's listing: in memory, or on disk with a {@link SpilledListing} in its place. */
export type RunListing = Listing | SpilledListing;

const AVAILABILITY: Record<string, Availability> = {
  in_stock: 'in_stock',
  instock: 'in_stock',
  in_stock_online: 'in_stock',
  available: 'in_stock',
  out_of_stock: 'out_of_stock',
  outofstock: 'out_of_stock',
  sold_out: 'out_of_stock',
  discontinued: 'discontinued',
  preorder: 'preorder',
  pre_order: 'preorder',
  backorder: 'backorder',
  back_order: 'backorder',
};

/** Columns that are specs when a feed has them as their own column. */
const SPEC_COLUMNS = [
  'material',
  'pattern',
  'size_type',
  'energy_efficiency_class',
  'product_weight',
  'product_length',
  'product_width',
  'product_height',
];

/**
 * Parses Merchant Center `product_detail`: `section:attribute:value` triples separated by
 * commas (a comma inside a value stays when the next part is not a new triple).
 */
export function parseProductDetail(text: string): Record<string, string> {
  const specs: Record<string, string> = {};
  let start = 0;
  for (let comma = text.indexOf(','); ; comma = text.indexOf(',', comma + 1)) {
    if (comma !== -1 && !startsTriple(text, comma + 1)) continue;
    const part = comma === -1 ? text.slice(start) : text.slice(start, comma);
    const first = part.indexOf(':');
    const second = first === -1 ? -1 : part.indexOf(':', first + 1);
    if (second !== -1) {
      const name = cleanText(part.slice(first + 1, second));
      const value = cleanText(part.slice(second + 1));
      if (name && value) specs[name] = value;
    }
    if (comma === -1) break;
    start = comma + 1;
  }
  return specs;
}

/**
 * Whether `text` from `at` reads `section:attribute:` before any comma: where a new triple
 * starts (the split the regex `/,(?=[^,:]*:[^,:]*:)/` makes, without a regex run per comma:
 * this was a third of the read phase's own CPU).
 */
function startsTriple(text: string, at: number): boolean {
  let colons = 0;
  for (let k = at; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 44 /* , */) return false;
    if (c === 58 /* : */ && ++colons === 2) return true;
  }
  return false;
}

const opt = (v: string | undefined): string | null => {
  if (v === undefined) return null;
  const t = cleanText(v);
  return t === '' ? null : t;
};

export type NormalizeResult =
  | { listing: Listing; issues: RowIssue[] }
  | { listing: null; issues: RowIssue[] };

/** Validates and normalizes one feed row; bad rows come back as issues with file and line. */
export function normalizeRow(row: RawRow, retailer: string): NormalizeResult {
  const f = row.fields;
  const issue = (severity: RowIssue['severity'], reason: string): RowIssue => ({
    file: row.file,
    line: row.line,
    retailer,
    severity,
    reason,
    ...(f.id ? { item_id: f.id } : {}),
  });
  const itemId = opt(f.id);
  const title = opt(f.title);
  if (!itemId) return { listing: null, issues: [issue('error', 'missing id')] };
  if (!title) return { listing: null, issues: [issue('error', 'missing title')] };

  const issues: RowIssue[] = [];
  let price: number | null = null;
  let currency = 'USD';
  if (opt(f.price)) {
    const parsed = parsePrice(f.price ?? '');
    if (!parsed.ok) return { listing: null, issues: [issue('error', parsed.reason)] };
    price = parsed.amount;
    currency = parsed.currency;
  }
  let originalPrice: number | null = null;
  if (opt(f.sale_price)) {
    const sale = parsePrice(f.sale_price ?? '', currency);
    if (!sale.ok) return { listing: null, issues: [issue('error', `sale_price: ${sale.reason}`)] };
    if (price !== null && sale.amount < price) {
      originalPrice = price;
      price = sale.amount;
    } else if (price === null) price = sale.amount;
  }

  let gtin14: string | null = null;
  const rawGtin = opt(f.gtin);
  if (rawGtin) {
    const parsed = parseGtin(rawGtin);
    if (parsed.ok) gtin14 = parsed.gtin14;
    else issues.push(issue('warning', `gtin "${rawGtin}" ignored: ${parsed.reason}`));
  }

  const availabilityRaw = (opt(f.availability) ?? 'in_stock').toLowerCase().replace(/[\s-]+/g, '_');
  const availability = AVAILABILITY[availabilityRaw];
  if (!availability)
    issues.push(issue('warning', `unknown availability "${f.availability}", taken as in_stock`));

  const rawSpecs = f.product_detail ? parseProductDetail(f.product_detail) : {};
  for (const d of row.details ?? []) {
    const name = cleanText(d.name);
    const value = cleanText(d.value);
    if (name && value) rawSpecs[name] ??= value;
  }
  for (const column of SPEC_COLUMNS) {
    const value = opt(f[column]);
    if (value) rawSpecs[column.replace(/^product_/, '')] ??= value;
  }

  return {
    listing: {
      key: `${retailer}:${itemId}`,
      retailer,
      itemId,
      file: row.file,
      line: row.line,
      title,
      description: opt(f.description),
      link: opt(f.link),
      imageLink: opt(f.image_link),
      price,
      originalPrice,
      currency,
      availability: availability ?? 'in_stock',
      brandName: opt(f.brand),
      gtin14,
      mpn: opt(f.mpn),
      categoryPath: opt(f.product_type),
      googleCategory: opt(f.google_product_category),
      itemGroupId: opt(f.item_group_id),
      color: opt(f.color),
      size: opt(f.size),
      rawSpecs,
    },
    issues,
  };
}

/** The listing fields whose values repeat across listings: a retailer, a category, a brand. */
const REPEATED_FIELDS = [
  'file',
  'retailer',
  'currency',
  'availability',
  'sourceType',
  'brandName',
  'categoryPath',
  'googleCategory',
  'color',
  'size',
] as const;

/**
 * One string per distinct value of the listings' repeated fields and spec values. A listing
 * read on a worker thread arrives with its own copy of every string (structured clone keeps
 * no sharing across messages); at a million listings the copies of a feed's path, a retailer
 * slug or `Stainless Steel` are hundreds of megabytes of heap (issue 20).
 */
export class ListingStrings {
  readonly #pool = new Map<string, string>();

  /** The pooled string equal to `value` (pooled now if it is new). */
  of(value: string): string {
    const seen = this.#pool.get(value);
    if (seen !== undefined) return seen;
    this.#pool.set(value, value);
    return value;
  }

  /** Replaces the listing's repeated strings by the pooled ones (in place); returns it. */
  share(listing: Listing): Listing {
    const fields = listing as unknown as Record<string, unknown>;
    for (const field of REPEATED_FIELDS) {
      const value = fields[field];
      if (typeof value === 'string') fields[field] = this.of(value);
    }
    const specs = listing.rawSpecs;
    for (const name in specs) specs[name] = this.of(specs[name]!);
    return listing;
  }
}
