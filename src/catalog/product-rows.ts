import { type Product, QualityBreakdown } from '../schemas/index.js';
import { storedText } from './document-codec.js';

/** Columns of a product with its brand, category, type and group, as one flat row. */
export const PRODUCT_SELECT = `
SELECT p.*,
  b.id AS b_id, b.name AS b_name, b.slug AS b_slug, b.logo_url AS b_logo_url, b.website_url AS b_website_url, b.created_at AS b_created_at,
  c.id AS c_id, c.name AS c_name, c.slug AS c_slug, c.description AS c_description, c.icon AS c_icon, c.is_featured AS c_is_featured,
  c.parent_id AS c_parent_id, c.level AS c_level, c.path AS c_path,
  t.id AS t_id, t.name AS t_name, t.slug AS t_slug, t.subcategory_id AS t_subcategory_id, t.is_active AS t_is_active, t.level AS t_level, t.path AS t_path,
  g.id AS g_id, g.name AS g_name, g.slug AS g_slug, g.base_model AS g_base_model, g.series_name AS g_series_name,
  g.variant_dimensions_json AS g_variant_dimensions_json
FROM products p
LEFT JOIN brands b ON b.id = p.brand_id
LEFT JOIN categories c ON c.id = p.category_id
LEFT JOIN product_types t ON t.id = p.product_type_id
LEFT JOIN product_groups g ON g.id = p.product_group_id`;

export type ProductRow = Record<string, unknown>;

export const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
export const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/** The id, name and slug every named row (brand, category, type, group, product) starts with. */
export const named = (row: Record<string, unknown>) => ({
  id: String(row.id),
  name: String(row.name),
  slug: String(row.slug),
});
const json = <T>(v: unknown, fallback: T): T => {
  if (typeof v !== 'string' || v === '') return fallback;
  try {
    return JSON.parse(v) as T;
  } catch {
    return fallback;
  }
};

/** The `b_*` columns of a joined row as the short Brand of product and group responses. */
export function brandRef(row: ProductRow): Product['brand'] {
  return row.b_id
    ? {
        id: String(row.b_id),
        name: String(row.b_name),
        slug: String(row.b_slug),
        logo_url: str(row.b_logo_url),
        website_url: str(row.b_website_url),
        created_at: String(row.b_created_at),
      }
    : null;
}

/** The `c_*` columns of a joined row as a Category. */
export function categoryRef(row: ProductRow): Product['category'] {
  return row.c_id
    ? {
        id: String(row.c_id),
        name: String(row.c_name),
        slug: String(row.c_slug),
        description: str(row.c_description),
        icon: str(row.c_icon),
        is_featured: Boolean(row.c_is_featured),
        parent_id: str(row.c_parent_id),
        level: Number(row.c_level),
        path: String(row.c_path),
      }
    : null;
}

/** The `t_*` columns of a joined row as a ProductType. */
export function typeRef(row: ProductRow): Product['product_type'] {
  return row.t_id
    ? {
        id: String(row.t_id),
        name: String(row.t_name),
        slug: String(row.t_slug),
        subcategory_id: str(row.t_subcategory_id),
        is_active: Boolean(row.t_is_active),
        level: Number(row.t_level),
        path: String(row.t_path),
      }
    : null;
}

type Breakdown = Product['_quality_breakdown'];
/** The scores of a quality breakdown, in the order of its schema. */
const BREAKDOWN_KEYS = Object.keys(QualityBreakdown.properties) as (keyof Breakdown)[];
const NO_BREAKDOWN = Object.fromEntries(BREAKDOWN_KEYS.map((k) => [k, 0])) as Breakdown;

/**
 * A quality breakdown as stored (products.quality_breakdown_json): its scores as a JSON
 * array in the schema's order, e.g. `[1,1,0.91,1,0.89,0.93,1]`, a quarter of the object's
 * bytes (snapshot schema 9).
 */
export const storedBreakdown = (breakdown: Breakdown): string =>
  JSON.stringify(BREAKDOWN_KEYS.map((k) => breakdown[k]));

/** A stored quality breakdown: the scores' array, or the object snapshots before schema 9 store. */
function breakdownOf(stored: unknown): Breakdown {
  const value = json<unknown>(stored, NO_BREAKDOWN);
  if (!Array.isArray(value)) return value as Breakdown;
  return Object.fromEntries(BREAKDOWN_KEYS.map((k, i) => [k, Number(value[i] ?? 0)])) as Breakdown;
}

/** Maps a PRODUCT_SELECT row to the Product resource of spec §2.2. */
export function toProduct(row: ProductRow): Product {
  return {
    id: String(row.id),
    name: String(row.name),
    slug: String(row.slug),
    description: str(row.description),
    gtin: str(row.gtin),
    mpn: str(row.mpn),
    model_number: str(row.model_number),
    current_best_price: num(row.current_best_price),
    min_price: num(row.min_price),
    max_price: num(row.max_price),
    avg_price: num(row.avg_price),
    image_url: str(row.image_url),
    variant_attributes: json(row.variant_attributes_json, {}),
    specifications: json(row.specifications_json, {}),
    data: json(row.data_json, {}),
    quality_score: Number(row.quality_score ?? 0),
    data_tier: Number(row.data_tier ?? 2),
    source_type: String(row.source_type ?? 'retailer_feed'),
    product_group_id: str(row.product_group_id),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
    brand: brandRef(row),
    category: categoryRef(row),
    product_type: typeRef(row),
    product_group: row.g_id
      ? {
          id: String(row.g_id),
          name: String(row.g_name),
          slug: String(row.g_slug),
          base_model: str(row.g_base_model),
          series_name: str(row.g_series_name),
          variant_dimensions: json(row.g_variant_dimensions_json, []),
        }
      : null,
    _naming_method: str(row.naming_method),
    _naming_confidence: num(row.naming_confidence),
    _category_profile_key: str(row.category_profile_key),
    // packed since schema version 7 (migrations/007-compact.ts)
    _spec_sources: json(storedText(row.spec_sources_json), {}),
    _quality_breakdown: breakdownOf(row.quality_breakdown_json),
  };
}
