/**
 * Suffix codes manufacturers append to a base model for a color, size or sales region
 * (`AM53BK` = AM53 in black, `FS105NA` = FS105 for North America). Two model numbers with
 * the same base and different suffixes are different products of one variant group.
 */

/** What a stripped suffix varies. */
export type SuffixKind = 'color' | 'size' | 'region';

const REGION_SUFFIXES = ['FXZA', 'XAA', 'XZA', 'ZA', 'NA', 'US', 'USA', 'UC', 'EU', 'UK', 'AU', 'JP', 'CA'];
const COLOR_SUFFIXES = [
  'BLACK', 'WHITE', 'SILVER', 'BLUE', 'RED', 'PINK', 'GREEN',
  'BLK', 'WHT', 'SLV', 'SIL', 'BLU', 'GRN', 'PNK', 'GRY', 'GLD', 'BRN', 'ORG', 'PUR',
  'BK', 'WH', 'SL', 'BL', 'RD', 'GR', 'GY', 'GD', 'BR', 'PK', 'AW', 'AP', 'SS', 'TI',
  'B', 'W', 'S', 'R', 'G', 'K', 'P', 'T',
];
const SIZE_SUFFIXES = ['XXXL', 'XXL', '3XL', '2XL', 'XL', 'XS', 'SM', 'MD', 'LG'];

/** Longest suffix first, so `BLK` wins over `K`. */
const SUFFIXES: Array<[string, SuffixKind]> = [
  ...REGION_SUFFIXES.map((s): [string, SuffixKind] => [s, 'region']),
  ...SIZE_SUFFIXES.map((s): [string, SuffixKind] => [s, 'size']),
  ...COLOR_SUFFIXES.map((s): [string, SuffixKind] => [s, 'color']),
].sort((a, b) => b[0].length - a[0].length);

/** A model number split into its base and the variant suffixes stripped from it. */
export interface ModelParts {
  base: string;
  suffixes: Array<{ code: string; kind: SuffixKind }>;
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
  if (brandCode.length >= 2 && base.startsWith(brandCode) && /\d/.test(base.slice(brandCode.length, brandCode.length + 3))) {
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
      const minDigits = code.length === 1 ? 3 : 1;
      const tail = /\d+$/.exec(rest)?.[0] ?? '';
      if (tail.length < minDigits || rest.length < 3) continue;
      base = rest;
      suffixes.unshift({ code, kind });
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
