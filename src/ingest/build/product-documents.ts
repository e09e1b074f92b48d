import {
  barcodeFromRow,
  type Db,
  documentDictionary,
  documentEtag,
  offersFor,
  type ProductRow,
  packDocument,
  productFromRow,
  serializeBarcodeResult,
  serializeKnowledgeMeta,
  serializeProduct,
  storeDictionary,
  withKnowledgeMeta,
} from '../../catalog/index.js';
import { knowledgeMeta } from '../../knowledge/index.js';

/** Products read at once: their rows and offers come in two queries. */
const CHUNK = 1000;

/** One product's stored parts, before packing. */
interface Parts {
  id: string;
  json: string;
  knowledgeJson: string | null;
  etag: string;
  barcodeJson: string;
}

/**
 * Stores every product's default response body (lists, and GET /v2/products/{id} without
 * include_* flags): the product with its references, serialized with the routes' schema, its
 * `_knowledge` availability and its barcode result, each packed with a dictionary drawn
 * from the first chunk of documents (catalog/document-codec.ts). Runs after everything a
 * product response reads is written.
 */
export function writeProductDocuments(db: Db): number {
  const insert = db.prepare(
    'INSERT INTO product_documents (id, json, knowledge_json, etag, barcode_json) VALUES (?, ?, ?, ?, ?)',
  );
  // in id order, so the documents' id index grows at its right edge: full pages in key order,
  // which a lookup by id reads faster than the half-empty pages random inserts leave
  const page = db.prepare('SELECT * FROM products WHERE id > ? ORDER BY id LIMIT ?');
  let dictionary: Buffer | null = null;
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
    const parts = rows.map((row): Parts => {
      const product = productFromRow(db, row);
      const json = serializeProduct(product);
      const meta = knowledgeMeta(db, product);
      const knowledgeJson = meta ? serializeKnowledgeMeta(meta) : null;
      const barcode = barcodeFromRow(db, row, offers.get(product.id) ?? [], '');
      return {
        id: product.id,
        json,
        knowledgeJson,
        etag: documentEtag(withKnowledgeMeta(json, knowledgeJson)),
        barcodeJson: serializeBarcodeResult(barcode),
      };
    });
    if (!dictionary) {
      dictionary = documentDictionary(
        parts.flatMap((p) => [p.json, p.barcodeJson, ...(p.knowledgeJson === null ? [] : [p.knowledgeJson])]),
      );
      storeDictionary(db, 'documents', dictionary);
    }
    for (const p of parts) {
      insert.run(
        p.id,
        packDocument(p.json, dictionary),
        p.knowledgeJson === null ? null : packDocument(p.knowledgeJson, dictionary),
        p.etag,
        packDocument(p.barcodeJson, dictionary),
      );
      written++;
    }
  }
  return written;
}
