/**
 * A compact snapshot (issue 20): the same answers in a third of the bytes.
 *
 * - product_documents: each JSON column now holds the document packed with raw deflate and a
 *   preset dictionary (catalog/document-codec.ts), the `dictionaries` row 'documents'.
 *   Readers tell the format by the snapshot's schema version: a snapshot of version 2–6
 *   stores plain text and is read as before.
 * - retailer_listings.listing_json: packed the same way, with the dictionary 'listings'.
 * - products.spec_sources_json and product_price_series.cents: packed with raw deflate (no
 *   dictionary: each is long and repeats itself).
 * - Packed columns are BLOBs, plain ones TEXT: a reader that gets a BLOB unpacks it.
 * - search_term_vectors, product_vectors: each vector is a float32 scale followed by one
 *   signed byte per dimension (value = byte × scale, search/vector-blob.ts), a quarter of
 *   the float32 bytes; the cosines they give differ from float32 by under 0.01.
 */
export const sql = `
DROP TABLE product_documents;
CREATE TABLE product_documents (
  id TEXT PRIMARY KEY REFERENCES products(id),
  json BLOB NOT NULL,
  knowledge_json BLOB,
  etag TEXT NOT NULL,
  barcode_json BLOB NOT NULL
);
CREATE TABLE dictionaries (name TEXT PRIMARY KEY, bytes BLOB NOT NULL) WITHOUT ROWID;
`;

/** The first schema version whose documents are packed and whose vectors are int8. */
export const COMPACT_VERSION = 7;
