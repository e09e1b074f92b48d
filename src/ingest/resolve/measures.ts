/**
 * Quantities a title states with a unit (`500GB`, `55"`, `14.7 Megapixel`, `4.0 Cu Ft`,
 * `1200W`). Two listings that state the same unit with different numbers are usually two
 * products of one line (a 16GB and a 32GB card, a 46" and a 52" TV); stating one equal
 * number is mild evidence for a match. Rounding (`14.7` / `14` megapixels) makes this
 * evidence soft, never a hard conflict: its weight is learned per run (learn.ts).
 */

/** Unit spellings → one unit name. */
const UNIT_OF: ReadonlyArray<[RegExp, string]> = [
  [/^cu\.?\s?ft\.?$/, 'cuft'],
  [/^[tgmk]b$/, ''], // kept as written: tb, gb, mb, kb
  [/^(inch|inches|in\.|"|'')$/, 'in'],
  [/^(megapixels?|mp)$/, 'mp'],
  [/^(watts?|w)$/, 'w'],
  [/^mah$/, 'mah'],
  [/^[gmk]?hz$/, ''],
  [/^(mm|cm)$/, ''],
  [/^(oz|ounces?)$/, 'oz'],
  [/^(lbs?|pounds?)$/, 'lb'],
  [/^(volts?|v)$/, 'v'],
  [/^(qt|quarts?)$/, 'qt'],
  [/^(cups?)$/, 'cup'],
  [/^(ch|channels?)$/, 'ch'],
  [/^(pieces?|pcs?)$/, 'pc'],
];

/**
 * A number and its unit. `in` counts only as `in.` (`2 in 1` is not two inches), and a unit
 * letter before a slash is a word (`w/` = with).
 */
const QUANTITY =
  /(?<![\w.])(\d+(?:\.\d+)?)\s*-?\s*(cu\.?\s?ft\.?|[tgmk]b|inches|inch|in\.|''|"|megapixels?|mp|watts?|w|mah|[gmk]?hz|mm|cm|ounces?|oz|pounds?|lbs?|volts?|v|quarts?|qt|cups?|channels?|ch|pieces?|pcs?)(?![a-z0-9/])/gi;

/** Per unit, the numbers a title states with it; null when it states none. */
export type Measures = ReadonlyMap<string, readonly number[]> | null;

/** Reads the {@link Measures} of a title. */
export function extractMeasures(title: string): Measures {
  let out: Map<string, number[]> | null = null;
  for (const m of title.toLowerCase().matchAll(QUANTITY)) {
    const written = m[2]!.replace(/\s+/g, ' ');
    let unit = written;
    for (const [pattern, name] of UNIT_OF) {
      if (pattern.test(written)) {
        unit = name || written;
        break;
      }
    }
    const value = Number(m[1]);
    out ??= new Map();
    const values = out.get(unit);
    if (values) values.push(value);
    else out.set(unit, [value]);
  }
  return out;
}

/**
 * Retailers round or truncate what they state (`14.7` / `14` megapixels, `24.7` / `25`
 * cu. ft.): two numbers are one quantity when either way to a whole number makes them equal.
 */
function sameQuantity(a: number, b: number): boolean {
  return a === b || Math.round(a) === Math.round(b) || Math.trunc(a) === Math.trunc(b);
}

/**
 * How two titles' quantities relate: 0 no unit in common, 1 they share a quantity for some
 * common unit and differ on none, 2 for some common unit they share no quantity.
 */
export function compareMeasures(a: Measures, b: Measures): 0 | 1 | 2 {
  if (!a || !b) return 0;
  let agree = false;
  for (const [unit, values] of a) {
    const other = b.get(unit);
    if (!other) continue;
    if (!values.some((v) => other.some((w) => sameQuantity(v, w)))) return 2;
    agree = true;
  }
  return agree ? 1 : 0;
}
