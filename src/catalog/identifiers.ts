import { type Db, stmt } from './database.js';

/** The tables whose rows a request may name by id or slug, and what a message calls them. */
const TABLES = {
  brands: { sql: 'SELECT id FROM brands WHERE id = ? OR slug = ?', noun: 'brand' },
  categories: { sql: 'SELECT id FROM categories WHERE id = ? OR slug = ?', noun: 'category' },
  product_types: { sql: 'SELECT id FROM product_types WHERE id = ? OR slug = ?', noun: 'product type' },
  product_groups: { sql: 'SELECT id FROM product_groups WHERE id = ? OR slug = ?', noun: 'product group' },
} as const;
export type IdTable = keyof typeof TABLES;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id a request's id-or-slug names: a UUID is taken as it is (an unknown one simply
 * matches nothing, as before), a slug is looked up; null for an unknown slug.
 */
export function idFromIdOrSlug(db: Db, table: IdTable, value: string): string | null {
  if (UUID.test(value)) return value.toLowerCase();
  return (stmt(db, TABLES[table].sql).pluck().get(value, value) as string | undefined) ?? null;
}

/** What a message calls a row of the table ("product type"). */
export const idTableNoun = (table: IdTable): string => TABLES[table].noun;
