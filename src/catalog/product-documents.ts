import { createHash } from 'node:crypto';
import fastJson from 'fast-json-stringify';
import type { Static } from 'typebox';
import { BarcodeResult, KnowledgeMeta, Product } from '../schemas/index.js';
import { type Db, hasTable, perConnection, schemaVersion, stmt } from './database.js';
import type { DocumentCache, KeptDocument, PackedDocument, ProductDocument } from './document-cache.js';
import { DocumentInflater, storedDictionaries, storedDictionary } from './document-codec.js';
import { COMPACT_VERSION } from './schema.js';

/**
 * The Product serializer compiled from the route's own schema, as Fastify compiles it for
 * the response: a stored document is byte for byte what the route would have serialized.
 */
export const serializeProduct: (product: Product) => string = fastJson(Product);
export const serializeBarcodeResult: (result: BarcodeResult) => string = fastJson(BarcodeResult);
export const serializeKnowledgeMeta: (meta: Static<typeof KnowledgeMeta>) => string = fastJson(KnowledgeMeta);

/**
 * A single product's body from its list form: `_knowledge` follows every field a default
 * single-product response has, so it goes last (the Product schema's order).
 */
export const withKnowledgeMeta = (json: string, knowledgeJson: string | null): string =>
  knowledgeJson === null ? json : `${json.slice(0, -1)},"_knowledge":${knowledgeJson}}`;

/**
 * withKnowledgeMeta as the parts that make it up, in order: an answer written as bytes
 * (envelope.ts) writes each where it goes instead of joining them first.
 */
export function singleBodyParts(json: string | Buffer, knowledgeJson: string | null): (string | Buffer)[] {
  if (knowledgeJson === null) return [json];
  const open = typeof json === 'string' ? json.slice(0, -1) : json.subarray(0, json.length - 1);
  return [open, ',"_knowledge":', knowledgeJson, '}'];
}

/** The ETag of a stored document: a hash of its JSON. */
export const documentEtag = (json: string): string =>
  `"${createHash('sha1').update(json).digest('base64url')}"`;

/**
 * A stored document column (text, or packed bytes) as JSON; in a packed snapshot `bytes`
 * reads packed bytes as UTF-8 instead (DocumentInflater.readBytes: a view valid until the
 * next read).
 */
export type DocumentReader = ((stored: string | Uint8Array) => string) & {
  bytes?: (packed: Uint8Array) => Buffer;
};

const readers = perConnection<DocumentReader | null>();
const plain: DocumentReader = (stored) => stored as string;
function readerOf(db: Db): DocumentReader | null {
  if (!hasTable(db, 'product_documents')) return null;
  if (schemaVersion(db) < COMPACT_VERSION) return plain;
  // a dictionary per product type (packNumbered), or one for all in older snapshots; the
  // streams are reused from read to read (one connection serves one thread)
  const numbered = storedDictionaries(db, 'documents');
  const inflater =
    numbered.length > 0
      ? new DocumentInflater(numbered, true)
      : new DocumentInflater([storedDictionary(db, 'documents')], false);
  const read: DocumentReader = (stored) => inflater.read(stored as Uint8Array);
  read.bytes = (packed) => inflater.readBytes(packed);
  return read;
}

/**
 * How this snapshot's stored documents read (packed since schema version 7, plain text
 * before), or null when it predates stored documents.
 */
export function documentReader(db: Db): DocumentReader | null {
  return readers(db, '', readerOf);
}

const knowledgeTexts = perConnection<string>({ max: 4096 });

/**
 * A stored `_knowledge` meta as JSON. Products of a type share their text (ingest packs each
 * distinct text once: 217 of them for the 35k demo), so it is decoded once per snapshot and
 * the one string shared, instead of an inflate on every read.
 */
function knowledgeText(db: Db, read: DocumentReader, stored: string | Uint8Array): string {
  const key = typeof stored === 'string' ? stored : Buffer.from(stored).toString('latin1');
  return knowledgeTexts(db, key, () => read(stored));
}

type DocumentRow = { json: string | Buffer; knowledge_json: string | Buffer | null; etag: string };

/** A stored document row as kept in memory (document-cache.ts). */
function kept(db: Db, read: DocumentReader, row: DocumentRow): KeptDocument {
  return {
    json: read(row.json),
    knowledge: row.knowledge_json === null ? null : knowledgeText(db, read, row.knowledge_json),
    etag: row.etag,
  };
}

/**
 * Product `id`'s document from `cache`: decoded, or unpacked from its packed copy (and then
 * offered to the decoded ones); undefined when it holds neither.
 */
function cachedDocument(read: DocumentReader, id: string, cache: DocumentCache): KeptDocument | undefined {
  const known = cache.get(id);
  if (known) return known;
  const packed = cache.getPacked(id);
  return packed && unpacked(read, id, packed, cache);
}

/** A packed document read back, and offered to the decoded ones. */
function unpacked(
  read: DocumentReader,
  id: string,
  packed: PackedDocument,
  cache: DocumentCache,
): KeptDocument {
  const document = { json: read(packed.packed), knowledge: packed.knowledge, etag: packed.etag };
  cache.set(id, document);
  return document;
}

/** Reads a row as kept, and offers both its decoded and (in a packed snapshot) its packed form to `cache`. */
function keepRow(
  db: Db,
  read: DocumentReader,
  id: string,
  row: DocumentRow,
  cache?: DocumentCache,
): KeptDocument {
  const document = kept(db, read, row);
  if (cache) {
    cache.set(id, document);
    if (typeof row.json !== 'string')
      cache.setPacked(id, { packed: row.json, knowledge: document.knowledge, etag: document.etag });
  }
  return document;
}

/**
 * The stored document of product `id` (its list form, `_knowledge` meta and ETag), or null
 * when the product is unknown or the snapshot predates stored documents; from `cache` when
 * it holds the product, and offered to it once read.
 */
function keptDocument(db: Db, id: string, cache?: DocumentCache): KeptDocument | null {
  const read = documentReader(db);
  if (!read) return null;
  const known = cache && cachedDocument(read, id, cache);
  return known || rowDocument(db, read, id, cache);
}

/** The stored document of product `id` read from its row (keptDocument past the cache). */
function rowDocument(db: Db, read: DocumentReader, id: string, cache?: DocumentCache): KeptDocument | null {
  const row = stmt(db, 'SELECT json, knowledge_json, etag FROM product_documents WHERE id = ?').get(id) as
    | DocumentRow
    | undefined;
  return row ? keepRow(db, read, id, row, cache) : null;
}

/**
 * The stored JSON of a product's default response (see migrations/002-read-models.ts), or
 * null when the product is unknown or the snapshot predates stored documents; read through
 * `cache` when given.
 */
export function productDocument(db: Db, id: string, cache?: DocumentCache): ProductDocument | null {
  const document = keptDocument(db, id, cache);
  return document && { json: withKnowledgeMeta(document.json, document.knowledge), etag: document.etag };
}

/**
 * productDocument as kept: the list form, the `_knowledge` meta apart (singleBodyParts joins
 * them) and the ETag; the same reads and the same cache.
 */
export function productDocumentParts(db: Db, id: string, cache?: DocumentCache): DocumentParts | null {
  const read = documentReader(db);
  if (!read) return null;
  const known = cache?.get(id);
  if (known) return known;
  const packed = cache?.getPacked(id);
  if (packed && cache) {
    if (!read.bytes) return unpacked(read, id, packed, cache);
    // decoded to a string only when the decoded documents take it: most answers from the
    // packed ones are written as bytes (a UTF-8 decode and encode less, about 5 µs)
    const bytes = read.bytes(packed.packed);
    if (!cache.keeps(id, bytes.length, packed.etag))
      return { json: bytes, knowledge: packed.knowledge, etag: packed.etag };
    // the decoded ones take it: made a string from the bytes inflated (not inflated again)
    const document = { json: bytes.toString(), knowledge: packed.knowledge, etag: packed.etag };
    cache.set(id, document);
    return document;
  }
  return rowDocument(db, read, id, cache);
}

/**
 * A single product's stored document for one answer (productDocumentParts): a kept document,
 * or the bytes of one read from its packed copy, valid until the snapshot's next read.
 */
export interface DocumentParts {
  json: string | Buffer;
  knowledge: string | null;
  etag: string;
}

/**
 * The stored list-form JSON of the products `ids` (search and list pages), in that order,
 * unknown ids left out; read through `cache` when given: a page of kept documents needs no
 * read of its packed rows at all, and the rows it does read are offered to the cache.
 */
export function listDocuments(db: Db, ids: readonly string[], cache?: DocumentCache): string[] {
  const read = documentReader(db);
  if (!read) return [];
  const found = new Map<string, string>();
  const missing: string[] = [];
  for (const id of ids) {
    const known = cache && cachedDocument(read, id, cache);
    if (known) found.set(id, known.json);
    else missing.push(id);
  }
  if (missing.length > 0) {
    const rows = stmt(
      db,
      'SELECT id, json, knowledge_json, etag FROM product_documents WHERE id IN (SELECT value FROM json_each(?))',
    ).all(JSON.stringify(missing)) as (DocumentRow & { id: string })[];
    for (const row of rows) found.set(row.id, keepRow(db, read, row.id, row, cache).json);
  }
  const out: string[] = [];
  for (const id of ids) {
    const json = found.get(id);
    if (json !== undefined) out.push(json);
  }
  return out;
}

/** The id of the product with this slug, or null. */
export function productIdBySlug(db: Db, slug: string): string | null {
  return (stmt(db, 'SELECT id FROM products WHERE slug = ?').pluck().get(slug) as string | undefined) ?? null;
}

/**
 * The stored barcode result of a product, answering for `gtin` (the form the caller sent);
 * null when the snapshot predates stored documents.
 */
export function barcodeDocument(db: Db, id: string, gtin: string): string | null {
  const read = documentReader(db);
  if (!read || !barcodesCarryUrls(db, read)) return null;
  const stored = stmt(db, 'SELECT barcode_json FROM product_documents WHERE id = ?').pluck().get(id) as
    | string
    | Buffer
    | undefined;
  // `gtin` is the second field, after a UUID: its first occurrence is the one to fill
  return stored === undefined ? null : read(stored).replace('"gtin":""', `"gtin":${JSON.stringify(gtin)}`);
}

const urlsStored = perConnection<boolean>();

/**
 * Whether this snapshot's stored barcode results give each retailer its `url`: those written
 * before it was added do not, and their lookups are built from the rows (which have it)
 * until the next ingest writes them anew. One snapshot is written by one version, so the
 * first stored result with a retailer tells.
 */
function barcodesCarryUrls(db: Db, read: DocumentReader): boolean {
  return urlsStored(db, '', () => {
    const stored = stmt(db, 'SELECT barcode_json FROM product_documents LIMIT 1000')
      .pluck()
      .iterate() as Iterable<string | Uint8Array>;
    for (const one of stored) {
      if (one === null) continue;
      const [first] = (JSON.parse(read(one)) as { retailers: Record<string, unknown>[] }).retailers;
      if (first) return 'url' in first;
    }
    return true;
  });
}
