/**
 * Name sort keys (catalog/name-keys.ts): names sort as people read them — case and accents
 * ignored, numbers in numeric order — where SQLite's binary order put "ecobee" after
 * "Zwilling" and "100 inch" before "65 inch". better-sqlite3 cannot register a collation, so
 * the key is stored beside the name, filled once the rows are written, and indexed for
 * keyset pages. Snapshots from before this migration have no key and sort by name.
 */
export const sql = `
ALTER TABLE products ADD COLUMN name_key TEXT;
ALTER TABLE product_groups ADD COLUMN name_key TEXT;
ALTER TABLE brands ADD COLUMN name_key TEXT;
ALTER TABLE product_types ADD COLUMN name_key TEXT;
DROP INDEX products_name;
CREATE INDEX products_name_key ON products(name_key, id);
CREATE INDEX product_groups_name_key ON product_groups(name_key, id);
CREATE INDEX brands_name_key ON brands(name_key, id);
CREATE INDEX product_types_name_key ON product_types(name_key, id);
`;
