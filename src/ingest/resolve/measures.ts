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
  [/^(packs?|pk|count|ct)$/, 'pack'],
];

/**
 * Units stated as a multiple of another that titles use for the same kind of quantity: a
 * `2TB` drive beside a `256GB` one is two capacities (and `1TB` / `1000GB` one). Only the
 * decimal step makers label capacities with; megabytes stay their own unit (a drive's `64MB`
 * cache is not a capacity beside its `2TB`).
 */
const SCALED: Readonly<Record<string, readonly [string, number]>> = { tb: ['gb', 1000] };

/**
 * A number and its unit. `in` counts only as `in.` (`2 in 1` is not two inches), and a unit
 * letter before a slash is a word (`w/` = with).
 */
const QUANTITY =
  /(?<![\w.])(\d+(?:\.\d+)?)\s*-?\s*(cu\.?\s?ft\.?|[tgmk]b|inches|inch|in\.|''|"|megapixels?|mp|watts?|w|mah|[gmk]?hz|mm|cm|ounces?|oz|pounds?|lbs?|volts?|v|quarts?|qt|cups?|channels?|ch|pieces?|pcs?|packs?|pk|count|ct)(?![a-z0-9/])/gi;

/**
 * Counts written before the number (`Pack of 2`, `Set of 3`) or as a word (`Twin Pack`): a
 * 2-pack and a single are two listings of one product line, not one item.
 */
const PACK_OF = /\b(?:pack|set|box|case) of (\d{1,3})\b|\b(twin|double|dual|triple) pack\b/gi;
const PACK_WORDS: Record<string, number> = { twin: 2, double: 2, dual: 2, triple: 3 };

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
    const scaled = SCALED[unit];
    out = scaled ? addMeasure(out, scaled[0], Number(m[1]) * scaled[1]) : addMeasure(out, unit, Number(m[1]));
  }
  if (/ of \d|pack/i.test(title))
    for (const m of title.matchAll(PACK_OF))
      out = addMeasure(out, 'pack', m[1] ? Number(m[1]) : PACK_WORDS[m[2]!.toLowerCase()]!);
  return out;
}

function addMeasure(out: Map<string, number[]> | null, unit: string, value: number): Map<string, number[]> {
  const map = out ?? new Map<string, number[]>();
  const values = map.get(unit);
  if (values) values.push(value);
  else map.set(unit, [value]);
  return map;
}

/**
 * Retailers round or truncate what they state (`14.7` / `14` megapixels, `24.7` / `25`
 * cu. ft.): two numbers are one quantity when either way to a whole number makes them equal.
 */
function sameQuantity(a: number, b: number): boolean {
  return a === b || Math.round(a) === Math.round(b) || Math.trunc(a) === Math.trunc(b);
}

/** Whether the title states a count of more than one unit (`2-Pack`, `Pack of 4`). */
function multiPack(m: Measures): boolean {
  return m?.get('pack')?.some((n) => n > 1) ?? false;
}

/**
 * How two titles' quantities relate: 0 no unit in common, 1 they share a quantity for some
 * common unit and differ on none, 2 for some common unit they share no quantity, 3 only one
 * of them states a pack of several units (a multipack beside a single, or a title that
 * leaves the count out: the learned weight tells how often each on a run).
 */
export function compareMeasures(a: Measures, b: Measures): 0 | 1 | 2 | 3 {
  if (multiPack(a) !== multiPack(b) && !(a?.has('pack') && b?.has('pack'))) return 3;
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
