/**
 * The learned matcher: Fellegi–Sunter weights estimated per run by expectation maximization.
 *
 * Every candidate pair is a comparison vector (one discrete level per feature, see
 * `FEATURES` in score.ts). Two latent classes, match and non-match, each with a
 * distribution over every feature's levels; features are taken as independent given the
 * class. EM alternates between the posterior match probability of each pair (E) and the
 * class distributions plus the share of matches among candidates (M). The weight of a level
 * is log(m / u): how much more often matches show it than non-matches, in this batch.
 *
 * Why per run: what a title cosine of 0.6 or a 1.5× price gap means depends on the
 * retailers' writing and on how many listings have a partner at all. With many unmatched
 * listings the share of matches among candidates falls and the same evidence earns a lower
 * posterior, which is what keeps precision on feeds the defaults were never tuned on.
 *
 * Anchoring: the first M-step starts from the hand-set log-odds of score.ts, and its
 * distributions are a Dirichlet prior (`priorStrength` pseudo-pairs per class) for every
 * later step. A large batch overrides the prior; a tiny one (a unit test, a one-retailer
 * feed) keeps it, so small inputs behave like the fixed scorer. Level 0 of a feature means
 * "no evidence" (a side lacks the field) and has weight 0: whether a retailer fills a field
 * says nothing about whether two listings are one product.
 */
import { FEATURES } from './score.js';
import type { LearnedModel } from './types.js';

export interface LearnOptions {
  /** Pseudo-pairs per class anchoring the distributions to the first estimate. Default 20. */
  priorStrength?: number;
  /** Maximum EM iterations. Default 30. */
  maxIterations?: number;
}

const F = FEATURES.length;

/**
 * What is known about the pairs before any weight is learned.
 * - `nonMatch[p]` = 1: the pair carries hard evidence of two products (conflicting model
 *   numbers, releases or stated colors); it counts as a non-match in every M-step, so the
 *   non-match class learns what near misses look like instead of the match class absorbing
 *   them.
 * - `slots`: two ids per pair, one for each end toward the other end's retailer. A listing
 *   has at most one partner per retailer, so the pairs sharing a slot are rival
 *   explanations and their posteriors are normalized together (see {@link compete}).
 */
export interface PairConstraints {
  nonMatch: Uint8Array;
  /** Null: no one-to-one competition, pairs are judged on their own. */
  slots: Int32Array | null;
  slotCount: number;
  /**
   * With `codeStemKeys`: `added[p]` = 1 for a pair only the code-stem keys made a candidate.
   * Such a pair is judged by the weights learned from the other pairs (it counts in no M-step
   * and not in the match share) and competes with every rival at its slots, but is no rival
   * of the others: the stem keys only add candidates, and must not move the posterior of a
   * pair that was a candidate without them. Absent: every pair learns and competes.
   */
  added?: Uint8Array | null;
}

/**
 * One-to-one competition: with pair odds o, the chance that this pair is the true partner of
 * both ends is o / (1 + o + Σ rivals' o), rivals being the other pairs at either slot: the
 * classic record-linkage posterior under a one-to-one assignment. Overwrites `q`.
 */
export function compete(
  q: Float64Array,
  c: PairConstraints,
  scratch: { odds: Float64Array; slotTotal: Float64Array } | null = null,
): void {
  const n = q.length;
  const slots = c.slots;
  if (!slots) {
    for (let p = 0; p < n; p++) if (c.nonMatch[p]) q[p] = 0;
    return;
  }
  // EM calls this every iteration: reuse the caller's buffers rather than allocate anew
  const odds = scratch?.odds ?? new Float64Array(n);
  const slotTotal = scratch?.slotTotal ?? new Float64Array(c.slotCount);
  odds.fill(0);
  slotTotal.fill(0);
  const added = c.added ?? null;
  // the added pairs' odds per slot, which the other pairs do not count as rivals
  const addedTotal = added ? new Float64Array(c.slotCount) : null;
  for (let p = 0; p < n; p++) {
    if (c.nonMatch[p]) continue;
    const x = Math.min(q[p]!, 1 - 1e-9);
    odds[p] = x / (1 - x);
    slotTotal[slots[2 * p]!]! += odds[p]!;
    slotTotal[slots[2 * p + 1]!]! += odds[p]!;
    if (addedTotal && added![p]) {
      addedTotal[slots[2 * p]!]! += odds[p]!;
      addedTotal[slots[2 * p + 1]!]! += odds[p]!;
    }
  }
  for (let p = 0; p < n; p++) {
    if (c.nonMatch[p]) {
      q[p] = 0;
      continue;
    }
    const o = odds[p]!;
    let rivals = slotTotal[slots[2 * p]!]! + slotTotal[slots[2 * p + 1]!]! - 2 * o;
    if (addedTotal && !added![p])
      rivals = Math.max(0, rivals - addedTotal[slots[2 * p]!]! - addedTotal[slots[2 * p + 1]!]!);
    q[p] = o / (1 + o + rivals);
  }
}

function logit(p: number): number {
  return Math.log(p / (1 - p));
}

/**
 * Runs EM over `levels` (pair-major, `FEATURES.length` entries per pair) starting from the
 * `initial` match probability of each pair. Returns the final posterior of each pair and the
 * learned model.
 */
export function learnMatches(
  levels: Uint8Array,
  initial: Float64Array,
  constraints: PairConstraints | null,
  options: LearnOptions = {},
): { posterior: Float64Array; independent: Float64Array; model: LearnedModel } {
  const n = initial.length;
  const alpha = options.priorStrength ?? 20;
  const maxIterations = options.maxIterations ?? 30;
  const offsets: number[] = [];
  let total = 0;
  for (const f of FEATURES) {
    offsets.push(total);
    total += f.levels;
  }
  const posterior = Float64Array.from(initial);
  /** pairs only the code-stem keys proposed: judged, not learned from */
  const added = constraints?.added ?? null;
  const scratch =
    constraints?.slots != null
      ? { odds: new Float64Array(n), slotTotal: new Float64Array(constraints.slotCount) }
      : null;
  if (constraints) compete(posterior, constraints, scratch);
  if (n === 0) {
    return {
      posterior,
      independent: posterior,
      model: { matchShare: 0, weights: FEATURES.map((f) => new Array(f.levels).fill(0)), iterations: 0 },
    };
  }

  const mCount = new Float64Array(total);
  const uCount = new Float64Array(total);
  /** Expected level counts per class under the current posteriors. */
  const count = () => {
    mCount.fill(0);
    uCount.fill(0);
    for (let p = 0; p < n; p++) {
      if (added?.[p]) continue;
      const q = posterior[p]!;
      const base = p * F;
      for (let k = 0; k < F; k++) {
        const level = levels[base + k]!;
        if (level === 0) continue;
        mCount[offsets[k]! + level]! += q;
        uCount[offsets[k]! + level]! += 1 - q;
      }
    }
  };
  /** Normalizes counts over the levels ≥ 1 of each feature, blending in the prior. */
  const distribution = (counts: Float64Array, prior: Float64Array | null): Float64Array => {
    const out = new Float64Array(total);
    FEATURES.forEach((f, k) => {
      const o = offsets[k]!;
      let sum = 0;
      for (let l = 1; l < f.levels; l++) sum += counts[o + l]!;
      // Half a pseudo-count per level keeps unseen levels finite.
      const smooth = 0.5;
      const denom = sum + alpha * (prior ? 1 : 0) + smooth * (f.levels - 1);
      for (let l = 1; l < f.levels; l++)
        out[o + l] = (counts[o + l]! + (prior ? alpha * prior[o + l]! : 0) + smooth) / denom;
    });
    return out;
  };

  count();
  const mPrior = distribution(mCount, null);
  const uPrior = distribution(uCount, null);
  let m = mPrior;
  let u = uPrior;
  let learning = n;
  if (added) for (let p = 0; p < n; p++) learning -= added[p]!;
  learning = Math.max(learning, 1);
  let share = posterior.reduce((s, q, p) => (added?.[p] ? s : s + q), 0) / learning;
  const weight = new Float64Array(total);
  const setWeights = () => {
    FEATURES.forEach((f, k) => {
      const o = offsets[k]!;
      weight[o] = 0;
      for (let l = 1; l < f.levels; l++) weight[o + l] = Math.log(m[o + l]! / u[o + l]!);
    });
  };

  const previous = Float64Array.from(posterior);
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    setWeights();
    const clamped = Math.min(Math.max(share, 1e-6), 1 - 1e-6);
    const bias = logit(clamped);
    let change = 0;
    let sum = 0;
    for (let p = 0; p < n; p++) {
      let z = bias;
      const base = p * F;
      for (let k = 0; k < F; k++) z += weight[offsets[k]! + levels[base + k]!]!;
      const q = 1 / (1 + Math.exp(-z));
      change = Math.max(change, Math.abs(q - posterior[p]!));
      posterior[p] = q;
      if (!added?.[p]) sum += q;
    }
    // The share of matches is read before competition: normalizing rivals is about which
    // candidate is the partner, and counting after it undercounts the matches (measured:
    // 0.019 against a true 0.047 on Amazon-Google).
    if (constraints) {
      compete(posterior, constraints, scratch);
      change = 0;
      for (let p = 0; p < n; p++) {
        change = Math.max(change, Math.abs(posterior[p]! - previous[p]!));
      }
    }
    previous.set(posterior);
    share = sum / learning;
    if (change < 1e-4) {
      iterations++;
      break;
    }
    count();
    m = distribution(mCount, mPrior);
    u = distribution(uCount, uPrior);
  }
  setWeights();
  // Each pair judged on its own under the learned weights and share, before competition.
  const independent = new Float64Array(n);
  {
    const bias = logit(Math.min(Math.max(share, 1e-6), 1 - 1e-6));
    for (let p = 0; p < n; p++) {
      let z = bias;
      const base = p * F;
      for (let k = 0; k < F; k++) z += weight[offsets[k]! + levels[base + k]!]!;
      independent[p] = constraints?.nonMatch[p] ? 0 : 1 / (1 + Math.exp(-z));
    }
  }
  const weights = FEATURES.map((f, k) =>
    Array.from({ length: f.levels }, (_, l) => Math.round(weight[offsets[k]! + l]! * 1000) / 1000),
  );
  return { posterior, independent, model: { matchShare: share, weights, iterations } };
}

/**
 * Whether a candidate pair keeps its fixed score only if the learned matcher accepts it too
 * (step 5 in docs/ingest.md): a title-only pair with `titleOnlyVeto`, a title-only second
 * choice (not the first choice of both its listings) or, with `oneCodeVeto`, a title-only pair
 * of a listing naming its own model number and one naming none (both passed as
 * `secondChoice`), and a pair whose feeds state two
 * different brands (`brandClash`, from `statedBrandVeto`) when it rests on its title — or,
 * with `statedBrandVetoCodes`, on a model number: two makers sharing a code beside their own
 * are look-alikes more often than one product. A shared GTIN is never vetted.
 */
export function needsLearnedSupport(
  method: 'gtin' | 'model_number' | 'title_similarity',
  secondChoice: boolean,
  brandClash: boolean,
  rules: { titleOnlyVeto: boolean; statedBrandVetoCodes: boolean },
): boolean {
  if (method === 'title_similarity') return rules.titleOnlyVeto || secondChoice || brandClash;
  return method === 'model_number' && brandClash && rules.statedBrandVetoCodes;
}
