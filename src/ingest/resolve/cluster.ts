import { DisjointSets } from '../../util/index.js';

/**
 * Turning scored pairs into products. Listings known to be the same item (shared GTIN;
 * within one source, the same brand and exact model number) are merged first. Then
 * candidate pairs are accepted best-first: every pair above the threshold, and below it
 * pairs that are each other's best candidate (mutual best) above a lower bar, so each
 * listing joins its strongest partner before weaker ones are considered. A few more rounds
 * of mutual best matches among the listings still free settle the ones whose first choice
 * went elsewhere. A merge is refused when it would put two listings of one source in a
 * cluster, or join listings already scored as hard conflicts.
 */

/** Marks a cluster holding listings of more than one carried product. */
const MANY_PINS = -2;

/** A scored candidate pair. */
export interface Edge {
  i: number;
  j: number;
  probability: number;
  /** The pair carries hard evidence of being different products. */
  conflict: boolean;
  /** The strongest evidence behind the pair, shown on offers as how they were matched. */
  method?: MatchMethod;
}

/**
 * Scored candidate pairs in columns: pair `p` joins `ends[2p]` and `ends[2p + 1]`. At a
 * million records an {@link Edge} object a pair held ~90 bytes of heap (issue 20).
 */
export interface ScoredPairs {
  ends: Int32Array;
  probability: Float64Array;
  /** 1 where the pair carries hard evidence of being different products */
  conflict: Uint8Array;
  method: readonly MatchMethod[];
}

/** {@link ScoredPairs} from edge objects (an edge without a method is `title_similarity`). */
export function pairsOf(edges: readonly Edge[]): ScoredPairs {
  return {
    ends: Int32Array.from(edges.flatMap((e) => [e.i, e.j])),
    probability: Float64Array.from(edges, (e) => e.probability),
    conflict: Uint8Array.from(edges, (e) => (e.conflict ? 1 : 0)),
    method: edges.map((e) => e.method ?? 'title_similarity'),
  };
}

/** How a listing was joined to its product. */
export type MatchMethod = 'gtin' | 'model_number' | 'title_similarity' | 'single_listing';
const METHODS: readonly MatchMethod[] = ['single_listing', 'gtin', 'model_number', 'title_similarity'];

/** The accepted link that joined one record to its cluster. */
export interface RecordMatch {
  method: MatchMethod;
  /** Probability of the strongest accepted link at this record; 1 for a single listing. */
  confidence: number;
}

/**
 * Products of the previous snapshot carried into this run (carry.ts): each group's listings
 * are joined first after the same-item groups, and `pin[record]` names the group a record
 * was carried in (-1 = free).
 */
export interface CarriedClusters {
  groups: readonly (readonly number[])[];
  pin: Int32Array;
}

/** Clusters of record indexes with the weakest accepted match probability of each. */
export interface Clustering {
  clusters: number[][];
  confidence: number[];
  /** Per record, the strongest accepted link that holds it in its cluster. */
  matchOf(record: number): RecordMatch;
}

/**
 * Clusters `n` records.
 * @param sources source of each record
 * @param sameItem groups of record indexes that are certainly one item (merged unconditionally)
 * @param pairs scored cross-source candidate pairs
 * @param threshold minimum probability to accept an edge
 * @param mutualThreshold lower bar for an edge that is the best of both of its ends toward
 *   the other's source: mutual best matches are rarely wrong even on weak evidence
 * @param sameItemMethods why each same-item group is one item (default `gtin`)
 * @param carried previous products to keep: two clusters carried from different previous
 *   products are never merged by a scored pair (only by a same-item group), so a re-ingest
 *   does not fold one existing product into another and drop its id
 */
export function clusterRecords(
  sources: readonly string[],
  sameItem: readonly number[][],
  pairs: ScoredPairs,
  threshold: number,
  mutualThreshold = threshold,
  sameItemMethods: readonly MatchMethod[] = [],
  carried: CarriedClusters | null = null,
): Clustering {
  const n = sources.length;
  const { ends, probability, conflict, method } = pairs;
  // each record's match as a method (an index into METHODS, 0 = single listing) and a confidence
  const matchMethod = new Uint8Array(n);
  const matchConfidence = new Float64Array(n).fill(1);
  const noteMatch = (x: number, method: MatchMethod, p: number) => {
    if (matchMethod[x] === 0 || p > matchConfidence[x]!) {
      matchMethod[x] = METHODS.indexOf(method);
      matchConfidence[x] = p;
    }
  };
  const sets = new DisjointSets(n);
  const members = new Map<number, number[]>();
  const sourceSets = new Map<number, Set<string>>();
  const confidence = new Map<number, number>();
  const membersOf = (root: number) => members.get(root) ?? [root];
  const sourcesOf = (root: number) => sourceSets.get(root) ?? new Set([sources[root]!]);

  const union = (a: number, b: number, p: number) => {
    const ra = sets.find(a);
    const rb = sets.find(b);
    if (ra === rb) return;
    const [big, small] = membersOf(ra).length >= membersOf(rb).length ? [ra, rb] : [rb, ra];
    sets.parent[small] = big;
    // Grow the bigger side in place: copying it on every merge is quadratic in cluster size.
    const joined = members.get(big) ?? [big];
    for (const x of membersOf(small)) joined.push(x);
    members.set(big, joined);
    members.delete(small);
    const bigSources = sourceSets.get(big) ?? new Set([sources[big]!]);
    for (const x of sourcesOf(small)) bigSources.add(x);
    sourceSets.set(big, bigSources);
    sourceSets.delete(small);
    confidence.set(big, Math.min(confidence.get(big) ?? 1, confidence.get(small) ?? 1, p));
    confidence.delete(small);
    const pa = pinOf[big]!;
    const pb = pinOf[small]!;
    pinOf[big] = pa === -1 ? pb : pb === -1 || pb === pa ? pa : MANY_PINS;
  };
  /** Per root, the carried group its records came from: -1 none, MANY_PINS several (joined by a same-item group). */
  const pinOf = new Int32Array(n).fill(-1);

  sameItem.forEach((group, g) => {
    for (let k = 1; k < group.length; k++) union(group[0]!, group[k]!, 1);
    for (const x of group) noteMatch(x, sameItemMethods[g] ?? 'gtin', 1);
  });

  const conflicts = new Set<number>();
  for (let p = 0; p < probability.length; p++)
    if (conflict[p] === 1) {
      const i = ends[2 * p]!;
      const j = ends[2 * p + 1]!;
      conflicts.add(Math.min(i, j) * n + Math.max(i, j));
    }
  const hasConflict = (xs: number[], ys: number[]) => {
    if (conflicts.size === 0) return false;
    for (const x of xs)
      for (const y of ys) if (conflicts.has(Math.min(x, y) * n + Math.max(x, y))) return true;
    return false;
  };

  const canMerge = (ra: number, rb: number, carrying = false): boolean => {
    if (ra === rb) return false;
    if (!carrying && pinOf[ra] !== -1 && pinOf[rb] !== -1 && pinOf[ra] !== pinOf[rb]) return false;
    // Most roots are single records; compare their sources without building sets.
    const sa = sourceSets.get(ra);
    const sb = sourceSets.get(rb);
    if (!sa && !sb) {
      if (sources[ra] === sources[rb]) return false;
    } else if (!sa) {
      if (sb!.has(sources[ra]!)) return false;
    } else if (!sb) {
      if (sa.has(sources[rb]!)) return false;
    } else {
      for (const x of sa) if (sb.has(x)) return false;
    }
    return !hasConflict(membersOf(ra), membersOf(rb));
  };
  const tryMerge = (p: number): boolean => {
    const i = ends[2 * p]!;
    const j = ends[2 * p + 1]!;
    const ra = sets.find(i);
    const rb = sets.find(j);
    if (!canMerge(ra, rb)) return false;
    union(ra, rb, probability[p]!);
    noteMatch(i, method[p]!, probability[p]!);
    noteMatch(j, method[p]!, probability[p]!);
    return true;
  };

  if (carried) {
    carried.groups.forEach((group, g) => {
      for (const x of group) {
        const r = sets.find(x);
        pinOf[r] = pinOf[r] === -1 || pinOf[r] === g ? g : MANY_PINS;
      }
    });
    for (const group of carried.groups)
      for (let k = 1; k < group.length; k++) {
        const ra = sets.find(group[0]!);
        const rb = sets.find(group[k]!);
        if (canMerge(ra, rb, true)) union(ra, rb, 1);
      }
  }

  const sourceIndex = new Map<string, number>();
  for (const s of sources) if (!sourceIndex.has(s)) sourceIndex.set(s, sourceIndex.size);
  const sourceCount = Math.max(sourceIndex.size, 1);

  const sourceOf = Int32Array.from(sources, (s) => sourceIndex.get(s)!);
  // per record and other source, the best pair of the pool at hand (-1: none); reused by each
  // round, and cleared where the round wrote
  const bestPair = new Int32Array(n * sourceCount).fill(-1);
  /** Pairs that are the best remaining option of both of their ends toward each other's source. */
  const mutualBest = (pool: readonly number[]): number[] => {
    const slotOf = (p: number, end: 0 | 1) =>
      ends[2 * p + end]! * sourceCount + sourceOf[ends[2 * p + 1 - end]!]!;
    for (const p of pool)
      for (const slot of [slotOf(p, 0), slotOf(p, 1)]) {
        const best = bestPair[slot]!;
        if (best === -1 || probability[p]! > probability[best]!) bestPair[slot] = p;
      }
    const isBest = (p: number, end: 0 | 1) => probability[bestPair[slotOf(p, end)]!] === probability[p];
    const chosen = pool.filter((p) => isBest(p, 0) && isBest(p, 1));
    for (const p of pool) {
      bestPair[slotOf(p, 0)] = -1;
      bestPair[slotOf(p, 1)] = -1;
    }
    return chosen;
  };

  const usable: number[] = [];
  for (let p = 0; p < probability.length; p++)
    if (conflict[p] !== 1 && probability[p]! >= mutualThreshold) usable.push(p);
  // stable: pairs of one probability keep their order
  usable.sort((a, b) => probability[b]! - probability[a]!);
  const firstRound = new Uint8Array(probability.length);
  for (const p of mutualBest(usable)) firstRound[p] = 1;
  for (const p of usable) if (probability[p]! >= threshold || firstRound[p] === 1) tryMerge(p);

  // A listing whose best partner went to someone else may still have a mutual best among
  // what is left; a few rounds settle almost all of them.
  for (let round = 0; round < 3; round++) {
    const open = usable.filter((p) => canMerge(sets.find(ends[2 * p]!), sets.find(ends[2 * p + 1]!)));
    let merged = 0;
    for (const p of mutualBest(open)) if (tryMerge(p)) merged++;
    if (merged === 0) break;
  }

  const byRoot = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const root = sets.find(i);
    const list = byRoot.get(root);
    if (list) list.push(i);
    else byRoot.set(root, [i]);
  }
  const clusters = [...byRoot.values()];
  return {
    clusters,
    confidence: clusters.map((c) => confidence.get(sets.find(c[0]!)) ?? 1),
    matchOf: (x) => ({ method: METHODS[matchMethod[x]!]!, confidence: matchConfidence[x]! }),
  };
}
