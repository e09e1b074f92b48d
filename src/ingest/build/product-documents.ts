import { type Db, documentEtag, getProduct, serializeProduct } from '../../catalog/index.js';
import { knowledgeMeta } from '../../knowledge/index.js';

/**
 * Stores every product's default response body (GET /v2/products/{id} without include_*
 * flags): the product with its references and `_knowledge` availability, serialized with
 * the route's schema. Runs after everything the product response reads has been written.
 */
export function writeProductDocuments(db: Db): number {
  const ids = db.prepare('SELECT id FROM products').pluck().all() as string[];
  const insert = db.prepare('INSERT INTO product_documents (id, json, etag) VALUES (?, ?, ?)');
  for (const id of ids) {
    const product = getProduct(db, id);
    if (!product) continue;
    const meta = knowledgeMeta(db, product);
    if (meta) product._knowledge = meta;
    const json = serializeProduct(product);
    insert.run(id, json, documentEtag(json));
  }
  return ids.length;
}
