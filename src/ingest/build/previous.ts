import { existsSync } from 'node:fs';
import {
  COMPACT_VERSION,
  type Db,
  openReadOnly,
  schemaVersion,
  storedDictionary,
  storedText,
} from '../../catalog/index.js';
import type { Listing } from '../listing.js';

/** What the previous published snapshot knew, so ids and slugs stay stable across runs. */
export interface PreviousCatalog {
  path: string | null;
  productIdByListing: Map<string, string>;
  productIdByGtin: Map<string, string>;
  products: Map<string, { slug: string; created_at: string }>;
  groups: Map<string, { id: string; slug: string; created_at: string }>;
  /** brand id to its `created_at`: when a snapshot first had the brand */
  brandCreatedAt: Map<string, string>;
  offerFirstSeen: Map<string, string>;
}

export function readPrevious(path: string | null): PreviousCatalog {
  const empty: PreviousCatalog = {
    path: null,
    productIdByListing: new Map(),
    productIdByGtin: new Map(),
    products: new Map(),
    groups: new Map(),
    brandCreatedAt: new Map(),
    offerFirstSeen: new Map(),
  };
  if (!path || !existsSync(path)) return empty;
  let db: Db | null = null;
  try {
    db = openReadOnly(path);
    const open = db;
    // each map is a query whose first column is the key: of two columns, to the second;
    // of more, to the row
    const pairs = (sql: string) => new Map(open.prepare(sql).raw().all() as [string, string][]);
    const rows = <T extends { id: string }>(sql: string) =>
      new Map((open.prepare(sql).all() as T[]).map((r) => [r.id, r]));
    // snapshots before retailer_listings knew their listings only through their offers
    const listings = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'retailer_listings'").get()
      ? "SELECT r.slug || ':' || o.retailer_item_id, o.product_id FROM retailer_listings o JOIN retailers r ON r.id = o.retailer_id"
      : "SELECT r.slug || ':' || o.retailer_item_id, o.product_id FROM offers o JOIN retailers r ON r.id = o.retailer_id";
    type Stamped = { id: string; slug: string; created_at: string };
    return {
      path,
      productIdByListing: pairs(listings),
      productIdByGtin: pairs('SELECT gtin14, product_id FROM product_gtins'),
      products: rows<Stamped>('SELECT id, slug, created_at FROM products'),
      groups: rows<Stamped>('SELECT id, slug, created_at FROM product_groups'),
      brandCreatedAt: pairs('SELECT id, created_at FROM brands'),
      offerFirstSeen: pairs('SELECT id, first_seen_at FROM offers'),
    };
  } catch {
    return empty;
  } finally {
    db?.close();
  }
}

/**
 * The listings of some retailers as the previous catalog had them: for retailers this run
 * brings no accepted feed for (not in the run, feed failed, or held back by a guard), so
 * their offers stay as they were instead of vanishing. A listing the previous catalog kept
 * without an offer (its feed had dropped it) stays so (`gone`).
 */
export function readPreviousListings(path: string, retailers: readonly string[]): Listing[] {
  if (retailers.length === 0 || !existsSync(path)) return [];
  let db: Db | null = null;
  try {
    db = openReadOnly(path);
    const rows = db
      .prepare(
        `SELECT l.listing_json, l.last_seen_at, l.offer_id IS NULL AS gone
         FROM retailer_listings l JOIN retailers r ON r.id = l.retailer_id
         WHERE r.slug IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(retailers)) as {
      listing_json: string | Buffer;
      last_seen_at: string;
      gone: number;
    }[];
    // packed with the snapshot's listing dictionary since schema version 7
    const dictionary = schemaVersion(db) >= COMPACT_VERSION ? storedDictionary(db, 'listings') : undefined;
    return rows.map((r) => ({
      ...(JSON.parse(storedText(r.listing_json, dictionary) as string) as Listing),
      carriedFrom: r.gone ? { lastSeenAt: r.last_seen_at, gone: true } : { lastSeenAt: r.last_seen_at },
    }));
  } catch {
    // a previous catalog without listings (older schema) has nothing to carry over
    return [];
  } finally {
    db?.close();
  }
}

/**
 * Per retailer of the previous catalog, how many listings its last accepted feed had (the
 * listings that still carry an offer): the base the shrink guard compares a new feed with.
 */
export function readPreviousFeedSizes(path: string | null): Map<string, number> {
  const sizes = new Map<string, number>();
  if (!path || !existsSync(path)) return sizes;
  let db: Db | null = null;
  try {
    db = openReadOnly(path);
    for (const r of db
      .prepare(
        `SELECT r.slug, count(l.offer_id) AS n FROM retailer_listings l
         JOIN retailers r ON r.id = l.retailer_id GROUP BY r.slug`,
      )
      .all() as { slug: string; n: number }[])
      sizes.set(r.slug, r.n);
    return sizes;
  } catch {
    return sizes;
  } finally {
    db?.close();
  }
}

/** Products shown by default (data tiers 1 and 2) in a snapshot; 0 when there is none. */
export function readVisibleProducts(path: string | null): number {
  if (!path || !existsSync(path)) return 0;
  let db: Db | null = null;
  try {
    db = openReadOnly(path);
    return db.prepare('SELECT count(*) FROM products WHERE data_tier < 3').pluck().get() as number;
  } catch {
    return 0;
  } finally {
    db?.close();
  }
}
