import { COLOR_CODES, COLOR_WORDS } from './color-vocabulary.js';

/**
 * Suffix codes manufacturers append to a base model for a color, size or sales region
 * (`AM53BK` = AM53 in black, `FS105NA` = FS105 for North America). Two model numbers with
 * the same base and different suffixes are different products of one variant group.
 */

/** What a stripped suffix varies. */
export type SuffixKind = 'color' | 'size' | 'region';

const REGION_SUFFIXES = ['FXZA', 'XAA', 'XZA', 'ZA', 'NA', 'US', 'USA', 'UC', 'EU', 'UK', 'AU', 'JP', 'CA'];

/** Color suffix code → the colors it may stand for (data/resolve/colors.json `suffix_codes`). */
const COLOR_SUFFIXES = new Map<string, string[]>();
for (const [color, codes] of Object.entries(COLOR_CODES)) {
  for (const code of codes) COLOR_SUFFIXES.set(code, [...(COLOR_SUFFIXES.get(code) ?? []), color]);
}
const SIZE_SUFFIXES = ['XXXL', 'XXL', '3XL', '2XL', 'XL', 'XS', 'SM', 'MD', 'LG'];

/** Longest suffix first, so `BLK` wins over `K`. */
const SUFFIXES: Array<[string, SuffixKind]> = [
  ...REGION_SUFFIXES.map((s): [string, SuffixKind] => [s, 'region']),
  ...SIZE_SUFFIXES.map((s): [string, SuffixKind] => [s, 'size']),
  ...[...COLOR_SUFFIXES.keys()].map((s): [string, SuffixKind] => [s, 'color']),
].sort((a, b) => b[0].length - a[0].length);

/** A model number split into its base and the variant suffixes stripped from it. */
export interface ModelParts {
  base: string;
  /** Letter/digit run pattern of the whole code (`KXTS108W` → `ada`). */
  shape: string;
  /** Stripped suffixes, outermost last; `values` are the colors a color code may stand for. */
  suffixes: Array<{ code: string; kind: SuffixKind; values: string[] }>;
}

/**
 * Splits off trailing region, size and color codes (at most one of each kind, region
 * outermost). A suffix is only stripped right after a digit, and only when the base that
 * remains still reads as a model (at least 3 characters with a digit), so `PSLX350H` keeps
 * its `H` and `WET54G` is not cut to `WET54`.
 */
export function splitModel(model: string, brand?: string | null): ModelParts {
  // Scoring splits the same few codes over and over; results are immutable, so cache them.
  const cacheKey = `${model}\u0000${brand ?? ''}`;
  const cached = splitCache.get(cacheKey);
  if (cached) return cached;
  const parts = splitModelUncached(model, brand);
  if (splitCache.size >= SPLIT_CACHE_LIMIT) splitCache.clear();
  splitCache.set(cacheKey, parts);
  return parts;
}

const SPLIT_CACHE_LIMIT = 200_000;
const splitCache = new Map<string, ModelParts>();

function splitModelUncached(model: string, brand?: string | null): ModelParts {
  let base = model.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const brandCode = brand ? brand.toUpperCase().replace(/[^A-Z0-9]/g, '') : '';
  const afterBrand = base.slice(brandCode.length);
  if (
    brandCode.length >= 2 &&
    base.startsWith(brandCode) &&
    afterBrand.length >= 4 &&
    /\d/.test(afterBrand)
  ) {
    base = base.slice(brandCode.length);
  }
  const suffixes: ModelParts['suffixes'] = [];
  const seen = new Set<SuffixKind>();
  for (const kindOrder of ['region', 'size', 'color'] as const) {
    for (const [code, kind] of SUFFIXES) {
      if (kind !== kindOrder || seen.has(kind) || !base.endsWith(code)) continue;
      const rest = base.slice(0, base.length - code.length);
      // Single letters are only colors after a long digit run (`KXTS108W`), never after
      // short codes where the letter is part of the name (`WET54G`).
      // Long region codes (`FXZA`, `XAA`) follow a color letter too (`UN55D6000S-FXZA`).
      const minDigits = code.length === 1 ? 3 : kind === 'region' && code.length >= 3 ? 0 : 1;
      const tail = /\d+$/.exec(rest)?.[0] ?? '';
      if (tail.length < minDigits || rest.length < 3 || !/\d/.test(rest)) continue;
      base = rest;
      suffixes.unshift({
        code,
        kind,
        values: kind === 'color' ? (COLOR_SUFFIXES.get(code) ?? [code]) : [code],
      });
      seen.add(kind);
      break;
    }
  }
  return { base, shape: shape(model), suffixes };
}

/**
 * The base model: the model number without color, size or region suffix codes.
 * `baseModel('AM53BK')` → `AM53`; `baseModel('WF45R6100AW')` → `WF45R6100`.
 */
export function baseModel(model: string, brand?: string | null): string {
  return splitModel(model, brand).base;
}

/**
 * How two normalized model numbers relate:
 * - `same`: identical;
 * - `compatible`: one is the other plus a variant suffix the other omits (`FS105` / `FS105NA`);
 * - `variant`: same base, different variant suffixes (`AM53BK` / `AM53WH`): different products
 *   of one variant group;
 * - `conflict`: codes of the same numbering scheme that disagree (`KXTS108W` / `KXTS208W`);
 * - `unrelated`: codes of different schemes (a maker's model vs a catalogue number), which
 *   says little either way.
 */
export type ModelRelation = 'same' | 'compatible' | 'variant' | 'conflict' | 'unrelated';

/** Letter/digit run pattern: `KXTS108W` → `ada`, used to tell numbering schemes apart. */
function shape(code: string): string {
  return code.replace(/[A-Z]+/g, 'a').replace(/\d+/g, 'd');
}

function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Classifies two model numbers; see {@link ModelRelation}. */
export function relateModels(
  a: string,
  b: string,
  brandA?: string | null,
  brandB?: string | null,
): ModelRelation {
  if (a === b) return 'same';
  return relateSplit(a, splitModel(a, brandA), b, splitModel(b, brandB));
}

/**
 * {@link relateModels} for codes already split (`pa = splitModel(a, brandA)`): scoring
 * splits each record's codes once instead of once per candidate pair.
 */
export function relateSplit(a: string, pa: ModelParts, b: string, pb: ModelParts): ModelRelation {
  if (a === b) return 'same';
  if (pa.base === pb.base) {
    for (const x of pa.suffixes) {
      const y = pb.suffixes.find((s) => s.kind === x.kind);
      if (y && !y.values.some((v) => x.values.includes(v))) return 'variant';
    }
    // One naming only a color and the other only a size (`…ST` against `…MD`): two full
    // codes of different variants, not one code with a part left out. Region codes are
    // left out of this: retailers drop and add them freely (`HTZ410T` / `HT-Z410/XAA`).
    const has = (p: ModelParts, kind: SuffixKind) => p.suffixes.some((x) => x.kind === kind);
    if (
      (has(pa, 'color') && !has(pa, 'size') && has(pb, 'size') && !has(pb, 'color')) ||
      (has(pb, 'color') && !has(pb, 'size') && has(pa, 'size') && !has(pa, 'color'))
    )
      return 'variant';
    // `SRSA212BK` and `SRSA212BLK` spell the same suffixes differently.
    return pa.suffixes.length === pb.suffixes.length ? 'same' : 'compatible';
  }
  const lcp = commonPrefixLength(a, b);
  const restA = a.slice(lcp);
  const restB = b.slice(lcp);
  if (lcp >= 4 && /\d/.test(a.slice(0, lcp)) && /^[A-Z]{0,4}$/.test(restA) && /^[A-Z]{0,4}$/.test(restB)) {
    return restA === '' || restB === '' ? 'compatible' : 'variant';
  }
  // One code embedding the other (`G303` in `STELLARG303`) is the same model with a
  // series prefix.
  const [short, long] = pa.base.length <= pb.base.length ? [pa.base, pb.base] : [pb.base, pa.base];
  if (short.length >= 4 && /\d/.test(short) && long.includes(short)) return 'compatible';
  if (lcp >= 2 || pa.shape === pb.shape) return 'conflict';
  return 'unrelated';
}

/** The color family of listings (tokens.ts) a color suffix value belongs to (`stainless` → silver). */
const familyOf = (value: string): string => COLOR_WORDS.get(value) ?? value;

/**
 * Every way `code` ends in a color suffix code, as the code before it and the listing color
 * families (tokens.ts) the suffix may stand for: `STYLUS1050SWB` → `STYLUS1050SW` + black,
 * `EDIT100BK` → `EDIT100` + black (and `EDIT100B` + black, `K`). Unlike {@link splitModel}
 * this cuts after letters too; callers check the base against other evidence.
 */
export function colorTails(code: string): ReadonlyArray<{ base: string; families: string[] }> {
  const cached = tailCache.get(code);
  if (cached) return cached;
  const out: Array<{ base: string; families: string[] }> = [];
  for (const [suffix, values] of COLOR_SUFFIXES) {
    if (suffix.length >= code.length || !code.endsWith(suffix)) continue;
    out.push({
      base: code.slice(0, code.length - suffix.length),
      families: values.map(familyOf),
    });
  }
  if (tailCache.size >= SPLIT_CACHE_LIMIT) tailCache.clear();
  tailCache.set(code, out);
  return out;
}

const tailCache = new Map<string, ReadonlyArray<{ base: string; families: string[] }>>();

/** Every suffix {@link splitModel} knows, of any kind. */
const KNOWN_SUFFIXES: ReadonlySet<string> = new Set(SUFFIXES.map(([code]) => code));

/**
 * Whether two codes that differ only in the letters after their last digit (`NNH965BK` /
 * `NNH965BF`, `FDB130WH` / `FDB130RGS`) name one product under two suffix conventions: one
 * tail is a color code (`BK`, `WH`) of a color the other listing names too, the listing of
 * that code names no other color, and the other tail is no suffix code of any kind — a
 * maker's own letters (`BF`, `RGS`, `XTSS`), not a second color, size or region. Retailers
 * append their own color code to a maker's base model (`GE GSD4000NWW White Dishwasher -
 * GSD4000WH`), so such a pair is one model in one color, not two variants. `colorsA` and
 * `colorsB` are the listings' color families (stated or read off the titles).
 */
export function oneColorTwoConventions(
  a: string,
  b: string,
  colorsA: ReadonlySet<string>,
  colorsB: ReadonlySet<string>,
): boolean {
  const stem = /^(.*\d)([A-Z]+)$/;
  const ma = stem.exec(a);
  const mb = stem.exec(b);
  if (!ma || !mb || ma[1] !== mb[1] || ma[1]!.length < 4 || ma[2] === mb[2]) return false;
  const named = (tail: string, own: ReadonlySet<string>, other: ReadonlySet<string>, rest: string) => {
    if (KNOWN_SUFFIXES.has(rest)) return false;
    for (const value of COLOR_SUFFIXES.get(tail) ?? []) {
      const family = familyOf(value);
      if (other.has(family) && (own.size === 0 || (own.size === 1 && own.has(family)))) return true;
    }
    return false;
  };
  return named(ma[2]!, colorsA, colorsB, mb[2]!) || named(mb[2]!, colorsB, colorsA, ma[2]!);
}
