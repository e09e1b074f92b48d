import type { Db } from '../catalog/index.js';

/**
 * Fills the keyword index of a snapshot being built: one products_fts row per product
 * (rowid = products.rowid). Ingest calls this once after writing every product.
 */
export function buildSearchIndex(db: Db): void {
  db.exec(`
    INSERT INTO products_fts (rowid, name, brand, product_type, model, specs, description)
    SELECT p.rowid, p.name, COALESCE(b.name, ''),
           COALESCE(t.name, '') || ' ' || COALESCE((SELECT group_concat(value, ' ') FROM json_each(json_extract(t.schema_json, '$.synonyms'))), ''),
           trim(COALESCE(p.model_number, '') || ' ' || COALESCE(p.mpn, '') || ' ' ||
                COALESCE((SELECT group_concat(g.gtin14, ' ') FROM product_gtins g WHERE g.product_id = p.id), '')),
           COALESCE((SELECT group_concat(value, ' ') FROM json_each(p.specifications_json)), ''),
           COALESCE(p.description, '')
    FROM products p
    LEFT JOIN brands b ON b.id = p.brand_id
    LEFT JOIN product_types t ON t.id = p.product_type_id;
    INSERT INTO products_fts(products_fts) VALUES ('optimize');
  `);
}
