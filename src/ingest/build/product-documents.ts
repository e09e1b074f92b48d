import {
  barcodeFromRow,
  type Db,
  DocumentPacker,
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
 *
 * A chunk is packed on another thread (DocumentPacker) while this one reads and serializes
 * the next, and written once packed: at most two chunks are held at a time. `_knowledge`
 * depends only on a product's type and brand, so each distinct one is packed once.
 */
export function writeProductDocuments(db: Db): number {
  const insert = db.prepare(
    'INSERT INTO product_documents (id, json, knowledge_json, etag, barcode_json) VALUES (?, ?, ?, ?, ?)',
  );
  // in id order, so the documents' id index grows at its right edge: full pages in key order,
  // which a lookup by id reads faster than the half-empty pages random inserts leave
  const page = db.prepare('SELECT * FROM products WHERE id > ? ORDER BY id LIMIT ?');
  let packer: DocumentPacker | null = null;
  let dictionary: Buffer = Buffer.alloc(0);
  const knowledgePacked = new Map<string, Buffer>();
  let written = 0;
  let pending: { parts: Parts[]; batch: number } | null = null;
  const flush = ({ parts, batch }: { parts: Parts[]; batch: number }) => {
    const bytes = (packer as DocumentPacker).take(batch).docs;
    parts.forEach((p, i) => {
      let knowledge: Buffer | null = null;
      if (p.knowledgeJson !== null) {
        knowledge = knowledgePacked.get(p.knowledgeJson) ?? packDocument(p.knowledgeJson, dictionary);
        knowledgePacked.set(p.knowledgeJson, knowledge);
      }
      insert.run(p.id, bytes[2 * i], knowledge, p.etag, bytes[2 * i + 1]);
      written++;
    });
  };
  try {
    for (let after = ''; ; ) {
      const rows = page.all(after, CHUNK) as ProductRow[];
      const last = rows.at(-1);
      if (!last) break;
      after = String(last.id);
      const parts = documentParts(db, rows);
      if (!packer) {
        dictionary = documentDictionary(
          parts.flatMap((p) => [
            p.json,
            p.barcodeJson,
            ...(p.knowledgeJson === null ? [] : [p.knowledgeJson]),
          ]),
        );
        storeDictionary(db, 'documents', dictionary);
        // one chunk packs in less time than a worker takes to load (half a second from sources)
        packer = new DocumentPacker(dictionary, { worker: rows.length === CHUNK });
      }
      const batch = packer.add(parts.flatMap((p) => [p.json, p.barcodeJson]));
      if (pending) flush(pending);
      pending = { parts, batch };
    }
    if (pending) flush(pending);
  } finally {
    void packer?.close();
  }
  return written;
}

/** The documents of a chunk of products rows, serialized. */
function documentParts(db: Db, rows: ProductRow[]): Parts[] {
  const offers = offersFor(
    db,
    rows.map((r) => String(r.id)),
  );
  return rows.map((row): Parts => {
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
}
