/**
 * Offers of one product in one place: an index on product_id that holds every column a
 * product's offers are read with (catalog/offer-rows.ts, price intelligence), so reading
 * them is one seek and a short scan of adjacent entries instead of one table row per offer
 * scattered over the file. It replaces the narrow product_id index of 001.
 *
 * The migration only drops the old index: ingest creates the index once the offers are
 * written (ingest/run.ts). Since schema version 8 that index is narrow again (see
 * 008-lean.ts `offersByProductIndex`). Built from sorted keys, its pages are full and in
 * order; grown row by row during the load, they were half empty and scattered, and reading
 * a product's offers took twice as long (10.5 against 5.0 µs on the 35k demo).
 */
export const sql = `
DROP INDEX offers_product;
`;
