/**
 * Suffix codes manufacturers append to a base model for a color, size or sales region
 * (`AM53BK` = AM53 in black, `FS105NA` = FS105 for North America). Two model numbers with
 * the same base and different suffixes are different products of one variant group.
 */

/** What a stripped suffix varies. */
export type SuffixKind = 'color' | 'size' | 'region';

const REGION_SUFFIXES = ['FXZA', 'XAA', 'XZA', 'ZA', 'NA', 'US', 'USA', 'UC', 'EU', 'UK', 'AU', 'JP', 'CA'];

/** Color suffix codes and the color they stand for, so `BK` and `BLK` compare equal. */
const COLOR_SUFFIXES: Record<string, string> = {
  BLACK: 'black',
  BLK: 'black',
  BK: 'black',
  B: 'black',
  WHITE: 'white',
  WHT: 'white',
  WH: 'white',
  W: 'white',
  WW: 'white',
  SILVER: 'silver',
  SLV: 'silver',
  SIL: 'silver',
  SL: 'silver',
  S: 'silver',
  BLUE: 'blue',
  BLU: 'blue',
  BL: 'blue',
  L: 'blue',
  RED: 'red',
  RD: 'red',
  R: 'red',
  PINK: 'pink',
  PNK: 'pink',
  PK: 'pink',
  P: 'pink',
  GREEN: 'green',
  GRN: 'green',
  G: 'green',
  GRY: 'gray',
  GY: 'gray',
  GR: 'gray',
  GLD: 'gold',
  GD: 'gold',
  BRN: 'brown',
  BR: 'brown',
  ORG: 'orange',
  PUR: 'purple',
  AW: 'white',
  AP: 'platinum',
  SS: 'silver',
  TI: 'titanium',
  TT: 'titanium',
  K: 'black',
  T: 'titanium',
};
const SIZE_SUFFIXES = ['XXXL', 'XXL', '3XL', '2XL', 'XL', 'XS', 'SM', 'MD', 'LG'];

/** Longest suffix first, so `BLK` wins over `K`. */
const SUFFIXES: Array<[string, SuffixKind]> = [
  ...REGION_SUFFIXES.map((s): [string, SuffixKind] => [s, 'region']),
  ...SIZE_SUFFIXES.map((s): [string, SuffixKind] => [s, 'size']),
  ...Object.keys(COLOR_SUFFIXES).map((s): [string, SuffixKind] => [s, 'color']),
].sort((a, b) => b[0].length - a[0].length);

/** A model number split into its base and the variant suffixes stripped from it. */
export interface ModelParts {
  base: string;
  /** Stripped suffixes, outermost last; `value` is the canonical color for color codes. */
  suffixes: Array<{ code: string; kind: SuffixKind; value: string }>;
}

/**
 * Splits off trailing region, size and color codes (at most one of each kind, region
 * outermost). A suffix is only stripped right after a digit, and only when the base that
 * remains still reads as a model (at least 3 characters with a digit), so `PSLX350H` keeps
 * its `H` and `WET54G` is not cut to `WET54`.
 */
export function splitModel(model: string, brand?: string | null): ModelParts {
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
      suffixes.unshift({ code, kind, value: kind === 'color' ? (COLOR_SUFFIXES[code] ?? code) : code });
      seen.add(kind);
      break;
    }
  }
  return { base, suffixes };
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
  const pa = splitModel(a, brandA);
  const pb = splitModel(b, brandB);
  if (pa.base === pb.base) {
    for (const x of pa.suffixes) {
      const y = pb.suffixes.find((s) => s.kind === x.kind);
      if (y && y.value !== x.value) return 'variant';
    }
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
  if (lcp >= 2 || shape(a) === shape(b)) return 'conflict';
  return 'unrelated';
}
