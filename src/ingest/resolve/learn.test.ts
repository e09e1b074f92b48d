import { describe, expect, it } from 'vitest';
import { compete, learnMatches, needsLearnedSupport } from './learn.js';
import { FEATURES } from './score.js';

const F = FEATURES.length;

/** A seeded generator, so the synthetic batch is the same on every run. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Pairs drawn from two known classes: matches have high title levels and agreeing models,
 * non-matches low titles and mostly unrelated models.
 */
function synthetic(n: number, share: number, seed = 7) {
  const next = rng(seed);
  const levels = new Uint8Array(n * F);
  const truth: boolean[] = [];
  for (let p = 0; p < n; p++) {
    const match = next() < share;
    truth.push(match);
    levels[p * F] = match ? 7 + Math.floor(next() * 4) : 1 + Math.floor(next() * 7);
    levels[p * F + 1] = match ? (next() < 0.7 ? 2 : 0) : next() < 0.5 ? 1 : next() < 0.1 ? 6 : 0;
  }
  return { levels, truth };
}

/** A poor starting guess, as a hand-set scorer might give: a high title level is a coin flip. */
function roughStart(levels: Uint8Array): Float64Array {
  return Float64Array.from({ length: levels.length / F }, (_, p) => (levels[p * F]! >= 7 ? 0.5 : 0.1));
}

describe('learnMatches', () => {
  it('estimates the share of matches of the batch, not a fixed prior', () => {
    for (const share of [0.02, 0.1]) {
      const { levels, truth } = synthetic(20_000, share);
      const { model, posterior } = learnMatches(levels, roughStart(levels), null);
      expect(model.matchShare).toBeGreaterThan(share * 0.7);
      expect(model.matchShare).toBeLessThan(share * 1.4);
      let right = 0;
      posterior.forEach((q, p) => {
        if (q >= 0.5 === truth[p]) right++;
      });
      expect(right / truth.length).toBeGreaterThan(0.95);
    }
  });

  it('learns that model agreement is evidence for a match and a conflict against', () => {
    const { levels } = synthetic(20_000, 0.05);
    const { model } = learnMatches(levels, roughStart(levels), null);
    const modelWeights = model.weights[1]!;
    expect(modelWeights[2]).toBeGreaterThan(1);
    expect(modelWeights[6]).toBeLessThan(0);
    expect(modelWeights[0]).toBe(0);
  });

  it('keeps pairs with hard conflicts out of the match class', () => {
    const { levels, truth } = synthetic(2_000, 0.1);
    const nonMatch = new Uint8Array(truth.length).fill(1);
    const { posterior } = learnMatches(levels, new Float64Array(truth.length).fill(0.5), {
      nonMatch,
      slots: null,
      slotCount: 0,
    });
    expect(Math.max(...posterior)).toBe(0);
  });
});

describe('compete', () => {
  it('shares one partner among rivals and leaves a lone pair alone', () => {
    // pairs 0 and 1 compete for record A's partner at retailer B; pair 2 is alone
    const q = Float64Array.from([0.8, 0.8, 0.8]);
    compete(q, { nonMatch: new Uint8Array(3), slots: Int32Array.from([0, 1, 0, 2, 3, 4]), slotCount: 5 });
    expect(q[0]).toBeCloseTo(4 / 9);
    expect(q[1]).toBeCloseTo(4 / 9);
    expect(q[2]).toBeCloseTo(0.8);
  });

  it('an added (code-stem) pair competes with the others but is no rival of theirs', () => {
    // pair 1 only the stem keys proposed: pair 0 keeps its lone posterior, pair 1 shares
    const q = Float64Array.from([0.8, 0.8]);
    const added = Uint8Array.from([0, 1]);
    compete(q, { nonMatch: new Uint8Array(2), slots: Int32Array.from([0, 1, 0, 2]), slotCount: 3, added });
    expect(q[0]).toBeCloseTo(0.8);
    expect(q[1]).toBeCloseTo(4 / 9);
  });
});

describe('learnMatches: pairs the code-stem keys added', () => {
  it('learns nothing from them: the others get the weights and posteriors they get alone', () => {
    const { levels } = synthetic(4_000, 0.05);
    const { levels: extra } = synthetic(1_000, 0.5, 99);
    const n = levels.length / FEATURES.length;
    const m = extra.length / FEATURES.length;
    const both = new Uint8Array(levels.length + extra.length);
    both.set(levels);
    both.set(extra, levels.length);
    // every pair its own slots, so competition does not enter
    const slotsOf = (count: number) => Int32Array.from({ length: 2 * count }, (_, k) => k);
    const alone = learnMatches(levels, roughStart(levels), {
      nonMatch: new Uint8Array(n),
      slots: slotsOf(n),
      slotCount: 2 * n,
    });
    const added = new Uint8Array(n + m);
    added.fill(1, n);
    const withAdded = learnMatches(both, roughStart(both), {
      nonMatch: new Uint8Array(n + m),
      slots: slotsOf(n + m),
      slotCount: 2 * (n + m),
      added,
    });
    expect(withAdded.model.matchShare).toBeCloseTo(alone.model.matchShare, 9);
    for (let p = 0; p < n; p++) expect(withAdded.posterior[p]).toBeCloseTo(alone.posterior[p]!, 9);
  });
});

describe('needsLearnedSupport', () => {
  const defaults = { titleOnlyVeto: false, statedBrandVetoCodes: true };
  it('vets title-only second choices and pairs of two stated brands', () => {
    expect(needsLearnedSupport('title_similarity', false, false, defaults)).toBe(false);
    expect(needsLearnedSupport('title_similarity', true, false, defaults)).toBe(true);
    expect(needsLearnedSupport('title_similarity', false, true, defaults)).toBe(true);
    expect(needsLearnedSupport('title_similarity', false, false, { ...defaults, titleOnlyVeto: true })).toBe(
      true,
    );
  });
  it('vets a model-number pair only when its feeds state two brands, and only with the switch on', () => {
    expect(needsLearnedSupport('model_number', true, false, defaults)).toBe(false);
    expect(needsLearnedSupport('model_number', false, true, defaults)).toBe(true);
    expect(
      needsLearnedSupport('model_number', false, true, { ...defaults, statedBrandVetoCodes: false }),
    ).toBe(false);
  });
  it('never vets a shared GTIN', () => {
    expect(needsLearnedSupport('gtin', true, true, { titleOnlyVeto: true, statedBrandVetoCodes: true })).toBe(
      false,
    );
  });
});
