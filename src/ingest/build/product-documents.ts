import {
  barcodeFromRow,
  type Db,
  DocumentPacker,
  documentDictionary,
  documentEtag,
  offersFor,
  type ProductRow,
  packNumbered,
  productFromRow,
  serializeBarcodeResult,
  serializeKnowledgeMeta,
  serializeProduct,
  storeDictionary,
  storedText,
  withKnowledgeMeta,
} from '../../catalog/index.js';
import { knowledgeMeta } from '../../knowledge/index.js';
import type { Product } from '../../schemas/index.js';

/** Products read at once: their rows and offers come in two queries. */
const CHUNK = 1000;

/** One product's stored parts, before packing. */
interface Parts {
  id: string;
  json: string;
  knowledgeJson: string | null;
  etag: string;
  barcodeJson: string;
  /** the product type's id */
  type: string | null;
}

/**
 * Dictionaries (catalog/document-codec.ts): one per product type, drawn from the documents of
 * its first TYPE_SAMPLE products, and dictionary 0 for everything else (a type's first
 * products, products without a type, `_knowledge`), drawn from the first chunk. Measured on
 * the 6k demo against one 32 KB dictionary for all: product and barcode documents 957 →
 * 648 B a product, plus 43 B of dictionaries at 35k products (183 types × 8 KB), and deflate
 * CPU 300 → 139 µs a product (a dictionary is hashed for every document it packs).
 */
const TYPE_SAMPLE = 2;
const TYPE_DICTIONARY_BYTES = 8 * 1024;
const FIRST_DICTIONARY_BYTES = 16 * 1024;

/**
 * Stores every product's default response body (lists, and GET /v2/products/{id} without
 * include_* flags): the product with its references, serialized with the routes' schema, its
 * `_knowledge` availability and its barcode result, each packed with a dictionary of its
 * product type (see TYPE_SAMPLE). Runs after everything a product response reads is written.
 *
 * A chunk is packed on another thread (DocumentPacker) while this one reads and serializes
 * the next, and written once packed: at most two chunks are held at a time. Dictionaries
 * are chosen on this thread in id order, so the bytes do not depend on the threads.
 * `_knowledge` depends only on a product's type and brand, so each distinct one is packed once.
 */
export function writeProductDocuments(db: Db): number {
  const insert = db.prepare(
    'INSERT INTO product_documents (id, json, knowledge_json, etag, barcode_json) VALUES (?, ?, ?, ?, ?)',
  );
  // in id order, so the documents' id index grows at its right edge: full pages in key order,
  // which a lookup by id reads faster than the half-empty pages random inserts leave
  const page = db.prepare('SELECT * FROM products WHERE id > ? ORDER BY id LIMIT ?');
  let packer: DocumentPacker | null = null;
  const dictionaries: Buffer[] = [];
  const dictionaryOfType = new Map<string, number>();
  const samplesOfType = new Map<string, string[]>();
  const addDictionary = (dictionary: Buffer): number => {
    const n = dictionaries.push(dictionary) - 1;
    storeDictionary(db, `documents/${n}`, dictionary);
    if (packer) packer.addDictionary(dictionary);
    return n;
  };
  /** the dictionary of a product's documents, drawing its type's once the type has enough samples */
  const dictionaryOf = (p: Parts): number => {
    if (p.type === null) return 0;
    const known = dictionaryOfType.get(p.type);
    if (known !== undefined) return known;
    const samples = samplesOfType.get(p.type) ?? [];
    samples.push(p.json, p.barcodeJson);
    if (samples.length < 2 * TYPE_SAMPLE) {
      samplesOfType.set(p.type, samples);
      return 0;
    }
    samplesOfType.delete(p.type);
    const n = addDictionary(documentDictionary(samples, TYPE_DICTIONARY_BYTES));
    dictionaryOfType.set(p.type, n);
    return n;
  };
  const knowledgePacked = new Map<string, Buffer>();
  let written = 0;
  let pending: { parts: Parts[]; batch: number } | null = null;
  const flush = ({ parts, batch }: { parts: Parts[]; batch: number }) => {
    const bytes = (packer as DocumentPacker).take(batch).docs;
    parts.forEach((p, i) => {
      let knowledge: Buffer | null = null;
      if (p.knowledgeJson !== null) {
        knowledge = knowledgePacked.get(p.knowledgeJson) ?? packNumbered(p.knowledgeJson, dictionaries, 0);
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
        const first = documentDictionary(
          parts.flatMap((p) => [
            p.json,
            p.barcodeJson,
            ...(p.knowledgeJson === null ? [] : [p.knowledgeJson]),
          ]),
          FIRST_DICTIONARY_BYTES,
        );
        addDictionary(first);
        // one chunk packs in less time than a worker takes to load (half a second from sources)
        packer = new DocumentPacker(first, { worker: rows.length === CHUNK });
      }
      const numbers = parts.flatMap((p) => {
        const n = dictionaryOf(p);
        return [n, n];
      });
      const batch = packer.add(
        parts.flatMap((p) => [p.json, p.barcodeJson]),
        [],
        numbers,
      );
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
    const { product, json } = productDocument(db, row);
    const meta = knowledgeMeta(db, product);
    const knowledgeJson = meta ? serializeKnowledgeMeta(meta) : null;
    const barcode = barcodeFromRow(db, row, offers.get(product.id) ?? [], '');
    return {
      id: product.id,
      json,
      knowledgeJson,
      etag: documentEtag(withKnowledgeMeta(json, knowledgeJson)),
      barcodeJson: serializeBarcodeResult(barcode),
      type: product.product_type?.id ?? null,
    };
  });
}

/** The empty spec sources as the Product serializer writes them, and the field that follows. */
const NO_SOURCES = '"_spec_sources":{}';
const NO_SOURCES_THEN = `${NO_SOURCES},"_quality_breakdown":`;

/**
 * A products row's Product and its document JSON, the spec sources spliced in as stored.
 * Parsing a product's spec sources (1.7 KB a product on the demo) only for the serializer to
 * write them back was a tenth of this phase's CPU; the stored text is what the serializer
 * writes whenever {@link splicesAsStored} holds, so the JSON is the same byte for byte
 * (product-documents.test.ts checks it against serializing the parsed object). Otherwise,
 * the product is read and serialized whole.
 */
function productDocument(db: Db, row: ProductRow): { product: Product; json: string } {
  const stored = row.spec_sources_json;
  const sources = storedText(stored);
  if (sources !== null && splicesAsStored(sources)) {
    row.spec_sources_json = null;
    const product = productFromRow(db, row);
    row.spec_sources_json = stored;
    const json = withSpecSources(serializeProduct(product), sources);
    // the product's `_spec_sources` stays empty: nothing after this reads them
    if (json !== null) return { product, json };
  }
  const product = productFromRow(db, row);
  return { product, json: serializeProduct(product) };
}

/**
 * Whether a stored spec sources text is what the Product serializer writes for its parsed
 * object. The write phase stores `JSON.stringify` of an object, which JSON.stringify writes
 * back unchanged once parsed (keys in the same order, numbers and escapes in the same form).
 * The serializer writes each of a free object's values with JSON.stringify and each key
 * escaped as JSON.stringify does, but skips keys with a line terminator: a `\n` or `\r`
 * escape, or a raw U+2028/U+2029, anywhere in the text sends the product the long way.
 */
export const splicesAsStored = (sources: string): boolean =>
  sources.startsWith('{') && !/\\[nr]|[\u2028\u2029]/.test(sources);

/**
 * A product document serialized with empty spec sources, with `sources` in their place; null
 * when the document does not end in them and the quality breakdown (a product's own fields
 * end so: the breakdown's values are numbers, so the last match is the product's).
 */
export function withSpecSources(json: string, sources: string): string | null {
  const at = json.lastIndexOf(NO_SOURCES_THEN);
  if (at < 0) return null;
  return `${json.slice(0, at)}"_spec_sources":${sources}${json.slice(at + NO_SOURCES.length)}`;
}
