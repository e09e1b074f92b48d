/**
 * A lean snapshot (issue 20): keys that repeat per row are integers, price history is stored
 * as changes, and the offers' product index is narrow. The answers are the same.
 *
 * Price history: `price_observations` keyed by integers, one row per change.
 *
 * - `offer_rowid` is the offer's rowid (offers.rowid, fixed once the snapshot is written: a
 *   snapshot is never vacuumed) instead of its 36-character UUID text.
 * - `day` counts days since 1970-01-01 (UTC) instead of 'YYYY-MM-DD' text.
 * - `cents` and `original_cents` are whole cents instead of 8-byte floats. Readers round each
 *   day's best price to cents, and rounding keeps the order of prices, so the answers are
 *   the same.
 * - A row is stored only where an offer's price, original price or stock changed from its
 *   previous row (ingest drops the rest, see ingest/build/price-series.ts). Readers hold an
 *   offer's price until its next row, as they did with one row per day, so the answers are
 *   the same.
 *
 * On the 39k-product demo the table took 136.8 MB (72 bytes a row) and now 35.5 MB.
 * Readers tell the layout by the snapshot's schema version: before version 8 they read the
 * text layout of 001 as before.
 *
 * `product_attributes` and `relationships` name products by rowid (products.rowid, as
 * product_vectors and the FTS table do) instead of by UUID text: 36 bytes a row less, twice
 * in each relationship and again in the attributes' key index.
 *
 * The offers' product index (`offers_product ON offers(product_id)`, created by ingest after
 * the load; on offer_rows since schema 9, 009-integer-keys.ts) is narrow again: the covering
 * index of 003 copied every column a product's offers are read with, 45 MB on the 35k demo,
 * a third of the offers' bytes. Ingest writes a product's offers one after the other (write-products.ts, products in id order), so their rows share a page
 * and the lookups from the narrow index read the same page the covering index would: on the
 * 3k demo a product's offers read in the same time with either index (measured in one run,
 * 9 rounds over every product: 92.8 µs covering, 94.0 µs narrow, on a loaded machine).
 */
export const sql = `
DROP TABLE price_observations;
CREATE TABLE price_observations (
  offer_rowid INTEGER NOT NULL,   -- offers.rowid
  day INTEGER NOT NULL,           -- days since 1970-01-01 (UTC)
  cents INTEGER NOT NULL,
  original_cents INTEGER,
  in_stock INTEGER NOT NULL,
  PRIMARY KEY (offer_rowid, day)
) WITHOUT ROWID;

DROP TABLE product_attributes;
CREATE TABLE product_attributes (
  product_rowid INTEGER NOT NULL,  -- products.rowid
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  numeric_value REAL,
  unit TEXT,
  role TEXT NOT NULL CHECK (role IN ('variant', 'identity', 'spec')),
  PRIMARY KEY (product_rowid, key, value)
) WITHOUT ROWID;
CREATE INDEX product_attributes_key ON product_attributes(key, numeric_value);

DROP TABLE relationships;
CREATE TABLE relationships (
  product_rowid INTEGER NOT NULL,  -- products.rowid
  type TEXT NOT NULL CHECK (type IN ('successor', 'predecessor', 'similar', 'series', 'accessory', 'consumable')),
  related_rowid INTEGER NOT NULL,  -- products.rowid
  score REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (product_rowid, type, related_rowid)
) WITHOUT ROWID;
`;

/**
 * The first schema version whose price observations are keyed by offer rowid and day number,
 * and whose attributes and relationships by product rowid.
 */
export const LEAN_VERSION = 8;
