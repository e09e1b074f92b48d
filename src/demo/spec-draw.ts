import type { ProductTypeDef, RuleConstraint, SpecDef, SpecRange, SpecRulesDef } from '../content/index.js';
import type { Random } from './random.js';

export type SpecValue = string | number | boolean | string[];
type RuleValue = string | number | boolean;

/** A numeric spec without a real-world range: the demo cannot draw it (data/README.md). */
export class MissingRangeError extends Error {
  constructor(type: string, spec: string) {
    super(
      `${type}.${spec}: numeric spec has no range in data/taxonomy (the demo draws every number from it)`,
    );
    this.name = 'MissingRangeError';
  }
}

/** Decimals a step is quoted in: 0.5 → 1, 1 → 0, 0.25 → 2. */
const decimalsOf = (n: number) => {
  const s = String(n);
  return s.includes('e-') ? Number(s.split('e-')[1]) : (s.split('.')[1]?.length ?? 0);
};

/** The step of a range: its own, else the finest precision its bounds are written in. */
export const stepOf = (r: SpecRange): number =>
  r.step ?? 10 ** -Math.max(decimalsOf(r.min), decimalsOf(r.max), decimalsOf(r.typical));

/** A range narrowed by a rule's constraint; null when nothing real is left. */
export function narrow(r: SpecRange, c: RuleConstraint | RuleValue): SpecRange | null {
  const allowed =
    typeof c === 'object' ? c.values?.filter((v): v is number => typeof v === 'number') : [c as number];
  const min = Math.max(r.min, typeof c === 'object' ? (c.min ?? r.min) : (c as number));
  const max = Math.min(r.max, typeof c === 'object' ? (c.max ?? r.max) : (c as number));
  if (min > max) return null;
  let values = r.values;
  let weights = r.weights;
  if (values) {
    const keep = values.map(
      (v) =>
        v >= min &&
        v <= max &&
        (!allowed?.length || allowed.includes(v)) &&
        !(typeof c === 'object' && c.not?.includes(v)),
    );
    weights = weights?.filter((_, i) => keep[i]);
    values = values.filter((_, i) => keep[i]);
    if (values.length === 0) return null;
  } else if (allowed?.length) {
    values = allowed.filter((v) => v >= min && v <= max).sort((a, b) => a - b);
    weights = undefined;
    if (values.length === 0) return null;
  }
  return { ...r, min, max, typical: Math.min(max, Math.max(min, r.typical)), values, weights };
}

/**
 * The value at quantile `u` of a range's distribution: discrete `values` by their `weights`
 * (equal when absent), else a triangular distribution over [min, max] peaking at `typical`,
 * rounded to the range's step and kept inside [min, max]. A quantile (not a fresh draw) lets
 * related specs share one position: a bigger TV is heavier because both sit at the same u.
 */
export function quantile(r: SpecRange, u: number): number {
  const t = Math.min(1, Math.max(0, u));
  if (r.values?.length) {
    // values are ascending (data test; narrow keeps the order); loops, not arrays: this runs
    // for every number of every product on every settling pass
    const values = r.values;
    const weightOf = (i: number) => r.weights?.[i] ?? (r.weights ? 0 : 1);
    let total = 0;
    for (let i = 0; i < values.length; i++) total += Math.max(0, weightOf(i));
    const w = total > 0 ? (i: number) => Math.max(0, weightOf(i)) : () => 1;
    if (total <= 0) total = values.length;
    let acc = 0;
    let last = values[0]!;
    for (let i = 0; i < values.length; i++) {
      const wi = w(i);
      if (wi <= 0) continue;
      acc += wi;
      last = values[i]!;
      if (t * total <= acc) return last;
    }
    return last;
  }
  const { min: a, max: b } = r;
  if (b <= a) return a;
  const c = Math.min(b, Math.max(a, r.typical));
  const fc = (c - a) / (b - a);
  const raw = t < fc ? a + Math.sqrt(t * (b - a) * (c - a)) : b - Math.sqrt((1 - t) * (b - a) * (b - c));
  const step = stepOf(r);
  let v = Math.round(raw / step) * step;
  if (v > b) v -= step;
  if (v < a) v += step;
  return Number(Math.min(b, Math.max(a, v)).toFixed(decimalsOf(step)));
}

/** Whether a value meets a rule's condition or constraint (null: the spec is absent). */
export function satisfies(value: SpecValue | undefined, c: RuleConstraint | RuleValue | null): boolean {
  if (c === null) return value === undefined;
  if (value === undefined) return false;
  if (typeof c !== 'object') return Array.isArray(value) ? value.includes(String(c)) : value === c;
  const has = (v: RuleValue) => (Array.isArray(value) ? value.includes(String(v)) : value === v);
  if (c.values && !c.values.some(has)) return false;
  if (c.not?.some(has)) return false;
  if (typeof value === 'number') {
    if (c.min !== undefined && value < c.min) return false;
    if (c.max !== undefined && value > c.max) return false;
  } else if (c.min !== undefined || c.max !== undefined) return false;
  return true;
}

export const matches = (
  specs: Record<string, SpecValue>,
  when: Record<string, RuleConstraint | RuleValue | null>,
) => Object.entries(when).every(([k, c]) => satisfies(specs[k], c));

/** What rules may name besides specs: the brand slug, its line (series) and its quality tier. */
export interface DrawContext {
  brand?: string;
  series?: string;
  /** the brand's `quality_tier` (budget, mid-range, premium, luxury) */
  tier?: string;
}

/** A rule condition's value of `key`: a context key (brand, series, tier) or a spec. */
const conditionValue = (key: string, specs: Record<string, SpecValue>, context: DrawContext) =>
  key === 'brand'
    ? (context.brand ?? '')
    : key === 'series'
      ? (context.series ?? '')
      : key === 'tier'
        ? (context.tier ?? '')
        : specs[key];

/** Drivers of a spec's position: another numeric spec or the product's quality. */
const QUALITY = 'quality';

/**
 * Draws the specs of one product of `type`: every number from its range (an error when it has
 * none), enums and lists from their values, booleans by the product's quality, then settles the
 * type's rules: each number is the quantile of its own position (a random one, or its driver's
 * position give or take 0.1 along a relation) in its range narrowed by every rule whose
 * condition holds and by the specs it may not exceed or fall below; a non-number that breaks a
 * rule is re-drawn among what the rule allows.
 * `fixed` values (a battery platform's voltage) are kept as given.
 */
export function drawSpecs(
  type: ProductTypeDef,
  rules: SpecRulesDef | undefined,
  rnd: Random,
  quality: number,
  fixed: Record<string, SpecValue> = {},
  context: DrawContext = {},
): Record<string, SpecValue> {
  // rules on enums can pull against each other (a 720p draw against an OLED line); settling
  // then ends in a draw that breaks one, so such a draw is thrown away and drawn again
  let specs = drawOnce(type, rules, rnd, quality, fixed, context);
  const keys = new Set(type.specs.map((s) => s.key));
  for (let attempt = 0; attempt < 12 && !keepsRules(specs, rules, context, keys); attempt++)
    specs = drawOnce(type, rules, rnd, quality, fixed, context);
  return specs;
}

type Rule = NonNullable<SpecRulesDef['rules']>[number];
const namingCache = new WeakMap<Rule[], Map<string, Rule[]>>();

/** The rules that constrain each spec, in file order (built once per type's rule list). */
function rulesNaming(rules: Rule[]): Map<string, Rule[]> {
  let index = namingCache.get(rules);
  if (!index) {
    index = new Map();
    for (const r of rules) for (const k of Object.keys(r.then)) index.set(k, [...(index.get(k) ?? []), r]);
    namingCache.set(rules, index);
  }
  return index;
}

/** Whether every rule whose condition holds is kept (on the specs drawn here, `keys`). */
function keepsRules(
  specs: Record<string, SpecValue>,
  rules: SpecRulesDef | undefined,
  context: DrawContext,
  keys: Set<string>,
): boolean {
  const all = {
    ...specs,
    brand: context.brand ?? '',
    series: context.series ?? '',
    tier: context.tier ?? '',
  };
  return (rules?.rules ?? []).every(
    (r) =>
      !matches(all, r.when) ||
      Object.entries(r.then).every(([k, c]) => !keys.has(k) || satisfies(specs[k], c)),
  );
}

interface TypeShape {
  byKey: Map<string, SpecDef>;
  /** spec → the spec (or quality) its position follows */
  driverOf: Map<string, { driver: string; sign: 1 | -1 }>;
  /** spec → other numeric specs it may not exceed (max) or fall below (min) */
  bounds: Map<string, { other: string; side: 'max' | 'min' }[]>;
}
const shapes = new WeakMap<ProductTypeDef, WeakMap<object, TypeShape>>();
const NO_RULES = {};

/** A type's specs by key and its relations as lookups, built once per type and rule set. */
function shapeOf(type: ProductTypeDef, rules: SpecRulesDef | undefined): TypeShape {
  let byRules = shapes.get(type);
  if (!byRules) {
    byRules = new WeakMap();
    shapes.set(type, byRules);
  }
  const cached = byRules.get(rules ?? NO_RULES);
  if (cached) return cached;
  const byKey = new Map(type.specs.map((s) => [s.key, s]));
  const driverOf = new Map<string, { driver: string; sign: 1 | -1 }>();
  const bounds = new Map<string, { other: string; side: 'max' | 'min' }[]>();
  for (const rel of rules?.relations ?? []) {
    const driver = rel.increases_with ?? rel.decreases_with;
    if (driver) driverOf.set(rel.spec, { driver, sign: rel.increases_with ? 1 : -1 });
    for (const [other, side] of [
      [rel.at_most, 'max'],
      [rel.at_least, 'min'],
    ] as const)
      if (other) bounds.set(rel.spec, [...(bounds.get(rel.spec) ?? []), { other, side }]);
  }
  const shape = { byKey, driverOf, bounds };
  byRules.set(rules ?? NO_RULES, shape);
  return shape;
}

function drawOnce(
  type: ProductTypeDef,
  rules: SpecRulesDef | undefined,
  rnd: Random,
  quality: number,
  fixed: Record<string, SpecValue>,
  context: DrawContext,
): Record<string, SpecValue> {
  const specs: Record<string, SpecValue> = {};
  // rules may name the brand or the series in `when` (an Apple laptop runs macOS, an LG OLED evo
  // is an OLED); they are not specs
  // (read in place, not through a merged copy: this runs for every rule, spec and pass)
  const conditions = new Map<object, [string, RuleConstraint | RuleValue | null][]>();
  const holds = (when: Record<string, RuleConstraint | RuleValue | null>) => {
    let entries = conditions.get(when);
    if (!entries) {
      entries = Object.entries(when);
      conditions.set(when, entries);
    }
    return entries.every(([k, c]) => satisfies(conditionValue(k, specs, context), c));
  };
  const { byKey, driverOf, bounds } = shapeOf(type, rules);
  const fixedKeys = new Set(Object.keys(fixed));
  Object.assign(specs, fixed);
  const numbers = type.specs.filter((s) => s.type === 'number' && !fixedKeys.has(s.key));
  for (const spec of numbers) if (!spec.range) throw new MissingRangeError(type.slug, spec.key);
  // one random position and one jitter per number, drawn once so the settling converges
  const own = new Map(numbers.map((s) => [s.key, rnd.next()]));
  const jitter = new Map(numbers.map((s) => [s.key, (rnd.next() - 0.5) * 0.2]));
  for (const spec of type.specs) {
    if (fixedKeys.has(spec.key) || spec.type === 'number') continue;
    const v = drawOther(spec, rnd, quality, rules?.price?.factors?.[spec.key]);
    if (v !== null) specs[spec.key] = v;
  }
  const positionOf = (key: string): number => {
    const rel = driverOf.get(key);
    if (!rel) return own.get(key) ?? 0.5;
    let d: number | undefined;
    if (rel.driver === QUALITY) d = quality;
    else {
      const def = byKey.get(rel.driver);
      const v = specs[rel.driver];
      if (def?.range && typeof v === 'number') d = cdf(def.range, v);
    }
    if (d === undefined) return own.get(key) ?? 0.5;
    return Math.min(1, Math.max(0, (rel.sign > 0 ? d : 1 - d) + (jitter.get(key) ?? 0)));
  };
  const ruleRules = rules?.rules ?? [];
  const naming = rulesNaming(ruleRules);
  for (let pass = 0; pass < 6; pass++) {
    let changed = false;
    for (const spec of numbers) {
      let range: SpecRange = spec.range!;
      let absent = false;
      for (const rule of naming.get(spec.key) ?? []) {
        const c = rule.then[spec.key];
        if (c === undefined || !holds(rule.when)) continue;
        if (c === null) absent = true;
        else range = narrow(range, c) ?? range;
      }
      for (const { other, side } of bounds.get(spec.key) ?? []) {
        const v = specs[other];
        if (typeof v === 'number') range = narrow(range, { [side]: v }) ?? range;
      }
      if (absent) {
        if (spec.key in specs) {
          delete specs[spec.key];
          changed = true;
        }
        continue;
      }
      const v = quantile(range, positionOf(spec.key));
      if (specs[spec.key] !== v) {
        specs[spec.key] = v;
        changed = true;
      }
    }
    for (const rule of ruleRules) {
      if (!holds(rule.when)) continue;
      for (const [key, c] of Object.entries(rule.then)) {
        const spec = byKey.get(key);
        if (!spec || spec.type === 'number' || fixedKeys.has(key) || satisfies(specs[key], c)) continue;
        if (c === null) delete specs[key];
        else {
          // a value every rule that applies now allows, else one this (earlier, stronger) rule allows
          const all = ruleRules
            .filter((r) => r.then[key] !== undefined && r.then[key] !== null && holds(r.when))
            .map((r) => r.then[key] as RuleConstraint | RuleValue);
          const next = allowedValue(spec, c, rnd, all, quality, rules?.price?.factors?.[key]);
          if (next === null) continue;
          specs[key] = next;
        }
        changed = true;
      }
    }
    if (!changed) break;
  }
  for (const rel of rules?.relations ?? []) if (rel.sum_of) settleSum(specs, rel.spec, rel.sum_of, byKey);
  return specs;
}

/**
 * Makes a total the sum of its parts (a refrigerator's 25.1 cu ft = 17.5 fresh food + 7.6
 * freezer): the first part becomes the total less the others, on its step and inside its
 * range; when the range cuts it, the total follows the parts instead. Absent parts count 0.
 */
function settleSum(
  specs: Record<string, SpecValue>,
  total: string,
  parts: string[],
  byKey: Map<string, SpecDef>,
): void {
  const [first, ...rest] = parts;
  const t = specs[total];
  if (!first || typeof t !== 'number' || !(first in specs)) return;
  const others = rest.reduce((n, k) => n + (typeof specs[k] === 'number' ? (specs[k] as number) : 0), 0);
  const range = byKey.get(first)?.range;
  const step = range ? stepOf(range) : 0.1;
  const round = (x: number, s: number) => Number((Math.round(x / s) * s).toFixed(decimalsOf(s)));
  let part = round(t - others, step);
  if (range) part = Math.min(range.max, Math.max(range.min, part));
  specs[first] = part;
  const totalRange = byKey.get(total)?.range;
  specs[total] = round(part + others, totalRange ? stepOf(totalRange) : step);
}

/**
 * The inverse of `quantile`: where a value sits in its range's distribution (mid-point of its
 * weight for discrete values), so a driver's final value, not its first draw, moves its followers.
 */
export function cdf(r: SpecRange, v: number): number {
  if (r.values?.length) {
    const values = r.values;
    let total = 0;
    for (let i = 0; i < values.length; i++) total += r.weights?.[i] ?? 1;
    total ||= 1;
    let acc = 0;
    for (let i = 0; i < values.length; i++) {
      const w = r.weights?.[i] ?? 1;
      if (values[i]! >= v) return (acc + w / 2) / total;
      acc += w;
    }
    return 1;
  }
  const { min: a, max: b } = r;
  if (b <= a) return 0.5;
  const c = Math.min(b, Math.max(a, r.typical));
  const x = Math.min(b, Math.max(a, v));
  if (x <= c) return c > a ? (x - a) ** 2 / ((b - a) * (c - a)) : 0;
  return b > c ? 1 - (b - x) ** 2 / ((b - a) * (b - c)) : 1;
}

/**
 * How strongly a product's quality tilts the draw of a value towards what costs more: a value
 * whose price factor is f is f^(TILT·(quality−0.5)) times as likely (a budget robot vacuum
 * rarely washes its own mop, a flagship usually does).
 */
const TILT = 3;

function drawOther(
  spec: SpecDef,
  rnd: Random,
  quality: number,
  factors: Record<string, number> | undefined,
): SpecValue | null {
  switch (spec.type) {
    case 'boolean': {
      // the share of products that have the feature (`share`, else half), moved by quality
      // and by what the feature adds to the price
      const share = spec.share ?? 0.5;
      const base = share + (quality - 0.5) * Math.min(share, 1 - share);
      const ratio = (factors?.true ?? 1) / (factors?.false ?? 1);
      const odds = (base / Math.max(1e-9, 1 - base)) * ratio ** (TILT * (quality - 0.5));
      return rnd.chance(base <= 0 ? 0 : base >= 1 ? 1 : odds / (1 + odds));
    }
    case 'enum':
      return spec.values?.length ? weightedPick(spec.values, spec, rnd, quality, factors) : null;
    case 'list':
      return spec.values?.length
        ? rnd.sample(spec.values, rnd.int(1, Math.min(3, spec.values.length)))
        : null;
    default:
      return null;
  }
}

/** A value of a non-numeric spec that meets a rule's constraint. */
function allowedValue(
  spec: SpecDef,
  c: RuleConstraint | RuleValue,
  rnd: Random,
  others: (RuleConstraint | RuleValue)[] = [],
  quality = 0.5,
  factors?: Record<string, number>,
): SpecValue | null {
  if (typeof c !== 'object') return spec.type === 'list' ? [String(c)] : c;
  const allowed = (c.values ?? spec.values ?? []).filter(
    (v) => (!spec.values || spec.values.includes(String(v))) && !c.not?.includes(v),
  );
  if (!allowed.length) return null;
  const best = allowed.filter((v) => others.every((o) => satisfies(v, o)));
  const pool = best.length ? best : allowed;
  return spec.type === 'list' ? [String(rnd.pick(pool))] : weightedPick(pool, spec, rnd, quality, factors);
}

/**
 * One of `pool` (values of an enum spec) drawn as often as the spec's `weights` say the market
 * sells it (most dishwashers are built in, most TVs LED-LCD), tilted by quality towards the
 * values the price rules make dearer (see TILT). Without weights every value counts 1; a value
 * the weights do not list counts 0 unless all do.
 */
function weightedPick<T extends RuleValue>(
  pool: readonly T[],
  spec: SpecDef,
  rnd: Random,
  quality: number,
  factors: Record<string, number> | undefined,
): T {
  if (pool.length === 1) return pool[0]!;
  const weights = spec.weights;
  const values = spec.values ?? [];
  const w = pool.map((v) => {
    const i = values.indexOf(String(v));
    const base = weights ? (i >= 0 ? (weights[i] ?? 0) : 0) : 1;
    return base * (factors?.[String(v)] ?? 1) ** (TILT * (quality - 0.5));
  });
  const total = w.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return rnd.pick(pool);
  let u = rnd.next() * total;
  for (let i = 0; i < pool.length; i++) {
    u -= w[i]!;
    if (u < 0) return pool[i]!;
  }
  return pool[pool.length - 1]!;
}

const BRAND_TIER: Record<string, number> = { budget: 0.75, 'mid-range': 1, premium: 1.3, luxury: 1.8 };

/** Brand tier as a price factor (budget 0.75 … luxury 1.8). */
export const tierFactor = (tier: unknown): number => BRAND_TIER[String(tier)] ?? 1;

/**
 * The list price of a product: the type's typical price times the price rule's factors (each
 * spec's elasticity against its typical value, each value's factor), the brand tier and the
 * line's quality, then squeezed monotonically into the type's [low, high] price range so that
 * an order of raw prices stays the order of list prices.
 */
export function listPrice(
  type: ProductTypeDef,
  rules: SpecRulesDef | undefined,
  specs: Record<string, SpecValue>,
  brandFactor: number,
  quality: number,
  noise: number,
): number {
  const range = type.price_range ?? { low: 40, typical: 200, high: 800 };
  let raw = range.typical * brandFactor * Math.exp((quality - 0.5) * 0.9) * noise;
  for (const [key, elasticity] of Object.entries(rules?.price?.increases_with ?? {})) {
    const v = specs[key];
    const typical = type.specs.find((s) => s.key === key)?.range?.typical;
    if (typeof v === 'number' && typical && typical > 0 && v > 0) raw *= (v / typical) ** elasticity;
  }
  for (const [key, table] of Object.entries(rules?.price?.factors ?? {})) {
    const v = specs[key];
    const values = Array.isArray(v) ? v : v === undefined ? [] : [String(v)];
    for (const value of values) raw *= table[value] ?? 1;
  }
  return Math.round(squeeze(raw, range.low, range.typical, range.high) * 100) / 100;
}

/** Monotone map of (0, ∞) into (low, high) that leaves prices near `mid` almost unchanged. */
export function squeeze(x: number, low: number, mid: number, high: number): number {
  if (!(low < mid && mid < high)) return Math.min(high, Math.max(low, x));
  const [lx, ll, lm, lh] = [Math.log(x), Math.log(low), Math.log(mid), Math.log(high)];
  const y =
    lx >= lm
      ? lm + (lh - lm) * Math.tanh((lx - lm) / (lh - lm))
      : lm - (lm - ll) * Math.tanh((lm - lx) / (lm - ll));
  return Math.exp(y);
}

/** The inverse of `squeeze`: the raw price a list price came from. */
export function unsqueeze(y: number, low: number, mid: number, high: number): number {
  if (!(low < mid && mid < high)) return y;
  const [ly, ll, lm, lh] = [Math.log(y), Math.log(low), Math.log(mid), Math.log(high)];
  const t = (v: number) => Math.atanh(Math.min(1 - 1e-12, Math.max(-(1 - 1e-12), v)));
  return Math.exp(
    ly >= lm ? lm + (lh - lm) * t((ly - lm) / (lh - lm)) : lm - (lm - ll) * t((lm - ly) / (lm - ll)),
  );
}
