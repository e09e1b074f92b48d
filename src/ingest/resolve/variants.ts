import { DisjointSets } from '../../util/index.js';
/**
 * Variant groups: products that are the color, size, region or configuration variants of
 * one model. Two signals link them: a retailer's own item group id (within that retailer),
 * and model numbers that reduce to the same base model for the same brand.
 */
import { splitModel } from './base-model.js';
import { normalizeBrand } from './brand.js';
import { comparable } from './features.js';
import type { ResolveRecord, VariantGroup } from './types.js';

/** What {@link variantGroups} needs to know about one resolved product. */
export interface ProductForGrouping {
  /** Record indexes of the product's listings. */
  members: number[];
  modelNumber: string | null;
  brand: string | null;
}

/**
 * Words that only join a title's parts: a common prefix that ends on one stopped just before
 * the part the variants differ in ("5 in. Bookshelf Speakers in Cherry" / "… in Black").
 */
const CONNECTIVES = new Set(['in', 'with', 'for', 'and', 'or', 'of', 'by', 'the', 'a', 'an', '&', '+']);
const TRAILING_SEPARATORS = /[\s\-–,:/|(]+$/;

/**
 * Word-wise common prefix of the titles (case ignored), without a trailing separator or
 * connective; null if it is empty or shorter than `minWords` words.
 */
export function commonTitlePrefix(titles: string[], minWords = 1): string | null {
  const split = titles.map((t) => t.split(/\s+/).filter(Boolean));
  const first = split[0] ?? [];
  let len = 0;
  while (
    len < first.length &&
    split.every((words) => words[len]?.toLowerCase() === first[len]!.toLowerCase())
  ) {
    len++;
  }
  const words = first.slice(0, len);
  for (;;) {
    const last = words.at(-1)?.replace(TRAILING_SEPARATORS, '');
    if (last === undefined) break;
    if (last === '' || CONNECTIVES.has(last.toLowerCase())) words.pop();
    else break;
  }
  const prefix = words.join(' ').replace(TRAILING_SEPARATORS, '');
  return prefix.length > 0 && words.length >= minWords ? prefix : null;
}

/**
 * Groups products into variant groups; only groups of two or more products are returned.
 */
export function variantGroups(
  records: readonly ResolveRecord[],
  products: readonly ProductForGrouping[],
): VariantGroup[] {
  const sets = new DisjointSets(products.length);
  const find = (x: number) => sets.find(x);
  const link = (byKey: Map<string, number>, key: string, product: number) => {
    const other = byKey.get(key);
    if (other === undefined) byKey.set(key, product);
    else sets.union(product, other);
  };

  const byItemGroup = new Map<string, number>();
  const byBase = new Map<string, number[]>();
  products.forEach((p, index) => {
    for (const m of p.members) {
      const r = records[m]!;
      if (r.itemGroupId) link(byItemGroup, `${r.source}\u0000${r.itemGroupId}`, index);
    }
    if (p.modelNumber) {
      const key = `${normalizeBrand(p.brand)}\u0000${splitModel(p.modelNumber, p.brand).base}`;
      const list = byBase.get(key);
      if (list) list.push(index);
      else byBase.set(key, [index]);
    }
  });
  // Products with the very same model number are not variants of each other (they are
  // listings resolution kept apart); a base links products only when their models differ.
  for (const indexes of byBase.values()) {
    if (new Set(indexes.map((i) => products[i]!.modelNumber)).size < 2) continue;
    for (const i of indexes.slice(1)) sets.union(i, indexes[0]!);
  }

  const byRoot = new Map<number, number[]>();
  products.forEach((_, i) => {
    const root = find(i);
    const list = byRoot.get(root);
    if (list) list.push(i);
    else byRoot.set(root, [i]);
  });

  const groups: VariantGroup[] = [];
  for (const indexes of byRoot.values()) {
    if (indexes.length < 2) continue;
    const members = indexes.map((i) => products[i]!);
    const parts = members.map((p) => (p.modelNumber ? splitModel(p.modelNumber, p.brand) : null));
    const bases = new Set(parts.map((x) => x?.base ?? null));
    const dimensions = new Set<string>();
    for (const kind of ['color', 'size', 'region'] as const) {
      // Compare what the codes mean, so `BK` and `BLK` are one color.
      const codes = new Set(
        parts.map((x) => x?.suffixes.find((s) => s.kind === kind)?.values.join('|') ?? ''),
      );
      if (codes.size > 1) dimensions.add(kind);
    }
    for (const field of ['color', 'size'] as const) {
      const values = new Set(members.map((p) => comparable(records[p.members[0]!]![field])));
      values.delete('');
      if (values.size > 1) dimensions.add(field);
    }
    // Spec keys every member states but with different values are configuration axes.
    const specSets = members.map((p) => records[p.members[0]!]!.specs ?? {});
    for (const key of Object.keys(specSets[0] ?? {})) {
      const values = specSets.map((s) => s[key]);
      if (values.every((v) => v !== undefined) && new Set(values.map(comparable)).size > 1) {
        dimensions.add(key);
      }
    }
    const base = bases.size === 1 ? ([...bases][0] ?? null) : null;
    groups.push({
      productIndexes: indexes,
      baseModel: base,
      variantDimensions: [...dimensions].sort(),
      seriesName: commonTitlePrefix(members.map((p) => records[p.members[0]!]!.title)),
    });
  }
  return groups;
}
