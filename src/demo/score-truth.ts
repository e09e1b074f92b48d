import { readFileSync } from 'node:fs';
import { currentSnapshotPath, openReadOnly } from '../catalog/index.js';

export interface TruthScores {
  precision: number;
  recall: number;
  f1: number;
  /** predicted and true same-product listing pairs */
  predicted: number;
  true: number;
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

/**
 * Pairwise precision, recall and F1 of a published catalog's listing → product mapping
 * against the demo generator's `ground-truth.csv` (retailer,item_id,product_key,group_key).
 */
export function scoreAgainstTruth(dataDir: string, truthPath: string): TruthScores {
  const truth = new Map<string, string>();
  for (const line of readFileSync(truthPath, 'utf8').split('\n').slice(1)) {
    const [retailer, item, product] = line.split(',');
    if (retailer && item && product) truth.set(`${retailer}\u0000${item}`, product);
  }
  const path = currentSnapshotPath(dataDir);
  if (!path) throw new Error(`no published catalog in ${dataDir}`);
  const db = openReadOnly(path);
  const predicted = new Map<string, string>();
  try {
    for (const r of db
      .prepare(
        'SELECT r.slug, l.retailer_item_id AS item, l.product_id FROM retailer_listings l JOIN retailers r ON r.id = l.retailer_id',
      )
      .iterate() as Iterable<{ slug: string; item: string; product_id: string }>)
      predicted.set(`${r.slug}\u0000${r.item}`, r.product_id);
  } finally {
    db.close();
  }
  const gold = pairs(truth);
  const got = pairs(predicted);
  let hits = 0;
  for (const p of got) if (gold.has(p)) hits++;
  const precision = got.size ? hits / got.size : 0;
  const recall = gold.size ? hits / gold.size : 0;
  const r3 = (n: number) => Math.round(n * 1000) / 1000;
  return {
    precision: r3(precision),
    recall: r3(recall),
    f1: r3(precision + recall ? (2 * precision * recall) / (precision + recall) : 0),
    predicted: got.size,
    true: gold.size,
  };
}
