import { readFileSync } from 'node:fs';
import {
  COMPACT_VERSION,
  currentSnapshotPath,
  openReadOnly,
  schemaVersion,
  storedDictionary,
  storedText,
} from '../catalog/index.js';

export interface TruthScores {
  precision: number;
  recall: number;
  f1: number;
  /** predicted and true same-product listing pairs */
  predicted: number;
  true: number;
  /** predicted pairs that are true (`right`) and not (`wrong`); true pairs not predicted (`missed`) */
  right: number;
  wrong: number;
  missed: number;
  /** share of products whose product type is the ground truth's (majority of its listings) */
  type_accuracy: number;
  /** share of products whose brand is the ground truth's */
  brand_recall: number;
  /** the same, over products none of whose listings states a brand: the brand comes from titles */
  brand_recall_from_titles: number;
  /** how many products no listing states a brand for */
  products_without_stated_brand: number;
}

/** Every unordered pair of keys that share a cluster. */
function pairs(clusterOf: Map<string, string>): Set<string> {
  const clusters = new Map<string, string[]>();
  for (const [key, cluster] of clusterOf) {
    const members = clusters.get(cluster);
    if (members) members.push(key);
    else clusters.set(cluster, [key]);
  }
  const out = new Set<string>();
  for (const members of clusters.values())
    for (let i = 0; i < members.length; i++)
      for (let j = i + 1; j < members.length; j++) out.add([members[i], members[j]].sort().join('\u0001'));
  return out;
}

/** The most frequent value, ties to the first seen. */
function majority(values: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | undefined;
  let bestCount = 0;
  for (const [v, n] of counts)
    if (n > bestCount) {
      best = v;
      bestCount = n;
    }
  return best;
}

/**
 * Pairwise precision, recall and F1 of a published catalog's listing → product mapping
 * against the demo generator's `ground-truth.csv` (retailer,item_id,product_key,group_key,
 * type,brand), and how many products got the true product type and brand.
 */
export function scoreAgainstTruth(dataDir: string, truthPath: string): TruthScores {
  const truth = new Map<string, string>();
  const truthType = new Map<string, string>();
  const truthBrand = new Map<string, string>();
  for (const line of readFileSync(truthPath, 'utf8').split('\n').slice(1)) {
    const [retailer, item, product, , type, brand] = line.split(',');
    if (!retailer || !item || !product) continue;
    const key = `${retailer}\u0000${item}`;
    truth.set(key, product);
    if (type) truthType.set(key, type);
    if (brand) truthBrand.set(key, brand);
  }
  const path = currentSnapshotPath(dataDir);
  if (!path) throw new Error(`no published catalog in ${dataDir}`);
  const db = openReadOnly(path);
  const predicted = new Map<string, string>();
  /** per product: its type and brand slugs, and the truth of each of its listings */
  const products = new Map<
    string,
    { type: string | null; brand: string | null; types: string[]; brands: string[]; stated: boolean }
  >();
  try {
    // listings are packed with the snapshot's listing dictionary since schema version 7
    const dictionary = schemaVersion(db) >= COMPACT_VERSION ? storedDictionary(db, 'listings') : undefined;
    for (const r of db
      .prepare(
        `SELECT r.slug, l.retailer_item_id AS item, l.product_id, t.slug AS type, b.slug AS brand,
                l.listing_json
           FROM retailer_listings l JOIN retailers r ON r.id = l.retailer_id
           JOIN products p ON p.id = l.product_id
           LEFT JOIN product_types t ON t.id = p.product_type_id
           LEFT JOIN brands b ON b.id = p.brand_id`,
      )
      .iterate() as Iterable<{
      slug: string;
      item: string;
      product_id: string;
      type: string | null;
      brand: string | null;
      listing_json: string | Buffer;
    }>) {
      const key = `${r.slug}\u0000${r.item}`;
      predicted.set(key, r.product_id);
      let p = products.get(r.product_id);
      if (!p) {
        p = { type: r.type, brand: r.brand, types: [], brands: [], stated: false };
        products.set(r.product_id, p);
      }
      const type = truthType.get(key);
      const brand = truthBrand.get(key);
      if (type) p.types.push(type);
      if (brand) p.brands.push(brand);
      const listing = JSON.parse(storedText(r.listing_json, dictionary) ?? '{}') as {
        brandName?: string | null;
      };
      if (listing.brandName) p.stated = true;
    }
  } finally {
    db.close();
  }
  const gold = pairs(truth);
  const got = pairs(predicted);
  let hits = 0;
  for (const p of got) if (gold.has(p)) hits++;
  const precision = got.size ? hits / got.size : 0;
  const recall = gold.size ? hits / gold.size : 0;
  // Six decimals: one pair of the 35,000-product demo's 142,000 moves the fifth.
  const r6 = (n: number) => Math.round(n * 1e6) / 1e6;
  let typed = 0;
  let typeHits = 0;
  let branded = 0;
  let brandHits = 0;
  let fromTitles = 0;
  let fromTitleHits = 0;
  for (const p of products.values()) {
    const type = majority(p.types);
    if (type) {
      typed++;
      if (p.type === type) typeHits++;
    }
    const brand = majority(p.brands);
    if (brand) {
      branded++;
      if (p.brand === brand) brandHits++;
      if (!p.stated) {
        fromTitles++;
        if (p.brand === brand) fromTitleHits++;
      }
    }
  }
  const r4 = (n: number) => Math.round(n * 10000) / 10000;
  return {
    precision: r6(precision),
    recall: r6(recall),
    f1: r6(precision + recall ? (2 * precision * recall) / (precision + recall) : 0),
    predicted: got.size,
    true: gold.size,
    right: hits,
    wrong: got.size - hits,
    missed: gold.size - hits,
    type_accuracy: r4(typed ? typeHits / typed : 0),
    brand_recall: r4(branded ? brandHits / branded : 0),
    brand_recall_from_titles: r4(fromTitles ? fromTitleHits / fromTitles : 1),
    products_without_stated_brand: fromTitles,
  };
}
