import type { Offer, OfferMatch } from '../schemas/index.js';
import { type Db, perConnection, schemaVersion, stmt } from './database.js';
import { num, str } from './product-rows.js';
import { refsOf } from './ref-cache.js';
import { INTEGER_KEYS_VERSION } from './schema.js';

const columnMemo = perConnection<boolean>();
const offersHaveMatch = (db: Db) =>
  stmt(db, "SELECT 1 FROM pragma_table_info('offers') WHERE name = 'match_method'").get() !== undefined;
/** Whether the snapshot stores how each offer was matched (schema 5 on). */
const hasMatchEvidence = (db: Db): boolean => columnMemo(db, 'offers.match_method', offersHaveMatch);

/**
 * Offers of the given products, cheapest in-stock first, keyed by product id. A listing
 * without a price (a discontinued product still in a feed) is kept for its price history but
 * is no offer: an offer always has a price.
 */
export function offersFor(db: Db, productIds: readonly string[]): Map<string, Offer[]> {
  const out = new Map<string, Offer[]>();
  if (productIds.length === 0) return out;
  // snapshots built before schema 5 have no match evidence: their offers say `match: null`
  const evidence = hasMatchEvidence(db)
    ? 'title, gtin, match_method, match_confidence'
    : 'NULL AS match_method';
  const rest = `price, original_price, currency, in_stock, availability, retailer_url, last_seen_at, ${evidence}`;
  // one product (single reads, barcodes) is the common case: a plain index lookup; retailer
  // names come from the per-snapshot cache rather than a join
  const rows = (
    productIds.length === 1
      ? stmt(db, `${offerColumns(db, rest)} ${offerProducts(db, '= ?')}`).all(productIds[0])
      : stmt(db, `${offerColumns(db, rest)} ${offerProducts(db, 'IN (SELECT value FROM json_each(?))')}`).all(
          JSON.stringify(productIds),
        )
  ) as Record<string, unknown>[];
  const refs = refsOf(db);
  for (const row of rows) {
    const id = String(row.product_id);
    const retailer = refs.retailer(row.retailer_id);
    const list = out.get(id) ?? [];
    list.push({
      retailer_name: retailer?.name ?? '',
      retailer_slug: retailer?.slug ?? '',
      price: Number(row.price),
      original_price: num(row.original_price),
      currency: String(row.currency),
      in_stock: Boolean(row.in_stock),
      availability: String(row.availability),
      retailer_url: str(row.retailer_url),
      last_seen_at: String(row.last_seen_at),
      match:
        row.match_method === null
          ? null
          : {
              method: String(row.match_method) as OfferMatch['method'],
              confidence: Number(row.match_confidence),
              title: String(row.title),
              gtin: str(row.gtin),
            },
    });
    out.set(id, list);
  }
  for (const list of out.values()) list.sort(byOfferOrder);
  return out;
}

/**
 * `SELECT product_id, retailer_id, <rest> FROM offers o WHERE o.price IS NOT NULL AND`, with
 * the product and retailer as UUIDs. Since schema version 9 it reads the offers' own table
 * (migrations/009-integer-keys.ts) after one lookup of the product's rowid, rather than
 * through the `offers` view: the same rows in 12 µs a product on the 3k demo, against 45 µs
 * through the view (which joins by product id) and 27 µs from schema 8's table.
 */
function offerColumns(db: Db, rest: string): string {
  return schemaVersion(db) >= INTEGER_KEYS_VERSION
    ? `SELECT (SELECT id FROM products WHERE rowid = o.product_rowid) AS product_id,
         (SELECT id FROM retailers WHERE rowid = o.retailer_rowid) AS retailer_id, ${rest}
       FROM offer_rows o WHERE o.price IS NOT NULL AND`
    : `SELECT product_id, retailer_id, ${rest} FROM offers o WHERE o.price IS NOT NULL AND`;
}

/** The condition on the products of {@link offerColumns}: their ids `match` (`= ?`, `IN (…)`). */
function offerProducts(db: Db, match: string): string {
  return schemaVersion(db) >= INTEGER_KEYS_VERSION
    ? `o.product_rowid IN (SELECT rowid FROM products WHERE id ${match})`
    : `o.product_id ${match}`;
}

/** In stock first, then by price (unpriced last), then by retailer name. */
export function byOfferOrder(
  a: { in_stock: boolean; price: number | null; retailer_name: string },
  b: { in_stock: boolean; price: number | null; retailer_name: string },
): number {
  if (a.in_stock !== b.in_stock) return a.in_stock ? -1 : 1;
  if (a.price === null || b.price === null) {
    if (a.price !== b.price) return a.price === null ? 1 : -1;
  } else if (a.price !== b.price) return a.price - b.price;
  return a.retailer_name < b.retailer_name ? -1 : a.retailer_name > b.retailer_name ? 1 : 0;
}
