import type { Product } from '../schemas/index.js';
import { type Db, perConnection, stmt } from './database.js';
import { type ProductRow, toProduct } from './product-rows.js';

type Refs = Pick<Product, 'brand' | 'category' | 'product_type' | 'product_group'>;

/**
 * The brand, category, product type and group objects of products, built once per snapshot
 * and id. A snapshot never changes, and these rows are few and shared by many products, so
 * a single-product read needs one indexed row instead of a five-way join. The objects are
 * shared between products and must not be mutated.
 */
class RefCache {
  readonly #maps = new Map<string, Map<string, unknown>>();
  readonly #retailers = new Map<string, { name: string; slug: string } | null>();
  constructor(private readonly db: Db) {}

  #get<K extends keyof Refs>(kind: K, sql: string, id: unknown): Refs[K] {
    if (typeof id !== 'string') return null;
    let map = this.#maps.get(kind);
    if (!map) {
      map = new Map();
      this.#maps.set(kind, map);
    }
    let hit = map.get(id) as Refs[K] | undefined;
    if (hit === undefined) {
      const row = stmt(this.db, sql).get(id) as ProductRow | undefined;
      hit = row ? (toProduct({ ...EMPTY_ROW, ...row })[kind] as Refs[K]) : null;
      map.set(id, hit);
    }
    return hit;
  }

  /** A retailer's name and slug. */
  retailer(id: unknown): { name: string; slug: string } | null {
    if (typeof id !== 'string') return null;
    let hit = this.#retailers.get(id);
    if (hit === undefined) {
      hit =
        (stmt(this.db, 'SELECT name, slug FROM retailers WHERE id = ?').get(id) as
          | { name: string; slug: string }
          | undefined) ?? null;
      this.#retailers.set(id, hit);
    }
    return hit;
  }

  brand(id: unknown): Refs['brand'] {
    return this.#get(
      'brand',
      'SELECT id AS b_id, name AS b_name, slug AS b_slug, logo_url AS b_logo_url, website_url AS b_website_url, created_at AS b_created_at FROM brands WHERE id = ?',
      id,
    );
  }

  category(id: unknown): Refs['category'] {
    return this.#get(
      'category',
      `SELECT id AS c_id, name AS c_name, slug AS c_slug, description AS c_description, icon AS c_icon, is_featured AS c_is_featured,
         parent_id AS c_parent_id, level AS c_level, path AS c_path FROM categories WHERE id = ?`,
      id,
    );
  }

  productType(id: unknown): Refs['product_type'] {
    return this.#get(
      'product_type',
      `SELECT id AS t_id, name AS t_name, slug AS t_slug, subcategory_id AS t_subcategory_id, is_active AS t_is_active,
         level AS t_level, path AS t_path FROM product_types WHERE id = ?`,
      id,
    );
  }

  group(id: unknown): Refs['product_group'] {
    return this.#get(
      'product_group',
      `SELECT id AS g_id, name AS g_name, slug AS g_slug, base_model AS g_base_model, series_name AS g_series_name,
         variant_dimensions_json AS g_variant_dimensions_json FROM product_groups WHERE id = ?`,
      id,
    );
  }

  /** A Product from a plain products row, with its cached references. */
  product(row: ProductRow): Product {
    const product = toProduct(row);
    product.brand = this.brand(row.brand_id);
    product.category = this.category(row.category_id);
    product.product_type = this.productType(row.product_type_id);
    product.product_group = this.group(row.product_group_id);
    return product;
  }
}

/** The columns toProduct needs besides a reference's own, so it can build that reference alone. */
const EMPTY_ROW: ProductRow = { id: '', name: '', slug: '', created_at: '', updated_at: '' };

const caches = perConnection<RefCache>();
const newCache = (db: Db) => new RefCache(db);

/** The per-snapshot cache of brand, category, product type and group objects. */
export function refsOf(db: Db): RefCache {
  return caches(db, '', newCache);
}

/** A Product from a plain `SELECT * FROM products` row, references from the per-snapshot cache. */
export function productFromRow(db: Db, row: ProductRow): Product {
  return refsOf(db).product(row);
}
