import { type Db, INTEGER_KEYS_VERSION } from '../../src/catalog/index.js';

/**
 * Inserts an offer of product `productId` at retailer `retailerId` (both UUIDs) into a test
 * snapshot of any schema version: into `offers` before version 9, into `offer_rows` by rowid
 * from version 9 on (migrations/009-integer-keys.ts). Returns the offer's rowid.
 */
export function insertOffer(
  db: Db,
  offer: { id: string; productId: string; retailerId: string; itemId: string; title: string; seenAt: string },
): number | bigint {
  const version = db.pragma('user_version', { simple: true }) as number;
  const sql =
    version >= INTEGER_KEYS_VERSION
      ? `INSERT INTO offer_rows (id, product_rowid, retailer_rowid, retailer_item_id, title, first_seen_at, last_seen_at)
         VALUES (?, (SELECT rowid FROM products WHERE id = ?), (SELECT rowid FROM retailers WHERE id = ?), ?, ?, ?, ?)`
      : `INSERT INTO offers (id, product_id, retailer_id, retailer_item_id, title, first_seen_at, last_seen_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`;
  return db
    .prepare(sql)
    .run(offer.id, offer.productId, offer.retailerId, offer.itemId, offer.title, offer.seenAt, offer.seenAt)
    .lastInsertRowid;
}
