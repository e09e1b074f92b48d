/**
 * The resolver end to end: features → candidate pairs → scores → clusters → products →
 * variant groups. Pure and deterministic: the same records in the same order give the same
 * result.
 */
import { candidateEnds } from './blocking.js';
import { normalizeBrand } from './brand.js';
import { type Carried, carriedGroups } from './carry.js';
import { clusterRecords, type Edge, type MatchMethod } from './cluster.js';
import { buildCorpus, type Corpus, type FactSource, GENERIC_CODE_DF } from './features.js';
import { learnMatches, needsLearnedSupport } from './learn.js';
import { BRAND_FEATURE, FEATURES, STATED_BRANDS_DISAGREE, scorePairs, variantClash } from './score.js';
import type { LearnedModel, ResolvedProduct, ResolveOptions, ResolveRecord, ResolveResult } from './types.js';
import { variantGroups } from './variants.js';

export const DEFAULTS: Required<ResolveOptions> = {
  threshold: 0.5,
  mutualBestThreshold: 0.25,
  maxBlockSize: 100,
  probesPerRecord: 8,
  candidatesPerRecord: 10,
  learn: true,
  oneToOne: true,
  titleOnlyVeto: false,
  secondChoiceVeto: true,
  statedBrandVeto: true,
  ownCodeDecides: true,
  statedBrandVetoCodes: true,
  codeEndsAtBoundary: true,
  suffixColorDecides: true,
  colorSuffixConventions: false,
  splitCodeIsSame: true,
  ownCodeWithSuffix: true,
  gtinItemNumber: true,
  numberBeforeUnitIsQuantity: true,
  statedModelIsCode: true,
  codeStemKeys: false,
  stemRivalsApart: true,
  oneCodeVeto: true,
  clashNotMutualBest: true,
};

/**
 * Groups of records that are certainly one item: shared GTIN, or one source's same brand and
 * rare model number. Listings of one model that name different colors are variants, not one
 * item; a listing naming no color joins the model's group only when just one color is named.
 */
function sameItemGroups(corpus: Corpus): { groups: number[][]; methods: MatchMethod[] } {
  const byGtin = new Map<string, number[]>();
  const byModel = new Map<string, number[]>();
  const push = (map: Map<string, number[]>, key: string, index: number) => {
    const list = map.get(key);
    if (list) list.push(index);
    else map.set(key, [index]);
  };
  for (const f of corpus.features) {
    if (f.gtin) push(byGtin, f.gtin, f.index);
    // A code many records share is a series or standard name, not proof of one item.
    const rare = f.primaryModel !== null && (corpus.codeDf.get(f.primaryModel) ?? 0) < GENERIC_CODE_DF;
    if (f.brand && f.primaryModel && rare)
      push(byModel, `${f.source}\u0000${f.brand}\u0000${f.primaryModel}`, f.index);
  }
  const groups = [...byGtin.values()].filter((g) => g.length > 1);
  const methods: MatchMethod[] = groups.map(() => 'gtin');
  const pushModel = (g: number[]) => {
    if (g.length < 2) return;
    groups.push(g);
    methods.push('model_number');
  };
  for (const members of byModel.values()) {
    if (members.length < 2) continue;
    const byColor = new Map<string, number[]>();
    for (const m of members) push(byColor, [...corpus.features[m]!.colors].sort().join(','), m);
    const uncolored = byColor.get('') ?? [];
    byColor.delete('');
    if (byColor.size === 0) pushModel(uncolored);
    else if (byColor.size === 1) pushModel([...[...byColor.values()][0]!, ...uncolored]);
    else for (const g of byColor.values()) pushModel(g);
  }
  return { groups, methods };
}

function mostCommon<T>(values: T[]): T | null {
  const counts = new Map<T, number>();
  let best: T | null = null;
  let bestCount = 0;
  for (const v of values) {
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  return best;
}

/**
 * Which previous product id each cluster keeps: the one most of its carried listings came
 * from. An id goes to one cluster only, the one holding most of its carried listings (ties:
 * input order), so a listing that left its product never takes the product's id along.
 */
function previousIdsOf(clusters: readonly number[][], carried: Carried): (string | null)[] {
  const claims: { cluster: number; group: number; count: number }[] = [];
  clusters.forEach((members, cluster) => {
    const counts = new Map<number, number>();
    for (const m of members) {
      const g = carried.pin[m]!;
      if (g >= 0) counts.set(g, (counts.get(g) ?? 0) + 1);
    }
    for (const [group, count] of counts) claims.push({ cluster, group, count });
  });
  claims.sort((a, b) => b.count - a.count || a.cluster - b.cluster || a.group - b.group);
  const ids: (string | null)[] = clusters.map(() => null);
  const taken = new Set<number>();
  for (const c of claims) {
    if (ids[c.cluster] !== null || taken.has(c.group)) continue;
    ids[c.cluster] = carried.ids[c.group]!;
    taken.add(c.group);
  }
  return ids;
}

/** Every candidate pair, scored: pair `p` joins `ends[2p]` and `ends[2p + 1]`. */
interface ScoredCandidates {
  corpus: Corpus;
  ends: Int32Array;
  /** the final match probability of each pair */
  probability: Float64Array;
  /** 1 where the pair carries hard evidence of two different products */
  conflict: Uint8Array;
  method: MatchMethod[];
  learned: LearnedModel | null;
}

/** The pairs `keep` accepts as clustering edges, in pair order. */
function edgesOf(scored: ScoredCandidates, keep: (p: number) => boolean): Edge[] {
  const { ends, probability, conflict, method } = scored;
  const edges: Edge[] = [];
  for (let p = 0; p < probability.length; p++)
    if (keep(p))
      edges.push({
        i: ends[2 * p]!,
        j: ends[2 * p + 1]!,
        probability: probability[p]!,
        conflict: conflict[p] === 1,
        method: method[p]!,
      });
  return edges;
}

/**
 * The highest fixed score of any candidate pair without a hard conflict at each slot (a
 * listing toward one other retailer, see `PairConstraints.slots` in learn.ts).
 */
/**
 * The candidate pairs only `codeStemKeys` proposes: those the blocking does not find on a
 * corpus without the stem keys.
 */
function addedByStems(
  records: ResolveRecord[],
  ends: Int32Array,
  opts: Required<ResolveOptions>,
): Uint8Array {
  // the run's precomputed facts are taken once, by the main corpus: this one reads its own
  const without = candidateEnds(buildCorpus(records, { ...opts, codeStemKeys: false }), opts);
  const n = records.length;
  const known = new Set<number>();
  const key = (i: number, j: number) => (i < j ? i * n + j : j * n + i);
  for (let p = 0; p < without.length; p += 2) known.add(key(without[p]!, without[p + 1]!));
  const added = new Uint8Array(ends.length / 2);
  for (let p = 0; p < added.length; p++) if (!known.has(key(ends[2 * p]!, ends[2 * p + 1]!))) added[p] = 1;
  return added;
}

function bestPerSlot(
  probability: Float64Array,
  conflict: Uint8Array,
  slots: Int32Array,
  slotCount: number,
): Float64Array {
  const best = new Float64Array(slotCount).fill(-1);
  for (let p = 0; p < probability.length; p++) {
    if (conflict[p] === 1) continue;
    for (const slot of [slots[2 * p]!, slots[2 * p + 1]!])
      if (probability[p]! > best[slot]!) best[slot] = probability[p]!;
  }
  return best;
}

/**
 * Candidate pairs with their final match probability: the fixed score, vetted by the weights
 * learned from this batch. Exported for the evaluation's diagnostics (eval/er.ts).
 */
export function scoreCandidates(
  records: ResolveRecord[],
  opts: Required<ResolveOptions>,
): { corpus: Corpus; edges: Edge[]; learned: LearnedModel | null } {
  const scored = scoreAll(records, opts);
  return { corpus: scored.corpus, edges: edgesOf(scored, () => true), learned: scored.learned };
}

/** {@link scoreCandidates} in typed arrays: a million records have millions of pairs. */
function scoreAll(
  records: ResolveRecord[],
  opts: Required<ResolveOptions>,
  facts?: FactSource,
): ScoredCandidates {
  const corpus = buildCorpus(records, opts, facts);
  const ends = candidateEnds(corpus, opts);
  const pairCount = ends.length / 2;
  const levels = new Uint8Array(pairCount * FEATURES.length);
  const initial = new Float64Array(pairCount);
  const { conflict, method } = scorePairs(corpus, ends, levels, initial, opts);
  const probability = initial.slice();
  let learned: LearnedModel | null = null;
  if (opts.learn) {
    const sourceOf = corpus.features.map((f) => f.source);
    const sourceIds = new Map<string, number>();
    for (const src of sourceOf) if (!sourceIds.has(src)) sourceIds.set(src, sourceIds.size);
    const slots = new Int32Array(pairCount * 2);
    const sourceCount = sourceIds.size;
    for (let p = 0; p < pairCount; p++) {
      const i = ends[2 * p]!;
      const j = ends[2 * p + 1]!;
      slots[2 * p] = i * sourceCount + sourceIds.get(sourceOf[j]!)!;
      slots[2 * p + 1] = j * sourceCount + sourceIds.get(sourceOf[i]!)!;
    }
    const constraints = {
      slots: opts.oneToOne ? slots : null,
      nonMatch: conflict,
      slotCount: records.length * sourceCount,
      added: opts.codeStemKeys && opts.stemRivalsApart ? addedByStems(records, ends, opts) : null,
    };
    const result = learnMatches(levels, initial, constraints);
    learned = result.model;
    // The fixed scorer proposes, the learned matcher vets: a pair either score accepts keeps
    // the fixed score (its scale is what the clustering bars are set on); a pair neither
    // accepts can only go down to the learned posterior, so a weak pair that this batch's
    // evidence does not support can no longer pass as a mutual best match.
    const best = opts.secondChoiceVeto
      ? bestPerSlot(probability, conflict, slots, records.length * sourceCount)
      : null;
    const i0 = (p: number) => ends[2 * p]!;
    const i1 = (p: number) => ends[2 * p + 1]!;
    for (let p = 0; p < pairCount; p++) {
      const hand = initial[p]!;
      const fitted = result.posterior[p]!;
      // With `titleOnlyVeto`, a pair resting on title words alone needs both scores; with
      // `secondChoiceVeto`, so does one that is not the first choice of both its listings, and
      // with `statedBrandVeto` one whose feeds name two different brands (with
      // `statedBrandVetoCodes` also when the two share a model number).
      const secondChoice =
        best !== null && (best[slots[2 * p]!] !== hand || best[slots[2 * p + 1]!] !== hand);
      const brandClash =
        opts.statedBrandVeto && levels[p * FEATURES.length + BRAND_FEATURE] === STATED_BRANDS_DISAGREE;
      // with `oneCodeVeto`, a title-only pair where one listing names its own model number and
      // the other names none
      const oneCode =
        opts.oneCodeVeto &&
        (corpus.features[i0(p)]!.primaryParts === null) !== (corpus.features[i1(p)]!.primaryParts === null);
      const veto = needsLearnedSupport(method[p]!, secondChoice || oneCode, brandClash, opts);
      probability[p] =
        !veto && (hand >= opts.threshold || fitted >= opts.threshold) ? hand : Math.min(hand, fitted);
    }
  }
  // With `clashNotMutualBest`, a pair below the threshold whose titles name two variants
  // (colors, quantities) drops below the mutual-best bar too: half of it (any value under
  // the bar makes the same clusters), so it is no listing's best remaining candidate either.
  if (opts.clashNotMutualBest)
    for (let p = 0; p < pairCount; p++)
      if (probability[p]! < opts.threshold && variantClash(levels, p * FEATURES.length))
        probability[p] = Math.min(probability[p]!, opts.mutualBestThreshold / 2);
  return { corpus, ends, probability, conflict, method, learned };
}

/**
 * Resolves retailer listings into products (one per real-world item, at most one listing
 * per retailer unless the listings are the same item) and links variants into groups.
 * Handles 100,000 records in seconds: candidate generation is blocked on rare keys. `facts`:
 * the per-record facts of the last records, computed on another thread (the same result).
 */
export function resolveListings(
  records: ResolveRecord[],
  options: ResolveOptions = {},
  facts?: FactSource,
): ResolveResult {
  const opts = { ...DEFAULTS, ...options };
  const scored = scoreAll(records, opts, facts);
  const { corpus, learned } = scored;
  const sameItem = sameItemGroups(corpus);
  const carried = records.some((r) => r.previousProduct) ? carriedGroups(records, corpus, opts) : null;
  const { clusters, confidence, matchOf } = clusterRecords(
    corpus.features.map((f) => f.source),
    sameItem.groups,
    { ends: scored.ends, probability: scored.probability, conflict: scored.conflict, method: scored.method },
    opts.threshold,
    opts.mutualBestThreshold,
    sameItem.methods,
    carried,
  );

  // Show a brand as some feed spelled it, not in its normalized comparison form.
  const brandDisplay = new Map<string, string>();
  for (const r of records) {
    const n = normalizeBrand(r.brand);
    if (n && r.brand && !brandDisplay.has(n)) brandDisplay.set(n, r.brand.trim());
  }

  const order = clusters.map((c, k) => ({
    members: [...c].sort((a, b) => a - b),
    confidence: confidence[k]!,
  }));
  order.sort((a, b) => a.members[0]! - b.members[0]!);
  const previousIds = carried
    ? previousIdsOf(
        order.map((o) => o.members),
        carried,
      )
    : null;
  const products: ResolvedProduct[] = [];
  const forGrouping = order.map(({ members, confidence: conf }, k) => {
    const fs = members.map((m) => corpus.features[m]!);
    const modelNumber = mostCommon(fs.map((f) => f.primaryModel).filter((m): m is string => m !== null));
    const brand = mostCommon(fs.map((f) => f.brand).filter(Boolean));
    const display = brand ? (brandDisplay.get(brand) ?? brand) : null;
    products.push({
      keys: members.map((m) => records[m]!.key),
      modelNumber,
      brand: display,
      confidence: Math.round(conf * 1000) / 1000,
      matches: members.map((m) => {
        const x = members.length > 1 ? matchOf(m) : { method: 'single_listing' as const, confidence: 1 };
        return { method: x.method, confidence: Math.round(x.confidence * 1000) / 1000 };
      }),
      ...(previousIds ? { previousId: previousIds[k] ?? null } : {}),
    });
    return { members, modelNumber, brand: display };
  });
  return { products, groups: variantGroups(records, forGrouping), learned };
}
