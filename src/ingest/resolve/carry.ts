/**
 * Carry-over of the previous snapshot's decisions, so product ids stay stable across
 * re-ingests (DESIGN §4). A listing (retailer + retailer item id) that was on a product in the
 * previous snapshot stays on it unless the new evidence contradicts the product's other
 * listings: a model number that conflicts or names another variant, different GTINs, brands
 * both feeds state differently, a different release, or a stated color or size clash. Such a
 * listing goes free and is resolved like a new one.
 *
 * Why carry decisions instead of re-deciding: a re-ingest where one retailer retitled its
 * listings (a marketing suffix, upper case), moved prices or stock must not split or move a
 * product, or clients holding its id get 404. Re-deciding every pair from scratch lets a
 * weak link flip when a title gains a few words; the carried decision only yields to hard
 * evidence. The cost: an earlier missed merge of two products is not repaired by weak
 * evidence later (two carried products never merge on a title score; see cluster.ts).
 */
import type { Corpus } from './features.js';
import { DEFAULT_RULES, type ScoreRules, scorePair } from './score.js';
import type { ResolveRecord } from './types.js';

/** The previous products to carry: groups of record indexes and each record's group (-1 = free). */
export interface Carried {
  groups: number[][];
  pin: Int32Array;
  /** The previous product id of each group. */
  ids: string[];
}

/** Level of the `gtin` feature for two different GTINs, of `brand` for two stated brands that differ. */
const GTIN_DIFFERS = 2;
const STATED_BRANDS_DIFFER = 4;

/** True when the two records' evidence says they are different products. */
function contradicts(
  records: readonly ResolveRecord[],
  corpus: Corpus,
  i: number,
  j: number,
  rules: ScoreRules,
): boolean {
  const a = corpus.features[i]!;
  const b = corpus.features[j]!;
  if (a.source === b.source) {
    // one retailer lists an item once: two of its listings are one product only when they
    // are the same item (same GTIN, or same brand and model number)
    const sameItem =
      (a.gtin !== null && a.gtin === b.gtin) ||
      (a.brand !== '' && a.brand === b.brand && a.primaryModel !== null && a.primaryModel === b.primaryModel);
    if (!sameItem) return true;
  }
  const s = scorePair(records, corpus, i, j, rules);
  return s.conflict || s.levels[2] === GTIN_DIFFERS || s.levels[3] === STATED_BRANDS_DIFFER;
}

/**
 * The listings of each previous product that may stay together, judged with the scoring rules
 * of the run (`rules`: the resolver's options, so a rule switched off for an ablation is off
 * here too). Within a product, the listings
 * that contradict the fewest others are kept first (ties: input order), and a listing that
 * contradicts one already kept goes free, so one retitled or re-coded listing leaves its
 * product rather than taking the product's id with it.
 */
export function carriedGroups(
  records: readonly ResolveRecord[],
  corpus: Corpus,
  rules: ScoreRules = DEFAULT_RULES,
): Carried {
  const byPrevious = new Map<string, number[]>();
  records.forEach((r, i) => {
    if (!r.previousProduct) return;
    const list = byPrevious.get(r.previousProduct);
    if (list) list.push(i);
    else byPrevious.set(r.previousProduct, [i]);
  });
  const pin = new Int32Array(records.length).fill(-1);
  const groups: number[][] = [];
  const ids: string[] = [];
  for (const [id, members] of byPrevious) {
    const kept = members.length === 1 ? members : consistentMembers(records, corpus, members, rules);
    for (const m of kept) pin[m] = groups.length;
    groups.push(kept);
    ids.push(id);
  }
  return { groups, pin, ids };
}

function consistentMembers(
  records: readonly ResolveRecord[],
  corpus: Corpus,
  members: number[],
  rules: ScoreRules,
): number[] {
  const k = members.length;
  const clash = new Uint8Array(k * k);
  const count = new Int32Array(k);
  for (let x = 0; x < k; x++)
    for (let y = x + 1; y < k; y++)
      if (contradicts(records, corpus, members[x]!, members[y]!, rules)) {
        clash[x * k + y] = clash[y * k + x] = 1;
        count[x]!++;
        count[y]!++;
      }
  const order = members.map((_, x) => x).sort((x, y) => count[x]! - count[y]! || x - y);
  const kept: number[] = [];
  for (const x of order) if (kept.every((y) => clash[x * k + y] === 0)) kept.push(x);
  return kept.sort((x, y) => x - y).map((x) => members[x]!);
}
