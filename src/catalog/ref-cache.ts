import { type Db, stmt } from './database.js';
import type { ProductRow } from './product-rows.js';

type Columns = Record<string, unknown>;

/**
 * The brand, category, product type and group columns of PRODUCT_SELECT, read once per
 * snapshot and id. A snapshot never changes, and these rows are few and shared by many
 * products, so a single-product read needs one indexed row instead of a five-way join.
 */
class RefCache {
  readonly #maps = new Map<string, Map<string, Columns | null>>();
  constructor(private readonly db: Db) {}

  #get(kind: string, sql: string, id: unknown): Columns | null {
    if (typeof id !== 'string') return null;
    let map = this.#maps.get(kind);
    if (!map) {
      map = new Map();
      this.#maps.set(kind, map);
    }
    let hit = map.get(id);
    if (hit === undefined) {
      hit = (stmt(this.db, sql).get(id) as Columns | undefined) ?? null;
      map.set(id, hit);
    }
    return hit;
  }

  /** A products row joined with its cached references, shaped like a PRODUCT_SELECT row. */
  expand(row: ProductRow): ProductRow {
    return {
      ...row,
      ...this.#get(
        'b',
        'SELECT id AS b_id, name AS b_name, slug AS b_slug, logo_url AS b_logo_url, website_url AS b_website_url, created_at AS b_created_at FROM brands WHERE id = ?',
        row.brand_id,
      ),
      ...this.#get(
        'c',
        `SELECT id AS c_id, name AS c_name, slug AS c_slug, description AS c_description, icon AS c_icon, is_featured AS c_is_featured,
           parent_id AS c_parent_id, level AS c_level, path AS c_path FROM categories WHERE id = ?`,
        row.category_id,
      ),
      ...this.#get(
        't',
        `SELECT id AS t_id, name AS t_name, slug AS t_slug, subcategory_id AS t_subcategory_id, is_active AS t_is_active,
           level AS t_level, path AS t_path FROM product_types WHERE id = ?`,
        row.product_type_id,
      ),
      ...this.#get(
        'g',
        `SELECT id AS g_id, name AS g_name, slug AS g_slug, base_model AS g_base_model, series_name AS g_series_name,
           variant_dimensions_json AS g_variant_dimensions_json FROM product_groups WHERE id = ?`,
        row.product_group_id,
      ),
    };
  }
}

const caches = new WeakMap<Db, RefCache>();

/** Expands a plain `SELECT * FROM products` row into a PRODUCT_SELECT-shaped row. */
export function withRefs(db: Db, row: ProductRow): ProductRow {
  let cache = caches.get(db);
  if (!cache) {
    cache = new RefCache(db);
    caches.set(db, cache);
  }
  return cache.expand(row);
}
