import {
  barcodeResult,
  type Db,
  documentEtag,
  getProduct,
  serializeBarcodeResult,
  serializeKnowledgeMeta,
  serializeProduct,
  withKnowledgeMeta,
} from '../../catalog/index.js';
import { knowledgeMeta } from '../../knowledge/index.js';

/**
 * Stores every product's default response body (lists, and GET /v2/products/{id} without
 * include_* flags): the product with its references, serialized with the routes' schema, and
 * its `_knowledge` availability. Runs after everything a product response reads is written.
 */
export function writeProductDocuments(db: Db): number {
  const ids = db.prepare('SELECT id FROM products').pluck().all() as string[];
  const insert = db.prepare(
    'INSERT INTO product_documents (id, json, knowledge_json, etag, barcode_json) VALUES (?, ?, ?, ?, ?)',
  );
  for (const id of ids) {
    const product = getProduct(db, id);
    if (!product) continue;
    const json = serializeProduct(product);
    const meta = knowledgeMeta(db, product);
    const knowledgeJson = meta ? serializeKnowledgeMeta(meta) : null;
    const barcode = barcodeResult(db, id, '');
    insert.run(
      id,
      json,
      knowledgeJson,
      documentEtag(withKnowledgeMeta(json, knowledgeJson)),
      barcode ? serializeBarcodeResult(barcode) : '',
    );
  }
  return ids.length;
}
