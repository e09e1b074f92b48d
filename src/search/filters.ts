import { type Db, stmt } from '../catalog/index.js';
import { productTable, specValues } from './product-table.js';

export type SpecFilterValue =
  | string
  | number
  | boolean
  | (string | number | boolean)[]
  | { min?: number; max?: number };

/** The `filters` object of advanced and semantic search (DESIGN.md §4). */
export interface SearchFilters {
  /** brand ids or slugs */
  brand?: string[];
  /** category ids or slugs; a category also matches its subcategories */
  category?: string[];
  /** product type ids or slugs */
  product_type?: string[];
  /** retailer ids or slugs: products with an offer from one of them */
  retailer?: string[];
  price?: { min?: number; max?: number };
  in_stock?: boolean;
  /** tiers; default 1 and 2 (3 and 4 are legacy) */
  data_tier?: number[];
  specs?: Record<string, SpecFilterValue>;
}

const resolveIds = (db: Db, table: string, values: string[] | undefined): Set<string> | null => {
  if (!values || values.length === 0) return null;
  const ids = stmt(
    db,
    `SELECT id FROM ${table} WHERE id IN (SELECT value FROM json_each(?)) OR slug IN (SELECT value FROM json_each(?))`,
  )
    .pluck()
    .all(JSON.stringify(values), JSON.stringify(values)) as string[];
  return new Set(ids);
};

const lower = (v: string | number | boolean) => String(v).toLowerCase();
const TRUE = new Set(['true', 'yes', '1', 'y']);
const FALSE = new Set(['false', 'no', '0', 'n', 'none']);
const sameValue = (stored: string, wanted: string | number | boolean): boolean => {
  const s = stored.toLowerCase();
  if (typeof wanted === 'boolean') return wanted ? TRUE.has(s) : FALSE.has(s);
  const w = lower(wanted);
  if (w === s) return true;
  if (TRUE.has(w)) return TRUE.has(s);
  if (FALSE.has(w)) return FALSE.has(s);
  return false;
};

/**
 * Compiles filters into a predicate over product rows of the snapshot's product table.
 * Returns the predicate by rowid (null when nothing is filtered).
 */
export function compileFilters(db: Db, filters: SearchFilters): ((rowid: number) => boolean) | null {
  const t = productTable(db);
  const checks: ((row: number, rowid: number) => boolean)[] = [];
  const brands = resolveIds(db, 'brands', filters.brand);
  if (brands) checks.push((r) => t.brand[r] !== null && brands.has(t.brand[r]!));
  const categories = resolveIds(db, 'categories', filters.category);
  if (categories)
    checks.push(
      (r) =>
        (t.category[r] !== null && categories.has(t.category[r]!)) ||
        (t.categoryParent[r] !== null && categories.has(t.categoryParent[r]!)),
    );
  const types = resolveIds(db, 'product_types', filters.product_type);
  if (types) checks.push((r) => t.type[r] !== null && types.has(t.type[r]!));
  const retailers = resolveIds(db, 'retailers', filters.retailer);
  if (retailers) checks.push((r) => t.retailers[r]!.some((id) => retailers.has(id)));
  const { min, max } = filters.price ?? {};
  if (min !== undefined) checks.push((r) => t.price[r]! >= min);
  if (max !== undefined) checks.push((r) => t.price[r]! <= max);
  if (filters.in_stock !== undefined) {
    const want = filters.in_stock ? 1 : 0;
    checks.push((r) => t.inStock[r] === want);
  }
  const tiers = new Set(filters.data_tier && filters.data_tier.length > 0 ? filters.data_tier : [1, 2]);
  checks.push((r) => tiers.has(t.tier[r]!));
  for (const [key, wanted] of Object.entries(filters.specs ?? {})) {
    const values = specValues(db, key);
    if (typeof wanted === 'object' && !Array.isArray(wanted)) {
      const { min: lo, max: hi } = wanted;
      checks.push((_, rowid) => {
        const v = values.numeric.get(rowid);
        return v !== undefined && (lo === undefined || v >= lo) && (hi === undefined || v <= hi);
      });
    } else {
      const list = Array.isArray(wanted) ? wanted : [wanted];
      checks.push((_, rowid) => {
        const stored = values.text.get(rowid);
        if (!stored) return false;
        const n = values.numeric.get(rowid);
        return list.some(
          (w) => (typeof w === 'number' ? n === w : false) || stored.some((s) => sameValue(s, w)),
        );
      });
    }
  }
  if (checks.length === 0) return null;
  // evaluated once over the table into a mask by rowid: the scans then test one byte
  const mask = new Uint8Array((t.rowids.length > 0 ? t.rowids[t.rowids.length - 1]! : 0) + 1);
  let all = true;
  for (let row = 0; row < t.rowids.length; row++) {
    const rowid = t.rowids[row]!;
    let ok = true;
    for (const c of checks)
      if (!c(row, rowid)) {
        ok = false;
        break;
      }
    if (ok) mask[rowid] = 1;
    else all = false;
  }
  if (all) return null;
  return (rowid) => mask[rowid] === 1;
}
