/**
 * The match score of two listings: a log-odds sum of independent pieces of evidence,
 * squashed to a probability. Title similarity sets the baseline; model numbers, GTINs,
 * brands, release facts, specs and price move it. A conflicting model number is strong
 * evidence against a match, and model numbers that differ only by a variant suffix are
 * different products.
 */

import { type ModelRelation, relateModels } from './base-model.js';
import { brandsAgree } from './brand.js';
import { editionConflict } from './editions.js';
import { type Corpus, GENERIC_CODE_DF, type RecordFeatures } from './features.js';
import type { ResolveRecord } from './types.js';
import { cosine } from './vector.js';

/** The evidence behind one score, kept for debugging and tests. */
export interface PairScore {
  probability: number;
  titleSimilarity: number;
  /** +1 the model numbers agree, -1 they conflict, 0 no evidence. */
  model: -1 | 0 | 1;
  /** True when the model numbers share a base but carry different variant suffixes. */
  variantConflict: boolean;
  /**
   * Hard evidence of different products: conflicting model numbers or releases, or colors or
   * sizes both feeds state differently. Such pairs are never merged.
   */
  conflict: boolean;
  /** Log-odds contribution of each piece of evidence that moved the score. */
  evidence: Record<string, number>;
  /**
   * The pair's comparison vector: one level per entry of {@link FEATURES}, 0 when the
   * feature says nothing (a side lacks the field). The learned matcher weighs these.
   */
  levels: Uint8Array;
  /** The strongest identity evidence the pair shares, for the offer's `match.method`. */
  method: 'gtin' | 'model_number' | 'title_similarity';
}

/**
 * The comparison features of a pair and how many levels each has (level 0 = no evidence).
 * Their match and non-match distributions are learned per run (see `learn.ts`); the fixed
 * log-odds above only start that estimate.
 */
export const FEATURES = [
  { name: 'title', levels: 11 },
  { name: 'model', levels: 7 },
  { name: 'gtin', levels: 3 },
  { name: 'brand', levels: 5 },
  { name: 'edition', levels: 4 },
  { name: 'color', levels: 4 },
  { name: 'size', levels: 3 },
  { name: 'price', levels: 6 },
  { name: 'productType', levels: 3 },
  { name: 'specs', levels: 4 },
] as const;

/** Levels of the model-number feature. */
const MODEL = { unrelated: 1, same: 2, inText: 3, compatible: 4, variant: 5, conflict: 6 } as const;

/** Title cosine in tenths: level 1 (< 0.1) to 10 (≥ 0.9). */
function titleLevel(cos: number): number {
  return 1 + Math.min(9, Math.max(0, Math.floor(cos * 10)));
}

function priceLevel(ratio: number): number {
  return ratio <= 1.1 ? 1 : ratio <= 1.3 ? 2 : ratio <= 1.8 ? 3 : ratio <= 3 ? 4 : 5;
}

/** An edition penalty this large is a different release (year, platform, count, release code). */
const HARD_EDITION_CONFLICT = 3;

/**
 * Title similarity alone: log-odds = TITLE_INTERCEPT + TITLE_SLOPE × cosine, so a cosine of
 * about 0.55 is even odds, 0.8 is strong and 0.3 is weak; other evidence moves it from there.
 */
const TITLE_INTERCEPT = -5;
const TITLE_SLOPE = 9;

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

function normalizeValue(v: string | null | undefined): string {
  return (v ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
}

type ModelEvidence = { z: number; model: -1 | 0 | 1; variantConflict: boolean; level: number };

const RELATION_RANK: Record<ModelRelation, number> = {
  same: 4,
  compatible: 3,
  variant: 2,
  conflict: 1,
  unrelated: 0,
};

function modelEvidence(a: RecordFeatures, b: RecordFeatures, corpus: Corpus): ModelEvidence {
  const rare = (c: string) => (corpus.codeDf.get(c) ?? 0) < GENERIC_CODE_DF;
  const aTitle = a.titleCodes.filter(rare);
  const bTitle = b.titleCodes.filter(rare);

  // The primary (rarest) codes decide disagreements: a shared series code (`E310`) does not
  // outweigh different catalogue numbers (`3741001` / `3841001`).
  let primary: ModelRelation | null = null;
  if (a.primaryModel && b.primaryModel && rare(a.primaryModel) && rare(b.primaryModel)) {
    primary = relateModels(a.primaryModel, b.primaryModel, a.brand, b.brand);
    if (primary === 'variant') return { z: -4, model: -1, variantConflict: true, level: MODEL.variant };
  }

  let best: ModelRelation = 'unrelated';
  for (const x of aTitle) {
    for (const y of bTitle) {
      const r = relateModels(x, y, a.brand, b.brand);
      if (RELATION_RANK[r] > RELATION_RANK[best]) best = r;
    }
  }
  if (primary === 'conflict' && best !== 'same')
    return { z: -3, model: -1, variantConflict: false, level: MODEL.conflict };
  if (best === 'same') return { z: 4, model: 1, variantConflict: false, level: MODEL.same };

  const bAll = new Set(b.descCodes.filter(rare));
  const aAll = new Set(a.descCodes.filter(rare));
  if (aTitle.some((c) => bAll.has(c)) || bTitle.some((c) => aAll.has(c))) {
    return { z: 2.5, model: 1, variantConflict: false, level: MODEL.inText };
  }
  // Codes written with spaces in the other title (`KDL 40V4100`) still agree.
  const inText = (codes: string[], other: RecordFeatures) =>
    codes.some((c) => c.length >= 5 && other.compactText.includes(c));
  if (inText(aTitle, b) || inText(bTitle, a))
    return { z: 2.5, model: 1, variantConflict: false, level: MODEL.inText };
  switch (best) {
    case 'compatible':
      return { z: 1.5, model: 1, variantConflict: false, level: MODEL.compatible };
    case 'variant':
      return { z: -4, model: -1, variantConflict: true, level: MODEL.variant };
    case 'conflict':
      return { z: -3, model: -1, variantConflict: false, level: MODEL.conflict };
    default:
      // Both carry codes but from different numbering schemes: weak evidence.
      return aTitle.length > 0 && bTitle.length > 0
        ? { z: -0.75, model: 0, variantConflict: false, level: MODEL.unrelated }
        : { z: 0, model: 0, variantConflict: false, level: 0 };
  }
}

/**
 * Scores one candidate pair. `records` are the original inputs (for color, size, specs and
 * product type), `corpus` their pre-computed features.
 */
export function scorePair(
  records: readonly ResolveRecord[],
  corpus: Corpus,
  i: number,
  j: number,
): PairScore {
  const a = corpus.features[i]!;
  const b = corpus.features[j]!;
  const ra = records[i]!;
  const rb = records[j]!;
  const titleSimilarity = cosine(a.vector, b.vector);
  const evidence: Record<string, number> = { title: TITLE_INTERCEPT + TITLE_SLOPE * titleSimilarity };
  const add = (name: string, delta: number) => {
    if (delta !== 0) evidence[name] = (evidence[name] ?? 0) + delta;
  };

  const levels = new Uint8Array(FEATURES.length);
  levels[0] = titleLevel(titleSimilarity);
  const m = modelEvidence(a, b, corpus);
  add('model', m.z);
  levels[1] = m.level;

  if (a.gtin && b.gtin) {
    add('gtin', a.gtin === b.gtin ? 8 : -4);
    levels[2] = a.gtin === b.gtin ? 1 : 2;
  }

  if (a.brand && b.brand) {
    if (brandsAgree(a.brand, b.brand)) {
      add('brand', 0.5);
      levels[3] = 1;
    } else {
      const aInB = a.brand.split(' ').every((t) => b.tokens.includes(t));
      const bInA = b.brand.split(' ').every((t) => a.tokens.includes(t));
      // A brand read off the title may be a series or publisher name; trust it less.
      if (!aInB && !bInA) {
        const stated = a.brandStated && b.brandStated;
        add('brand', stated ? -1.5 : -0.5);
        levels[3] = stated ? 4 : 3;
      } else levels[3] = 2;
    }
  }

  const editionPenalty = editionConflict(a.edition, b.edition);
  add('edition', -editionPenalty);
  levels[4] =
    editionPenalty === 0 ? 0 : editionPenalty <= 1 ? 1 : editionPenalty < HARD_EDITION_CONFLICT ? 2 : 3;

  // Different named colors are different variants, even when titles agree otherwise. Colors
  // read off titles are softer evidence than colors both feeds state.
  const colorClash = a.colors.size > 0 && b.colors.size > 0 && ![...a.colors].some((c) => b.colors.has(c));
  const statedClash = (x: string | null | undefined, y: string | null | undefined) =>
    normalizeValue(x) !== '' && normalizeValue(y) !== '' && normalizeValue(x) !== normalizeValue(y);
  const colorStatedClash = colorClash && statedClash(ra.color, rb.color);
  const sizeClash = statedClash(ra.size, rb.size);
  if (colorClash) add('color', colorStatedClash ? -3 : -2);
  if (sizeClash) add('size', -3);
  if (a.colors.size > 0 && b.colors.size > 0) levels[5] = colorStatedClash ? 3 : colorClash ? 2 : 1;
  if (normalizeValue(ra.size) !== '' && normalizeValue(rb.size) !== '') levels[6] = sizeClash ? 2 : 1;

  if (a.price && b.price) {
    const ratio = Math.max(a.price, b.price) / Math.min(a.price, b.price);
    if (ratio > 3) add('price', -0.75);
    else if (ratio > 1.8) add('price', -0.3);
    levels[7] = priceLevel(ratio);
  }

  if (ra.productType && rb.productType) {
    if (ra.productType !== rb.productType) add('productType', -2);
    levels[8] = ra.productType === rb.productType ? 1 : 2;
  }
  if (ra.specs && rb.specs) {
    let plus = 0;
    let minus = 0;
    for (const [key, value] of Object.entries(ra.specs)) {
      const other = rb.specs[key];
      if (other === undefined) continue;
      if (normalizeValue(value) === normalizeValue(other)) plus += 0.25;
      else minus += 0.75;
    }
    add('specs', Math.min(plus, 1) - Math.min(minus, 2.25));
    if (plus > 0 || minus > 0) levels[9] = minus === 0 ? 1 : plus > 0 ? 2 : 3;
  }

  let z = 0;
  for (const delta of Object.values(evidence)) z += delta;
  return {
    probability: sigmoid(z),
    titleSimilarity,
    model: m.model,
    variantConflict: m.variantConflict,
    conflict: m.model === -1 || editionPenalty >= HARD_EDITION_CONFLICT || colorStatedClash || sizeClash,
    evidence,
    levels,
    method: levels[2] === 1 ? 'gtin' : m.model === 1 ? 'model_number' : 'title_similarity',
  };
}
