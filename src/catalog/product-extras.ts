import { toGtin14 } from '../identifiers/index.js';
import type {
  Attribute,
  BarcodeResult,
  Offer,
  Product,
  RelationshipItem,
  Relationships,
} from '../schemas/index.js';
import { type Db, stmt } from './database.js';
import { offersFor } from './offer-rows.js';
import { named, PRODUCT_SELECT, type ProductRow, str, toProduct } from './product-rows.js';
import { refsOf } from './ref-cache.js';

/**
 * The other products of a product's group (its variants), by name; legacy ones (tier 3–4)
 * only when asked for, as everywhere products are listed.
 */
export function variantsOf(
  db: Db,
  product: { id: string; product_group_id: string | null },
  includeLegacy = false,
): Product[] {
  if (!product.product_group_id) return [];
  const rows = stmt(
    db,
    `${PRODUCT_SELECT} WHERE p.product_group_id = ? AND p.id != ? AND (? OR p.data_tier < 3) ORDER BY p.name, p.id`,
  ).all(product.product_group_id, product.id, includeLegacy ? 1 : 0) as ProductRow[];
  return rows.map(toProduct);
}

export const ATTRIBUTE_ROLES = ['variant', 'identity', 'spec'] as const;
export type AttributeRole = (typeof ATTRIBUTE_ROLES)[number];

/** Typed attributes of a product (spec §2.10), optionally of one role. */
export function attributesOf(db: Db, productId: string, role?: AttributeRole): Attribute[] {
  const rows = stmt(
    db,
    `SELECT key, value, numeric_value, unit, role FROM product_attributes
     WHERE product_id = ? AND (? IS NULL OR role = ?)
     ORDER BY CASE role WHEN 'identity' THEN 0 WHEN 'variant' THEN 1 ELSE 2 END, key, value`,
  ).all(productId, role ?? null, role ?? null) as {
    key: string;
    value: string;
    numeric_value: number | null;
    unit: string | null;
    role: Attribute['role'];
  }[];
  return rows.map((r) => ({
    key: r.key,
    value: r.value,
    numericValue: r.numeric_value,
    unit: r.unit,
    role: r.role,
  }));
}

export const RELATIONSHIP_TYPES = [
  'successor',
  'similar',
  'consumable',
  'accessory',
  'series',
  'all',
] as const;
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];

/** Products considered similar when ingest recorded none: same type, other group, nearest price. */
const SIMILAR_FALLBACK = 5;

/**
 * Relationships of a product (spec §4.5). `successor` also answers `predecessor`; fields of
 * types not asked for are left out. `similar` falls back to the nearest-priced products of
 * the same type when ingest recorded no similar products.
 */
export function relationshipsOf(db: Db, productId: string, type: RelationshipType): Relationships {
  const rows = stmt(
    db,
    `SELECT r.type, p.id, p.name, p.slug, p.image_url, p.current_best_price, b.id AS b_id, b.name AS b_name
     FROM relationships r JOIN products p ON p.id = r.related_id LEFT JOIN brands b ON b.id = p.brand_id
     WHERE r.product_id = ? ORDER BY r.type, r.score DESC, p.name`,
  ).all(productId) as (Record<string, unknown> & { type: string })[];
  const byType = new Map<string, RelationshipItem[]>();
  for (const row of rows) {
    const list = byType.get(row.type) ?? [];
    list.push(toItem(row));
    byType.set(row.type, list);
  }
  const want = (t: RelationshipType) => type === 'all' || type === t;
  const out: Relationships = { productId };
  if (want('successor')) {
    out.successor = byType.get('successor')?.[0] ?? null;
    out.predecessor = byType.get('predecessor')?.[0] ?? null;
  }
  if (want('similar')) out.similar = byType.get('similar') ?? similarFallback(db, productId);
  if (want('consumable')) out.consumables = byType.get('consumable') ?? [];
  if (want('accessory')) out.accessories = byType.get('accessory') ?? [];
  if (want('series')) out.series = byType.get('series') ?? seriesFallback(db, productId);
  return out;
}

function toItem(row: Record<string, unknown>): RelationshipItem {
  return {
    ...named(row),
    image_url: str(row.image_url),
    current_best_price: (row.current_best_price as number | null) ?? null,
    brand: row.b_id ? { id: String(row.b_id), name: String(row.b_name) } : null,
  };
}

function similarFallback(db: Db, productId: string): RelationshipItem[] {
  const rows = stmt(
    db,
    `SELECT p.id, p.name, p.slug, p.image_url, p.current_best_price, b.id AS b_id, b.name AS b_name
     FROM products me JOIN products p ON p.product_type_id = me.product_type_id AND p.id != me.id
       AND (me.product_group_id IS NULL OR p.product_group_id IS NULL OR p.product_group_id != me.product_group_id)
     LEFT JOIN brands b ON b.id = p.brand_id
     WHERE me.id = ? AND p.data_tier < 3 AND me.current_best_price IS NOT NULL AND p.current_best_price IS NOT NULL
     ORDER BY abs(p.current_best_price - me.current_best_price), p.id LIMIT ?`,
  ).all(productId, SIMILAR_FALLBACK) as Record<string, unknown>[];
  return rows.map(toItem);
}

/** Other models of the same brand, type and series name when ingest recorded no series. */
function seriesFallback(db: Db, productId: string): RelationshipItem[] {
  const rows = stmt(
    db,
    `SELECT p.id, p.name, p.slug, p.image_url, p.current_best_price, b.id AS b_id, b.name AS b_name
     FROM products me JOIN product_groups mg ON mg.id = me.product_group_id AND mg.series_name IS NOT NULL
     JOIN product_groups g ON g.series_name = mg.series_name AND g.brand_id = mg.brand_id AND g.id != mg.id
       AND g.product_type_id = mg.product_type_id
     JOIN products p ON p.product_group_id = g.id
     LEFT JOIN brands b ON b.id = p.brand_id
     WHERE me.id = ? ORDER BY p.name LIMIT 20`,
  ).all(productId) as Record<string, unknown>[];
  return rows.map(toItem);
}

/** The id of the product a GTIN (any form) identifies, or null. */
export function productIdByGtin(db: Db, gtin: string): string | null {
  const ids = stmt(db, 'SELECT product_id FROM product_gtins WHERE gtin14 = ?')
    .pluck()
    .all(toGtin14(gtin)) as string[];
  if (ids.length <= 1) return ids[0] ?? null;
  // one GTIN on several products (a feed's mistake): the current, best-described one answers
  return stmt(
    db,
    'SELECT id FROM products WHERE id IN (SELECT value FROM json_each(?)) ORDER BY data_tier, quality_score DESC, id LIMIT 1',
  )
    .pluck()
    .get(JSON.stringify(ids)) as string;
}

/** The barcode result of a product, answering for `gtin`; null for an unknown product. */
export function barcodeResult(db: Db, id: string, gtin: string): BarcodeResult | null {
  const row = stmt(
    db,
    'SELECT id, name, image_url, current_best_price, specifications_json, brand_id, category_id, product_type_id FROM products WHERE id = ?',
  ).get(id) as ProductRow | undefined;
  return row ? barcodeFromRow(db, row, offersFor(db, [id]).get(id) ?? [], gtin) : null;
}

/** The barcode result of a products row and its offers (see offersFor), answering for `gtin`. */
export function barcodeFromRow(
  db: Db,
  row: ProductRow,
  offers: readonly Offer[],
  gtin: string,
): BarcodeResult {
  const refs = refsOf(db);
  return {
    id: String(row.id),
    gtin,
    name: String(row.name),
    brand: refs.brand(row.brand_id)?.name ?? null,
    category: refs.category(row.category_id)?.name ?? null,
    product_type: refs.productType(row.product_type_id)?.name ?? null,
    image_url: str(row.image_url),
    current_best_price: (row.current_best_price as number | null) ?? null,
    specifications: JSON.parse(String(row.specifications_json ?? '{}')) as Record<string, unknown>,
    retailers: offers.map((o) => ({
      name: o.retailer_name,
      price: o.price,
      in_stock: o.in_stock,
      url: o.retailer_url,
    })),
  };
}
