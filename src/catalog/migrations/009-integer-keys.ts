/**
 * Offers and retailer listings keyed by integers (issue 20): the same answers in fewer bytes.
 *
 * Each offer and each listing named its product and its retailer by 36-character UUID text,
 * again in the (retailer, item) key of each table and in the product indexes. They are now
 * stored in `offer_rows` and `listing_rows`, which name them by rowid (products.rowid,
 * retailers.rowid, as product_attributes and price_observations do since schema 8):
 *
 * - `offer_rows.product_rowid`, `retailer_rowid`: the offer's product and retailer. The offer
 *   keeps its own UUID (`id`, what the next ingest carries first-seen dates and change
 *   fingerprints by) but no index on it: nothing looks an offer up by id while serving, and
 *   ingest matches offers across snapshots by retailer and item id (write-snapshot.ts).
 * - `listing_rows.offer_rowid`: the listing's offer (null for a listing its retailer no longer
 *   lists) instead of its UUID. The listing's title is left out: its packed JSON has it.
 * - The listings' product index is gone: nothing reads listings by product.
 *
 * `offers` and `retailer_listings` are views over them with the columns and values of
 * schema 8 (UUIDs joined back from the products and retailers by rowid), so every reader
 * reads a snapshot of either version with the same SQL; `offers.rowid` is the offer's rowid,
 * as price_observations.offer_rowid names it. Ingest writes the two tables (write-products.ts).
 *
 * On the 3,000-product demo the two tables and their indexes took 10.1 MB and now 6.2 MB.
 */
export const sql = `
DROP TABLE offers;
CREATE TABLE offer_rows (
  id TEXT NOT NULL,                  -- stable: the offer's UUID, made from its retailer and item id
  product_rowid INTEGER NOT NULL,    -- products.rowid
  retailer_rowid INTEGER NOT NULL,   -- retailers.rowid
  retailer_item_id TEXT NOT NULL,
  title TEXT NOT NULL,
  price REAL,
  original_price REAL,
  currency TEXT NOT NULL DEFAULT 'USD',
  in_stock INTEGER NOT NULL DEFAULT 1,
  availability TEXT NOT NULL DEFAULT 'in_stock',
  retailer_url TEXT,
  image_url TEXT,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  gtin TEXT,
  match_method TEXT NOT NULL DEFAULT 'single_listing',
  match_confidence REAL NOT NULL DEFAULT 1,
  UNIQUE (retailer_rowid, retailer_item_id)
);
CREATE VIEW offers AS
  SELECT o.rowid AS rowid, o.id, p.id AS product_id, r.id AS retailer_id, o.retailer_item_id, o.title,
    o.price, o.original_price, o.currency, o.in_stock, o.availability, o.retailer_url, o.image_url,
    o.first_seen_at, o.last_seen_at, o.gtin, o.match_method, o.match_confidence
  FROM offer_rows o
  JOIN products p ON p.rowid = o.product_rowid
  JOIN retailers r ON r.rowid = o.retailer_rowid;

DROP TABLE retailer_listings;
CREATE TABLE listing_rows (
  retailer_rowid INTEGER NOT NULL,   -- retailers.rowid
  retailer_item_id TEXT NOT NULL,
  product_rowid INTEGER NOT NULL,    -- products.rowid
  offer_rowid INTEGER,               -- offer_rows.rowid; null for a listing its retailer no longer lists
  listing_json BLOB NOT NULL,        -- the normalized listing, packed
  last_seen_at TEXT NOT NULL,        -- when a feed last had this listing
  UNIQUE (retailer_rowid, retailer_item_id)
);
CREATE VIEW retailer_listings AS
  SELECT r.id AS retailer_id, l.retailer_item_id, p.id AS product_id, o.id AS offer_id,
    l.listing_json, l.last_seen_at
  FROM listing_rows l
  JOIN retailers r ON r.rowid = l.retailer_rowid
  JOIN products p ON p.rowid = l.product_rowid
  LEFT JOIN offer_rows o ON o.rowid = l.offer_rowid;
`;

/** The first schema version whose offers and listings are stored by integer keys. */
export const INTEGER_KEYS_VERSION = 9;

/**
 * Offers by product, built after the bulk load (ingest/run.ts) so its pages are full and in
 * order; narrow, as in schema 8 (see 008-lean.ts).
 */
export const offersByProductIndex =
  'CREATE INDEX IF NOT EXISTS offer_rows_product ON offer_rows(product_rowid);';
