import {
  barcodeFromRow,
  type Db,
  documentEtag,
  offersFor,
  type ProductRow,
  productFromRow,
  serializeBarcodeResult,
  serializeKnowledgeMeta,
  serializeProduct,
  withKnowledgeMeta,
} from '../../catalog/index.js';
import { knowledgeMeta } from '../../knowledge/index.js';

/** Products read at once: their rows and offers come in two queries. */
const CHUNK = 1000;

/**
 * Stores every product's default response body (lists, and GET /v2/products/{id} without
 * include_* flags): the product with its references, serialized with the routes' schema, its
 * `_knowledge` availability and its barcode result. Runs after everything a product
 * response reads is written.
 */
export function writeProductDocuments(db: Db): number {
  const insert = db.prepare(
    'INSERT INTO product_documents (id, json, knowledge_json, etag, barcode_json) VALUES (?, ?, ?, ?, ?)',
  );
  // in id order, so the documents' id index grows at its right edge: full pages in key order,
  // which a lookup by id reads faster than the half-empty pages random inserts leave
  const page = db.prepare('SELECT * FROM products WHERE id > ? ORDER BY id LIMIT ?');
  let written = 0;
  for (let after = ''; ; ) {
    const rows = page.all(after, CHUNK) as ProductRow[];
    const last = rows.at(-1);
    if (!last) break;
    after = String(last.id);
    const offers = offersFor(
      db,
      rows.map((r) => String(r.id)),
    );
    for (const row of rows) {
      const product = productFromRow(db, row);
      const json = serializeProduct(product);
      const meta = knowledgeMeta(db, product);
      const knowledgeJson = meta ? serializeKnowledgeMeta(meta) : null;
      const barcode = barcodeFromRow(db, row, offers.get(product.id) ?? [], '');
      insert.run(
        product.id,
        json,
        knowledgeJson,
        documentEtag(withKnowledgeMeta(json, knowledgeJson)),
        serializeBarcodeResult(barcode),
      );
      written++;
    }
  }
  return written;
}
