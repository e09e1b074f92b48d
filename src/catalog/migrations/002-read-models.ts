/**
 * Read models: answers computed once at ingest from the tables of 001, so the hottest reads
 * are one indexed row each. Snapshots without these tables are served the slow way.
 *
 * - product_documents: each product's JSON as product lists return it, serialized with the
 *   routes' own schema (no joins, parsing or serialization per request); its `_knowledge`
 *   availability, which single-product responses add at the end; and the ETag of the
 *   single-product response; and its barcode lookup result (with an empty `gtin`, which the
 *   lookup fills with the GTIN asked for).
 * - product_price_series: each product's daily best price from its first observation to the
 *   snapshot day (see fillDaily), as little-endian Int32 cents, one per day.
 */
export const sql = `
CREATE TABLE product_documents (
  id TEXT PRIMARY KEY REFERENCES products(id),
  json TEXT NOT NULL,
  knowledge_json TEXT,
  etag TEXT NOT NULL,
  barcode_json TEXT NOT NULL
);

CREATE TABLE product_price_series (
  id TEXT PRIMARY KEY REFERENCES products(id),
  first_day TEXT NOT NULL,
  cents BLOB NOT NULL
);
`;
