import { createHash } from 'node:crypto';
import fastJson from 'fast-json-stringify';
import { Product } from '../schemas/index.js';
import { type Db, hasTable, stmt } from './database.js';

/**
 * The Product serializer compiled from the route's own schema, as Fastify compiles it for
 * the response: a stored document is byte for byte what the route would have serialized.
 */
export const serializeProduct: (product: Product) => string = fastJson(Product);

/** A product's default response body as stored at ingest, with its ETag. */
export interface ProductDocument {
  json: string;
  etag: string;
}

/** The ETag of a stored document: a hash of its JSON. */
export const documentEtag = (json: string): string =>
  `"${createHash('sha1').update(json).digest('base64url')}"`;

/**
 * The stored JSON of a product's default response (see migrations/002-read-models.ts), or
 * null when the product is unknown or the snapshot predates stored documents.
 */
export function productDocument(db: Db, id: string): ProductDocument | null {
  if (!hasTable(db, 'product_documents')) return null;
  const row = stmt(db, 'SELECT json, etag FROM product_documents WHERE id = ?').get(id);
  return (row as ProductDocument | undefined) ?? null;
}

/** The id of the product with this slug, or null. */
export function productIdBySlug(db: Db, slug: string): string | null {
  return (stmt(db, 'SELECT id FROM products WHERE slug = ?').pluck().get(slug) as string | undefined) ?? null;
}
