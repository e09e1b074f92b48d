/**
 * The match score of two listings: a log-odds sum of independent pieces of evidence,
 * squashed to a probability. Title similarity sets the baseline; model numbers, GTINs,
 * brands, release facts, specs and price move it. A conflicting model number is strong
 * evidence against a match, and model numbers that differ only by a variant suffix are
 * different products.
 */

import { servesTheOther } from './accessory.js';
import {
  colorTails,
  type ModelParts,
  type ModelRelation,
  oneColorTwoConventions,
  relateSplit,
  splitModel,
} from './base-model.js';
import { brandsAgree } from './brand.js';
import { editionConflict } from './editions.js';
import { type Corpus, compactTextOf, type RecordFeatures } from './features.js';
import { compareMeasures } from './measures.js';
import { isUnitWord } from './model-number.js';
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
  { name: 'measure', levels: 4 },
] as const;

/** Index of the `brand` feature, and its level where both feeds state brands that differ. */
export const BRAND_FEATURE = FEATURES.findIndex((f) => f.name === 'brand');
export const STATED_BRANDS_DISAGREE = 4;

/**
 * Whether a pair's levels carry soft evidence of two variants of one line: titles naming
 * different colors (`color` level 2) or one unit with different quantities (`measure` level 2,
 * `16GB` / `32GB`). Weaker than a hard conflict (a title's color may be a part's or a
 * finish's), so such a pair may still merge above the threshold — but not as a mutual best
 * match below it (`ResolveOptions.clashNotMutualBest`).
 */
export function variantClash(levels: Uint8Array, at: number): boolean {
  return levels[at + COLOR_FEATURE] === 2 || levels[at + MEASURE_FEATURE] === 2;
}
const COLOR_FEATURE = FEATURES.findIndex((f) => f.name === 'color');
const MEASURE_FEATURE = FEATURES.findIndex((f) => f.name === 'measure');

/** Levels of the model-number feature. */
const MODEL = { unrelated: 1, same: 2, inText: 3, compatible: 4, variant: 5, conflict: 6 } as const;

/** Title cosine in tenths: level 1 (< 0.1) to 10 (≥ 0.9). */
function titleLevel(cos: number): number {
  return 1 + Math.min(9, Math.max(0, Math.floor(cos * 10)));
}

function priceLevel(ratio: number): number {
  return ratio <= 1.1 ? 1 : ratio <= 1.3 ? 2 : ratio <= 1.8 ? 3 : ratio <= 3 ? 4 : 5;
}

/**
 * Log-odds of titles stating one unit with different quantities: the weight of a color read
 * off titles, evidence of the same kind. Measured among candidate pairs with such a clash:
 * 0 of 579 are matches on Abt-Buy, 0 of 4 on Amazon-Google and 0 of 10,544 on the demo
 * (5,000 products), against 7 %, 5 % and 22 % of all candidates: at most about 3 / 579, so
 * log-odds of -2.7 or lower on Abt-Buy; -2 stays on the cautious side of that. EM re-learns
 * the weight per run (level 2 of the `measure` feature).
 */
const MEASURE_CLASH = -2;
// Only one title stating a pack of several units (`8-Pack`) is level 3 of `measure`, weighed
// by EM alone. Among candidate pairs where one does, 6 of 169 are matches on Abt-Buy and 4 of
// 410 on Amazon-Google, against 7.6 % and 4.7 % of all candidates (log-odds −0.8 and −1.6
// below the base rate); a fixed −0.75 cost 3 right pairs for 1 wrong one on the two sets
// (`5-Pack DVD-RAM` / `3x DVD-RAM`, `2 licenses` / `2 pack`), so the fixed score leaves it.

/**
 * Log-odds of prices more than 3× apart, and 1.8–3× apart. The weights EM learns for these
 * levels are -3.4 / -1.1 on Abt-Buy, -4.5 / -1.3 on Amazon-Google and -8.6 / -8.9 on the
 * demo; the fixed score takes about the weakest of them, so it is never more lenient than
 * what any set in view learns (wave 7; it was half of that, -1.5 / -0.5). Precision rises on
 * Amazon-Google and its orphaned copies, Abt-Buy loses two right pairs (a bundle, a price typo)
 * and one wrong one (docs/ingest.md). Prices stay soft evidence, never a hard conflict: feeds
 * list bundles, sale prices and typos.
 */
const PRICE_APART = -3;
const PRICE_GAP = -1;

/**
 * Log-odds of an accessory beside the product it serves (accessory.ts): as strong as model
 * numbers that name two variants, and like them a hard conflict, so EM counts such pairs as
 * non-matches and clustering never joins them.
 */
const ACCESSORY_CLASH = -4;

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

type ModelEvidence = { z: number; model: -1 | 0 | 1; variantConflict: boolean; level: number };

const RELATION_RANK: Record<ModelRelation, number> = {
  same: 4,
  compatible: 3,
  variant: 2,
  conflict: 1,
  unrelated: 0,
};

/**
 * Whether a title code of `codes` (5+ characters) is written, perhaps with spaces, in `other`'s
 * text. With `atBoundary`, not where the other's text continues it with a variant suffix:
 * `NV276` inside `NV276BL` is the base of another code, a color of it, whose relation to this
 * one the codes themselves decide (see {@link relateSplit}). A continuation that is no variant
 * suffix still counts (`XMH10` in `XMH10A`, `SD1100` in `SD1100ISB`).
 */
function codeInText(codes: readonly string[], other: RecordFeatures, atBoundary: boolean): boolean {
  for (const c of codes) {
    if (c.length < 5 || !compactTextOf(other).includes(c)) continue;
    if (!atBoundary || writtenAsItself(c, other)) return true;
  }
  return false;
}

/**
 * For each record that gets this far, which characters of its compact text (title,
 * description and MPN, upper-case alphanumerics only; see {@link compactTextOf}) end a written
 * token: 1 where the original text has a separator or its end right after that character.
 * Built on first use, like the compact text, and dropped with the record's features.
 */
const tokenEnds = new WeakMap<RecordFeatures, Uint8Array>();

function tokenEndsOf(f: RecordFeatures): Uint8Array {
  let ends = tokenEnds.get(f);
  if (ends === undefined) {
    const r = f.record;
    // the same text and the same filter as compactTextOf, so positions line up
    const text = `${r.title} ${r.description ?? ''} ${r.mpn ?? ''}`.toUpperCase();
    ends = new Uint8Array(compactTextOf(f).length);
    let at = -1;
    for (let k = 0; k < text.length; k++) {
      const ch = text.charCodeAt(k);
      if ((ch >= 48 && ch <= 57) || (ch >= 65 && ch <= 90)) at++;
      else if (at >= 0) ends[at] = 1;
    }
    if (at >= 0) ends[at] = 1;
    tokenEnds.set(f, ends);
  }
  return ends;
}

/** Whether `code` occurs in the record's text other than as the base of a variant suffix. */
function writtenAsItself(code: string, other: RecordFeatures): boolean {
  const compact = compactTextOf(other);
  const ends = tokenEndsOf(other);
  for (let at = compact.indexOf(code); at >= 0; at = compact.indexOf(code, at + 1)) {
    const last = at + code.length - 1;
    if (ends[last] === 1) return true;
    let stop = last + 1;
    while (stop < compact.length && ends[stop] !== 1) stop++;
    // what the text goes on with, to the end of its token
    const tail = compact.slice(last + 1, stop + 1);
    if (splitModel(code + tail).base !== code) return true;
  }
  return false;
}

/** A record's title words as written and upper-case alphanumerics only, built on first use. */
const titleWords = new WeakMap<RecordFeatures, { raw: string[]; words: string[] }>();

function titleWordsOf(f: RecordFeatures): { raw: string[]; words: string[] } {
  let w = titleWords.get(f);
  if (w === undefined) {
    const raw = f.record.title.split(/[^A-Za-z0-9._-]+/).filter((x) => /[A-Za-z0-9]/.test(x));
    w = { raw, words: raw.map((x) => x.toUpperCase().replace(/[^A-Z0-9]/g, '')) };
    titleWords.set(f, w);
  }
  return w;
}

/**
 * Whether a title code of `codes` (5+ characters, letters and digits) is written in `other`'s
 * title as two or more whole words (`SP565UZ` as `SP-565 UZ`, `MDRAS50G` as `MDR AS50G`): the
 * same code with the maker's own space in it. Words here end at spaces and punctuation, not
 * at hyphens or dots, so a code is not read inside a longer hyphenated one (`PG40BK` in
 * `PG-40-BK-TWIN`), and a number is not joined across a thousands space (`150 000`). A last
 * word that is a number followed by a unit is a quantity, not the code's end (`HERO 33 ft`
 * is not `HERO33`).
 */
function codeSplitInTitle(codes: readonly string[], other: RecordFeatures): boolean {
  for (const c of codes) {
    if (c.length < 5 || !/[A-Z]/.test(c) || !/\d/.test(c)) continue;
    // the compact text (built once per record) holds every way of writing the code
    if (!compactTextOf(other).includes(c)) continue;
    const { raw, words } = titleWordsOf(other);
    for (let i = 0; i < words.length; i++) {
      let joined = words[i]!;
      for (let j = i + 1; j < words.length && joined.length < c.length && c.startsWith(joined); j++) {
        joined += words[j]!;
        if (joined !== c) continue;
        if (/^\d+$/.test(words[j]!) && isUnitWord(raw[j + 1])) break;
        return true;
      }
    }
  }
  return false;
}

/**
 * The bases of `f`'s title codes that end in a color code of a color `other` names, where the
 * two listings name no different colors (`COOLPIXP6000BK` → `COOLPIXP6000`, `STYLUS1050SWB` →
 * `STYLUS1050SW` against a black listing): what the other title may write as the model with
 * its color spelled out. Only a base of 5+ characters written as words counts (see
 * {@link codeSplitInTitle}).
 */
function colorBases(f: RecordFeatures, other: RecordFeatures): string[] {
  if (other.colors.size === 0 || colorsDiffer(f, other)) return NO_BASES;
  let bases: string[] | null = null;
  for (const code of f.rareTitleCodes)
    for (const { base, families } of colorTails(code))
      if (families.some((c) => other.colors.has(c))) {
        bases ??= [];
        bases.push(base);
      }
  return bases ?? NO_BASES;
}

const NO_BASES: string[] = [];

/**
 * Whether a title code of `codes` is a UPC or EAN (12 or 13 digits) whose item reference — the
 * digits before the check digit, after the maker's GS1 prefix — `other`'s title writes as a
 * number of its own (5 to 7 digits): `743840830153` is maker 743840's item `83015`, check
 * digit 3. Retailers list the maker's item number where others list the barcode.
 */
function itemNumberIn(codes: readonly string[], other: RecordFeatures): boolean {
  let numbers: string[] | null = null;
  for (const c of codes) {
    if (!GTIN_CODE.test(c)) continue;
    numbers ??= other.record.title.match(ITEM_NUMBER) ?? [];
    const body = c.slice(0, -1);
    for (const n of numbers) if (body.length - n.length >= 6 && body.endsWith(n)) return true;
  }
  return false;
}

const GTIN_CODE = /^\d{12,13}$/;
const ITEM_NUMBER = /(?<![\d.,$])\d{5,7}(?![\d.,])/g;

function sharesAny(codes: readonly string[], set: ReadonlySet<string>): boolean {
  if (set.size === 0) return false;
  for (const c of codes) if (set.has(c)) return true;
  return false;
}

const UNRELATED: ModelEvidence = { z: -0.75, model: 0, variantConflict: false, level: MODEL.unrelated };
const NO_MODEL: ModelEvidence = { z: 0, model: 0, variantConflict: false, level: 0 };
const VARIANT: ModelEvidence = { z: -4, model: -1, variantConflict: true, level: MODEL.variant };
const CONFLICT: ModelEvidence = { z: -3, model: -1, variantConflict: false, level: MODEL.conflict };
const SAME: ModelEvidence = { z: 4, model: 1, variantConflict: false, level: MODEL.same };
/**
 * A code written in the other title as words (`SP-565 UZ`): the fixed score of the same code,
 * the learned level of a code found in the other's text, so the weights EM learns for both
 * levels (and with them every other pair's posterior) stay as they were.
 */
const SPLIT_SAME: ModelEvidence = { z: 4, model: 1, variantConflict: false, level: MODEL.inText };
const IN_TEXT: ModelEvidence = { z: 2.5, model: 1, variantConflict: false, level: MODEL.inText };
const COMPATIBLE: ModelEvidence = { z: 1.5, model: 1, variantConflict: false, level: MODEL.compatible };

/** Which optional scoring rules are on (`ResolveOptions` of the same names). */
export interface ScoreRules {
  /**
   * When both listings name their own (primary) model number and the two conflict, a code
   * they share beside them — a series, a standard or a spec written like a code (`PAR38`,
   * `10GBE`, the `HX7565` of `HX7565/51` / `HX7565/50`) — does not make them one model.
   */
  ownCodeDecides: boolean;
  /**
   * A code found in the other listing's text counts only where it ends at a token boundary
   * there or goes on with something other than a variant suffix (`NV276` is not read inside
   * `NV276BL`, a color of it); otherwise the codes' own relation decides.
   */
  codeEndsAtBoundary: boolean;
  /**
   * Two codes where one is the other plus a suffix the other omits (`NV276` / `NV276BL`,
   * `compatible`) name two variants when the listings' colors differ (`White` / `in Black`):
   * the suffix is the color the shorter code's listing is not.
   */
  suffixColorDecides: boolean;
  /**
   * Two codes that differ only in their letters after the last digit, where one tail is a
   * color code of the color both listings name and the other is no suffix code at all
   * (`NNH965BK` / `NNH965BF`, both black), are one model under a retailer's and a maker's
   * suffix conventions (`compatible`), not two variants (base-model.ts,
   * `oneColorTwoConventions`).
   */
  colorSuffixConventions: boolean;
  /**
   * A code written in the other listing's title as two or more whole words (`SP565UZ` /
   * `SP-565 UZ`) is the same code (`same`), not just a code found in its text (`inText`).
   */
  splitCodeIsSame: boolean;
  /**
   * With `ownCodeDecides`: a shared code that is one listing's primary plus a letter suffix
   * (`TXSR706B` beside that listing's `TXSR706`) is that listing's own model number too, so
   * the two are one model even where the other listing's primary is another code (its
   * `SELECT2`, a certification written like a code).
   */
  ownCodeWithSuffix: boolean;
  /**
   * A UPC or EAN in one title whose item reference the other title writes as a number of its
   * own (`743840830153` / `83015`) is the same code (`same`).
   */
  gtinItemNumber: boolean;
}

export const DEFAULT_RULES: ScoreRules = {
  ownCodeDecides: true,
  codeEndsAtBoundary: true,
  suffixColorDecides: true,
  colorSuffixConventions: false,
  splitCodeIsSame: true,
  ownCodeWithSuffix: true,
  gtinItemNumber: true,
};

/** {@link relateSplit} of two listings' codes, with {@link ScoreRules.colorSuffixConventions}. */
function relateCodes(
  a: RecordFeatures,
  x: string,
  px: ModelParts,
  b: RecordFeatures,
  y: string,
  py: ModelParts,
  rules: ScoreRules,
): ModelRelation {
  const r = relateSplit(x, px, y, py);
  return r === 'variant' && rules.colorSuffixConventions && oneColorTwoConventions(x, y, a.colors, b.colors)
    ? 'compatible'
    : r;
}

/**
 * Whether `code` is the listing's own model number: its primary, or with
 * {@link ScoreRules.ownCodeWithSuffix} its primary plus a letter suffix (`TXSR706B` of a listing
 * whose primary is `TXSR706`).
 */
function isOwn(code: string, primary: string | null, rules: ScoreRules): boolean {
  if (primary === null) return false;
  if (code === primary) return true;
  return (
    rules.ownCodeWithSuffix &&
    code.length > primary.length &&
    code.startsWith(primary) &&
    /^[A-Z]{1,4}$/.test(code.slice(primary.length))
  );
}

/** Model-number evidence of a pair, from the rare codes each record carries (features.ts). */
function modelEvidence(a: RecordFeatures, b: RecordFeatures, rules: ScoreRules): ModelEvidence {
  const aTitle = a.rareTitleCodes;
  const bTitle = b.rareTitleCodes;

  // The primary (rarest) codes decide disagreements: a shared series code (`E310`) does not
  // outweigh different catalogue numbers (`3741001` / `3841001`), nor a shared base code
  // (`DVPFX820`) two color codes (`DVPFX820LI` / `DVPFX820W`). But one listing's own full code
  // written in the other's title is the same item under a retailer's own suffix convention
  // (`GE GSD4000NWW White Dishwasher - GSD4000WH` / `GE GSD4000NWW Dishwasher`).
  let primary: ModelRelation | null = null;
  if (a.primaryParts && b.primaryParts) {
    primary = relateCodes(a, a.primaryModel!, a.primaryParts, b, b.primaryModel!, b.primaryParts, rules);
    if (primary === 'variant' && !aTitle.includes(b.primaryModel!) && !bTitle.includes(a.primaryModel!))
      return VARIANT;
  }

  let best: ModelRelation = 'unrelated';
  // whether a code the two share is one of the listings' own (primary) model numbers
  let sameOwn = false;
  for (let x = 0; x < aTitle.length; x++) {
    for (let y = 0; y < bTitle.length; y++) {
      const r = relateCodes(a, aTitle[x]!, a.rareTitleParts[x]!, b, bTitle[y]!, b.rareTitleParts[y]!, rules);
      if (RELATION_RANK[r] > RELATION_RANK[best]) best = r;
      if (
        r === 'same' &&
        (isOwn(aTitle[x]!, a.primaryModel, rules) || isOwn(bTitle[y]!, b.primaryModel, rules))
      )
        sameOwn = true;
    }
  }
  if (primary === 'variant') return best === 'same' ? SAME : VARIANT;
  if (primary === 'conflict' && (best !== 'same' || (rules.ownCodeDecides && !sameOwn))) return CONFLICT;
  if (best === 'same') return SAME;

  if (sharesAny(aTitle, b.rareDescCodes) || sharesAny(bTitle, a.rareDescCodes)) return IN_TEXT;
  // Two accessories of one product (`Cover for … Spirit E-200`, described as for the E-200).
  if (
    overlaps(a.servedCodes, b.servedCodes) ||
    overlaps(a.servedCodes, b.rareDescCodes) ||
    overlaps(b.servedCodes, a.rareDescCodes)
  )
    return IN_TEXT;
  // Codes written with spaces in the other title (`KDL 40V4100`) still agree.
  const atBoundary = rules.codeEndsAtBoundary;
  if (codeInText(aTitle, b, atBoundary) || codeInText(bTitle, a, atBoundary)) {
    if (rules.splitCodeIsSame && (codeSplitInTitle(aTitle, b) || codeSplitInTitle(bTitle, a)))
      return SPLIT_SAME;
    return IN_TEXT;
  }
  // `COOLPIXP6000BK` against `COOLPIX P6000 … Black`: the base written as words, the color
  // suffix written as the color.
  if (
    rules.splitCodeIsSame &&
    (codeSplitInTitle(colorBases(a, b), b) || codeSplitInTitle(colorBases(b, a), a))
  )
    return SAME;
  // `743840830153` (a UPC) against `Nyko … - 83015`: the maker's item number inside the GTIN.
  if (rules.gtinItemNumber && (itemNumberIn(aTitle, b) || itemNumberIn(bTitle, a))) return SAME;
  switch (best) {
    case 'compatible':
      return rules.suffixColorDecides && colorsDiffer(a, b) ? VARIANT : COMPATIBLE;
    case 'variant':
      return VARIANT;
    case 'conflict':
      return CONFLICT;
    default:
      // Both carry codes but from different numbering schemes: weak evidence.
      return aTitle.length > 0 && bTitle.length > 0 ? UNRELATED : NO_MODEL;
  }
}

/** What {@link scoreInto} returns besides the levels it writes. */
interface PairCore {
  z: number;
  titleSimilarity: number;
  model: ModelEvidence;
  conflict: boolean;
  method: PairScore['method'];
}

/**
 * Scores one candidate pair into `levels[at … at + FEATURES.length)` and returns its
 * log-odds; the evidence pieces go to `evidence` when one is given (debugging and tests).
 * The log-odds are summed in a fixed order (title, model, gtin, brand, edition, color,
 * size, price, productType, specs, measure, accessory), so a score does not depend on whether evidence is kept.
 */
function scoreInto(
  corpus: Corpus,
  i: number,
  j: number,
  levels: Uint8Array,
  at: number,
  evidence: Record<string, number> | null,
  rules: ScoreRules,
): PairCore {
  const a = corpus.features[i]!;
  const b = corpus.features[j]!;
  const titleSimilarity = cosine(a.vector, b.vector);
  let z = TITLE_INTERCEPT + TITLE_SLOPE * titleSimilarity;
  if (evidence) evidence.title = z;
  const add = (name: string, delta: number) => {
    if (delta === 0) return;
    z += delta;
    if (evidence) evidence[name] = delta;
  };

  levels[at] = titleLevel(titleSimilarity);
  const m = modelEvidence(a, b, rules);
  add('model', m.z);
  levels[at + 1] = m.level;

  if (a.gtin && b.gtin) {
    add('gtin', a.gtin === b.gtin ? 8 : -4);
    levels[at + 2] = a.gtin === b.gtin ? 1 : 2;
  }

  if (a.brand && b.brand) {
    if (brandsAgree(a.brand, b.brand)) {
      add('brand', 0.5);
      levels[at + 3] = 1;
    } else {
      const aInB = a.brandWords.every((t) => b.tokens.includes(t));
      const bInA = b.brandWords.every((t) => a.tokens.includes(t));
      // A brand read off the title may be a series or publisher name; trust it less.
      if (!aInB && !bInA) {
        const stated = a.brandStated && b.brandStated;
        add('brand', stated ? -1.5 : -0.5);
        levels[at + 3] = stated ? STATED_BRANDS_DISAGREE : 3;
      } else levels[at + 3] = 2;
    }
  }

  const editionPenalty = editionConflict(a.edition, b.edition);
  add('edition', -editionPenalty);
  levels[at + 4] =
    editionPenalty === 0 ? 0 : editionPenalty <= 1 ? 1 : editionPenalty < HARD_EDITION_CONFLICT ? 2 : 3;

  // Different named colors are different variants, even when titles agree otherwise. Colors
  // read off titles are softer evidence than colors both feeds state.
  const colorClash = colorsDiffer(a, b);
  const colorStatedClash = colorClash && statedClash(a.colorValue, b.colorValue);
  const sizeClash = statedClash(a.sizeValue, b.sizeValue);
  if (colorClash) add('color', colorStatedClash ? -3 : -2);
  if (sizeClash) add('size', -3);
  if (a.colors.size > 0 && b.colors.size > 0) levels[at + 5] = colorStatedClash ? 3 : colorClash ? 2 : 1;
  if (a.sizeValue !== '' && b.sizeValue !== '') levels[at + 6] = sizeClash ? 2 : 1;

  if (a.price && b.price) {
    const ratio = Math.max(a.price, b.price) / Math.min(a.price, b.price);
    if (ratio > 3) add('price', PRICE_APART);
    else if (ratio > 1.8) add('price', PRICE_GAP);
    levels[at + 7] = priceLevel(ratio);
  }

  if (a.productType && b.productType) {
    if (a.productType !== b.productType) add('productType', -2);
    levels[at + 8] = a.productType === b.productType ? 1 : 2;
  }
  if (a.specValues && b.specValues) {
    let plus = 0;
    let minus = 0;
    for (const [key, value] of a.specValues) {
      const other = b.specValues.get(key);
      if (other === undefined) continue;
      if (value === other) plus += 0.25;
      else minus += 0.75;
    }
    add('specs', Math.min(plus, 1) - Math.min(minus, 2.25));
    if (plus > 0 || minus > 0) levels[at + 9] = minus === 0 ? 1 : plus > 0 ? 2 : 3;
  }

  // The same unit with different numbers (`16GB` / `32GB`): soft evidence of two products.
  const measure = compareMeasures(a.measures, b.measures);
  if (measure === 2) add('measure', MEASURE_CLASH);
  levels[at + 10] = measure;

  // A case for the `SD1000` beside the `SD1000` itself.
  const accessory = (a.serves !== null || b.serves !== null) && servesTheOther(a, b);
  if (accessory) add('accessory', ACCESSORY_CLASH);

  return {
    z,
    titleSimilarity,
    model: m,
    conflict:
      m.model === -1 || editionPenalty >= HARD_EDITION_CONFLICT || colorStatedClash || sizeClash || accessory,
    method: levels[at + 2] === 1 ? 'gtin' : m.model === 1 ? 'model_number' : 'title_similarity',
  };
}

/** Both listings name colors (stated or in their titles), and none in common. */
function colorsDiffer(a: RecordFeatures, b: RecordFeatures): boolean {
  return a.colors.size > 0 && b.colors.size > 0 && !overlaps(a.colors, b.colors);
}

function overlaps(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (b.has(x)) return true;
  return false;
}

/** Both feeds state the value (in comparison form) and they differ. */
function statedClash(x: string, y: string): boolean {
  return x !== '' && y !== '' && x !== y;
}

/**
 * Scores one candidate pair with its evidence, for debugging and tests. `records` are the
 * corpus's inputs (kept for callers; the corpus carries what scoring needs).
 */
export function scorePair(
  _records: readonly ResolveRecord[],
  corpus: Corpus,
  i: number,
  j: number,
  rules: ScoreRules = DEFAULT_RULES,
): PairScore {
  const levels = new Uint8Array(FEATURES.length);
  const evidence: Record<string, number> = {};
  const s = scoreInto(corpus, i, j, levels, 0, evidence, rules);
  return {
    probability: sigmoid(s.z),
    titleSimilarity: s.titleSimilarity,
    model: s.model.model,
    variantConflict: s.model.variantConflict,
    conflict: s.conflict,
    evidence,
    levels,
    method: s.method,
  };
}

/**
 * Scores many pairs (`pairs[2p]`, `pairs[2p + 1]`) at once, writing each pair's levels into
 * `levels` (pair-major) and its probability into `probability`; returns per pair whether it
 * carries a hard conflict and its match method. Same figures as {@link scorePair}.
 */
export function scorePairs(
  corpus: Corpus,
  pairs: Int32Array,
  levels: Uint8Array,
  probability: Float64Array,
  rules: ScoreRules = DEFAULT_RULES,
): { conflict: Uint8Array; method: PairScore['method'][] } {
  const n = probability.length;
  const conflict = new Uint8Array(n);
  const method: PairScore['method'][] = new Array(n);
  for (let p = 0; p < n; p++) {
    const s = scoreInto(corpus, pairs[2 * p]!, pairs[2 * p + 1]!, levels, p * FEATURES.length, null, rules);
    probability[p] = sigmoid(s.z);
    conflict[p] = s.conflict ? 1 : 0;
    method[p] = s.method;
  }
  return { conflict, method };
}
