import { type Db, stmt } from '../catalog/index.js';
import { productTable, specValues } from './product-table.js';

export const FACET_NAMES = ['brand', 'category', 'product_type', 'retailer', 'price'] as const;
export type FacetBucket =
  | { id: string; slug: string; name: string; count: number }
  | { min: number; max: number | null; count: number }
  | { value: string; count: number };

/** Price buckets in major units: wide enough for a $20 toaster and a $4,000 range. */
const PRICE_EDGES = [0, 25, 50, 100, 250, 500, 1000, 2000, 5000];
const MAX_VALUES = 30;

const names = (db: Db, table: string, ids: string[]) =>
  new Map(
    (
      stmt(db, `SELECT id, slug, name FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`).all(
        JSON.stringify(ids),
      ) as { id: string; slug: string; name: string }[]
    ).map((r) => [r.id, r]),
  );

/**
 * Facet counts over a result set (rowids): brands, categories, product types, retailers,
 * price buckets and `spec:<key>` values, most frequent first.
 */
export function computeFacets(db: Db, rowids: number[], requested: string[]): Record<string, FacetBucket[]> {
  const t = productTable(db);
  const rows = rowids.map((r) => t.rowOf.get(r)).filter((r): r is number => r !== undefined);
  const out: Record<string, FacetBucket[]> = {};
  const byId = (table: string, pick: (row: number) => (string | null)[]) => {
    const counts = new Map<string, number>();
    for (const r of rows) for (const id of pick(r)) if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
    const info = names(db, table, [...counts.keys()]);
    return [...counts]
      .filter(([id]) => info.has(id))
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_VALUES)
      .map(([id, count]) => ({ ...info.get(id)!, count }));
  };
  for (const facet of new Set(requested)) {
    if (facet === 'brand') out.brand = byId('brands', (r) => [t.brand[r]!]);
    else if (facet === 'category') out.category = byId('categories', (r) => [t.category[r]!]);
    else if (facet === 'product_type') out.product_type = byId('product_types', (r) => [t.type[r]!]);
    else if (facet === 'retailer') out.retailer = byId('retailers', (r) => t.retailers[r]!);
    else if (facet === 'price') {
      const counts = new Array(PRICE_EDGES.length).fill(0) as number[];
      for (const r of rows) {
        const p = t.price[r]!;
        if (Number.isNaN(p)) continue;
        let b = PRICE_EDGES.length - 1;
        while (b > 0 && p < PRICE_EDGES[b]!) b--;
        counts[b]!++;
      }
      out.price = PRICE_EDGES.map((min, i) => ({
        min,
        max: PRICE_EDGES[i + 1] ?? null,
        count: counts[i]!,
      })).filter((b) => b.count > 0);
    } else if (facet.startsWith('spec:')) {
      const values = specValues(db, facet.slice(5));
      const counts = new Map<string, number>();
      for (const r of rows)
        for (const v of new Set(values.text.get(t.rowids[r]!) ?? [])) counts.set(v, (counts.get(v) ?? 0) + 1);
      out[facet] = [...counts]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, MAX_VALUES)
        .map(([value, count]) => ({ value, count }));
    }
  }
  return out;
}
