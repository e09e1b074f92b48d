/**
 * How each offer's listing was matched to its product (issue 15): the listing's own GTIN and
 * the resolver's evidence, `match_method` (gtin, model_number, title_similarity,
 * single_listing) and `match_confidence` (0–1). Read into every offer's `match` object;
 * the covering index of 003 carries them so a product's offers stay one index scan.
 */
export const sql = `
ALTER TABLE offers ADD COLUMN gtin TEXT;
ALTER TABLE offers ADD COLUMN match_method TEXT NOT NULL DEFAULT 'single_listing';
ALTER TABLE offers ADD COLUMN match_confidence REAL NOT NULL DEFAULT 1;
`;
