import type { ProductTypeDef, SpecDef } from '../../content/index.js';
import type { Listing } from '../listing.js';
import {
  compareKey,
  matchControlled,
  type NormalizedSpec,
  normalizeSpecValue,
  type SpecValue,
  valueKey,
} from '../normalize/spec-value.js';

/** Where a merged spec came from: which retailers said what, and how far they agree. */
export interface SpecSource {
  /** retailers whose value is the one shown */
  retailers: string[];
  /** every retailer's value as its feed wrote it */
  raw_values: { retailer: string; value: string }[];
  /** share of the retailers stating this key that agree with the shown value (0–1) */
  agreement: number;
  /** false for a key the product type's attribute schema does not define */
  in_schema: boolean;
  /** false when the shown value did not fit the schema (unknown unit, not a controlled value) */
  valid: boolean;
}

/** One typed attribute row (spec §2.10). */
export interface AttributeRow {
  key: string;
  value: string;
  numericValue: number | null;
  unit: string | null;
  role: 'variant' | 'identity' | 'spec';
}

export interface MergedSpecs {
  specs: Record<string, SpecValue>;
  sources: Record<string, SpecSource>;
  variantAttributes: Record<string, string>;
  attributes: AttributeRow[];
}

/** Feed spec names a schema remembers how it resolved (a feed repeats a few dozen names). */
const NAMES_KEPT = 4096;

/** A product type's spec keys found by key, label or alias, compared without case or punctuation. */
export class SpecSchema {
  readonly #byName = new Map<string, SpecDef>();
  /** feed name → its def and key, so each name is normalized once, not once per listing */
  readonly #resolved = new Map<string, { def: SpecDef | null; key: string }>();
  constructor(readonly type: ProductTypeDef | null) {
    for (const def of type?.specs ?? []) {
      for (const name of [def.key, def.label, ...(def.aliases ?? [])]) {
        const k = compareKey(name);
        if (k && !this.#byName.has(k)) this.#byName.set(k, def);
      }
    }
  }
  find(name: string): SpecDef | null {
    return this.#byName.get(compareKey(name)) ?? null;
  }
  /** The def a feed's spec name means (null when the schema lacks it) and the key it is stored under. */
  resolve(name: string): { def: SpecDef | null; key: string } {
    let hit = this.#resolved.get(name);
    if (!hit) {
      const def = this.find(name);
      hit = { def, key: def?.key ?? unknownKey(name) };
      // bounded: a hostile feed's endless names are resolved each time instead of kept
      if (this.#resolved.size < NAMES_KEPT) this.#resolved.set(name, hit);
    }
    return hit;
  }
}

const schemaCache = new WeakMap<ProductTypeDef, SpecSchema>();
const untyped = new SpecSchema(null);
export function specSchema(type: ProductTypeDef | null): SpecSchema {
  if (!type) return untyped;
  let s = schemaCache.get(type);
  if (!s) {
    s = new SpecSchema(type);
    schemaCache.set(type, s);
  }
  return s;
}

/** Key for a spec the schema does not know: snake_case of the feed's name. */
export const unknownKey = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

interface Said {
  retailer: string;
  raw: string;
  norm: NormalizedSpec;
  /** `valueKey` of the value, computed at its first comparison rather than at each */
  key?: string;
}

const keyOf = (s: Said): string => {
  s.key ??= valueKey(s.norm.value);
  return s.key;
};

/** Numbers within 2% (rounding, unit conversion) say the same thing. */
const agrees = (a: Said, b: Said): boolean =>
  a.norm.numeric !== null && b.norm.numeric !== null
    ? Math.abs(a.norm.numeric - b.norm.numeric) <=
      0.02 * Math.max(Math.abs(a.norm.numeric), Math.abs(b.norm.numeric))
    : keyOf(a) === keyOf(b);

/**
 * Merges the specs of one product's listings under its product type's schema. Each key's value
 * is the one most retailers agree on (valid values beat invalid ones); `sources` keeps every
 * retailer's raw value so a reader can see disagreement.
 */
export function mergeSpecs(listings: readonly Listing[], type: ProductTypeDef | null): MergedSpecs {
  const schema = specSchema(type);
  const said = new Map<string, { def: SpecDef | null; values: Said[] }>();
  for (const l of listings) {
    const seenHere = new Set<string>();
    for (const [name, raw] of Object.entries(l.rawSpecs)) {
      const { def, key } = schema.resolve(name);
      if (!key || seenHere.has(key)) continue;
      seenHere.add(key);
      const norm: NormalizedSpec = def
        ? normalizeSpecValue(def, raw)
        : { value: raw, numeric: null, unit: null, valid: true };
      const entry = said.get(key) ?? { def, values: [] };
      entry.values.push({ retailer: l.retailer, raw, norm });
      said.set(key, entry);
    }
  }

  const specs: Record<string, SpecValue> = {};
  const sources: Record<string, SpecSource> = {};
  const chosen = new Map<string, NormalizedSpec>();
  for (const [key, { def, values }] of said) {
    const buckets: Said[][] = [];
    for (const v of values) {
      const bucket = buckets.find((b) => agrees(b[0]!, v));
      if (bucket) bucket.push(v);
      else buckets.push([v]);
    }
    buckets.sort((a, b) => Number(b[0]!.norm.valid) - Number(a[0]!.norm.valid) || b.length - a.length);
    const best = buckets[0]!;
    specs[key] = best[0]!.norm.value;
    chosen.set(key, best[0]!.norm);
    sources[key] = {
      retailers: [...new Set(best.map((v) => v.retailer))],
      raw_values: values.map((v) => ({ retailer: v.retailer, value: v.raw })),
      agreement: Math.round((best.length / values.length) * 100) / 100,
      in_schema: def !== null,
      valid: best[0]!.norm.valid,
    };
  }

  const variantAttributes: Record<string, string> = {};
  for (const dim of ['color', 'size'] as const) {
    const votes = new Map<string, number>();
    for (const l of listings) {
      const raw = l[dim];
      if (!raw) continue;
      const controlled = type?.controlled_values?.[dim]?.values;
      const value = (controlled && matchControlled(raw, controlled)) ?? raw.toLowerCase();
      votes.set(value, (votes.get(value) ?? 0) + 1);
    }
    const top = [...votes].sort((a, b) => b[1] - a[1])[0];
    if (top) variantAttributes[dim] = top[0];
  }

  const identity = new Set(type?.identity_dimensions ?? []);
  const variant = new Set(type?.variant_dimensions ?? ['color', 'size']);
  const roleOf = (key: string): AttributeRow['role'] =>
    variant.has(key) ? 'variant' : identity.has(key) ? 'identity' : 'spec';
  const attributes: AttributeRow[] = [];
  for (const [key, value] of Object.entries(specs)) {
    const norm = chosen.get(key)!;
    const texts = Array.isArray(value) ? value : [typeof value === 'boolean' ? String(value) : value];
    for (const text of texts)
      attributes.push({ key, value: text, numericValue: norm.numeric, unit: norm.unit, role: roleOf(key) });
  }
  for (const [key, value] of Object.entries(variantAttributes))
    if (!(key in specs)) attributes.push({ key, value, numericValue: null, unit: null, role: 'variant' });
  return { specs, sources, variantAttributes, attributes };
}
