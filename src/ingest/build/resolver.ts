import { modelKey } from '../../identifiers/index.js';
import { DisjointSets } from '../../util/index.js';
import type { ResolvedProduct, ResolveRecord, ResolveResult, VariantGroup } from '../resolve/index.js';

export type { ResolvedProduct, ResolveRecord, ResolveResult, VariantGroup };
/** The contract between the pipeline and entity resolution: listings in, products and groups out. */
export type Resolver = (records: ResolveRecord[]) => ResolveResult;

/**
 * Baseline resolver: listings sharing a GTIN are one product, then listings sharing brand and
 * MPN; two listings of one retailer merge only on the same GTIN. Variant groups come from
 * item_group_id within a retailer.
 */
export const resolveByIdentifiers: Resolver = (records) => {
  const sets = new DisjointSets(records.length);
  const find = (i: number) => sets.find(i);
  const sources = records.map((r) => new Set([r.source]));
  const union = (a: number, b: number, sameItem: boolean) => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb) return;
    const overlap = [...sources[rb]!].some((s) => sources[ra]!.has(s));
    if (overlap && !sameItem) return;
    sets.union(rb, ra);
    for (const s of sources[rb]!) sources[ra]!.add(s);
  };
  const byGtin = new Map<string, number>();
  const byModel = new Map<string, number>();
  records.forEach((r, i) => {
    if (r.gtin) {
      const seen = byGtin.get(r.gtin);
      if (seen === undefined) byGtin.set(r.gtin, i);
      else union(seen, i, true);
    }
  });
  records.forEach((r, i) => {
    if (r.mpn && r.brand) {
      const key = `${r.brand.toLowerCase()}|${modelKey(r.mpn)}`;
      const seen = byModel.get(key);
      if (seen === undefined) byModel.set(key, i);
      else union(seen, i, false);
    }
  });
  const clusters = new Map<number, number[]>();
  records.forEach((_, i) => {
    const root = find(i);
    const list = clusters.get(root) ?? [];
    list.push(i);
    clusters.set(root, list);
  });
  const products: ResolvedProduct[] = [];
  const productOf = new Map<number, number>();
  for (const members of clusters.values()) {
    const first = records[members[0]!]!;
    for (const m of members) productOf.set(m, products.length);
    products.push({
      keys: members.map((m) => records[m]!.key),
      modelNumber: first.mpn ?? null,
      brand: first.brand ?? null,
      confidence: members.length > 1 ? 0.95 : 1,
    });
  }
  const groups = new Map<string, Set<number>>();
  records.forEach((r, i) => {
    if (!r.itemGroupId) return;
    const key = `${r.source}|${r.itemGroupId}`;
    const set = groups.get(key) ?? new Set();
    set.add(productOf.get(i)!);
    groups.set(key, set);
  });
  return {
    products,
    groups: [...groups.values()]
      .filter((s) => s.size > 1)
      .map((s) => ({ productIndexes: [...s], baseModel: null, variantDimensions: [], seriesName: null })),
  };
};
