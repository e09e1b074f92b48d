import fastJson from 'fast-json-stringify';
import { Product } from '../schemas/index.js';
import { type Db, hasTable, stmt } from './database.js';

/**
 * The Product serializer compiled from the route's own schema, as Fastify compiles it for
 * the response: a stored document is byte for byte what the route would have serialized.
 */
export const serializeProduct: (product: Product) => string = fastJson(Product);

/**
 * The stored JSON of a product's default response (see migrations/002-read-models.ts), or null when the
 * product is unknown or the snapshot predates stored documents.
 */
export function productDocument(db: Db, id: string): string | null {
  if (!hasTable(db, 'product_documents')) return null;
  return (
    (stmt(db, 'SELECT json FROM product_documents WHERE id = ?').pluck().get(id) as string | undefined) ??
    null
  );
}

/** The id of the product with this slug, or null. */
export function productIdBySlug(db: Db, slug: string): string | null {
  return (stmt(db, 'SELECT id FROM products WHERE slug = ?').pluck().get(slug) as string | undefined) ?? null;
}
