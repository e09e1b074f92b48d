import type { SpecDef } from '../../content/index.js';
import { canonicalUnit, parseQuantity, roundValue, statedValue } from './units.js';

/** A spec value in the product type's terms. */
export type SpecValue = string | boolean | string[];

export interface NormalizedSpec {
  /** the value as the API shows it: "42 dBA", true, "stainless steel", ["wifi", "bluetooth"] */
  value: SpecValue;
  /** numbers in the canonical unit (number specs only) */
  numeric: number | null;
  unit: string | null;
  /** false when the value did not fit the schema (kept as the feed wrote it) */
  valid: boolean;
}

const TRUE_WORDS = new Set(['yes', 'y', 'true', '1', 'included', 'available', 'with', 'on', 'supported']);
const FALSE_WORDS = new Set(['no', 'n', 'false', '0', 'none', 'not included', 'without', 'off', 'n/a']);

/** Lower case, letters and digits only: how keys, labels and enum values are compared. */
export const compareKey = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Maps feed text to one of a controlled vocabulary: exact, then containment either way. */
export function matchControlled(text: string, values: readonly string[]): string | null {
  const key = compareKey(text);
  if (!key) return null;
  let best: string | null = null;
  for (const v of values) {
    const vk = compareKey(v);
    if (vk === key) return v;
    // "Stainless" → "stainless steel", "Fingerprint Resistant Stainless Steel" → "stainless steel";
    // the longest controlled value contained wins ("black stainless steel" over "stainless steel")
    if (vk && (key.includes(vk) || (key.length >= 4 && vk.startsWith(key))))
      if (!best || vk.length > compareKey(best).length) best = v;
  }
  return best;
}

/**
 * Normalizes one raw feed value to a spec of the product type's schema: numbers are read with
 * their unit and converted to the spec's unit, booleans from Yes/No words, enum and list values
 * to the controlled values. A value that does not fit is kept as written, marked invalid.
 */
export function normalizeSpecValue(def: SpecDef, raw: string): NormalizedSpec {
  const text = raw.trim();
  const kept: NormalizedSpec = { value: text, numeric: null, unit: null, valid: false };
  switch (def.type) {
    case 'number': {
      const q = parseQuantity(text);
      if (!q) return kept;
      const target = def.unit ? (canonicalUnit(def.unit) ?? def.unit) : null;
      let value = roundValue(q.value);
      if (target && q.unit && q.unit !== target) {
        // converted: as products state it in the spec's unit, not the conversion's decimals
        const converted = statedValue({ ...q, unit: q.unit }, target, def.range);
        if (converted === null) return kept;
        value = converted;
      }
      const shown = String(value);
      return {
        value: target ? `${shown} ${def.unit}` : shown,
        numeric: value,
        unit: def.unit ?? null,
        valid: true,
      };
    }
    case 'boolean': {
      const word = text.toLowerCase();
      if (TRUE_WORDS.has(word)) return { value: true, numeric: null, unit: null, valid: true };
      if (FALSE_WORDS.has(word)) return { value: false, numeric: null, unit: null, valid: true };
      return kept;
    }
    case 'enum': {
      const hit = def.values?.length ? matchControlled(text, def.values) : null;
      return hit ? { value: hit, numeric: null, unit: null, valid: true } : kept;
    }
    case 'list': {
      const parts = text
        .split(/\s*[,;|/]\s*|\s+and\s+/i)
        .map((p) => p.trim())
        .filter(Boolean);
      if (!def.values?.length) return { value: parts, numeric: null, unit: null, valid: parts.length > 0 };
      const mapped = parts.map((p) => matchControlled(p, def.values ?? []));
      const known = [...new Set(mapped.filter((m): m is string => m !== null))];
      return { value: known.length ? known : parts, numeric: null, unit: null, valid: known.length > 0 };
    }
    default:
      return { value: text, numeric: null, unit: null, valid: text.length > 0 };
  }
}

/** Stable text form of a spec value, for comparing what two retailers said. */
export const valueKey = (v: SpecValue): string =>
  Array.isArray(v) ? [...v].sort().join('|') : typeof v === 'boolean' ? String(v) : v.toLowerCase();
