/**
 * Units as retailer feeds write them ("24 in.", "60.9 cm", '23 7/8"', "5.0 cu. ft.", "42 dB(A)")
 * → a number in a product type's canonical unit. Each unit belongs to one dimension with a
 * factor to that dimension's base unit; temperatures are affine and handled apart.
 */

type Dimension =
  | 'length'
  | 'mass'
  | 'volume'
  | 'power'
  | 'sound'
  | 'heat'
  | 'temperature'
  | 'storage'
  | 'energy'
  | 'charge'
  | 'time'
  | 'frequency'
  | 'area'
  | 'flow'
  | 'pressure'
  | 'speed'
  | 'distance';

/** Canonical unit → dimension and factor to the dimension's base unit. */
const UNITS: Record<string, { dim: Dimension; factor: number }> = {
  in: { dim: 'length', factor: 1 },
  ft: { dim: 'length', factor: 12 },
  cm: { dim: 'length', factor: 1 / 2.54 },
  mm: { dim: 'length', factor: 1 / 25.4 },
  m: { dim: 'length', factor: 100 / 2.54 },
  lb: { dim: 'mass', factor: 1 },
  kg: { dim: 'mass', factor: 2.2046226218 },
  g: { dim: 'mass', factor: 0.0022046226218 },
  oz: { dim: 'mass', factor: 1 / 16 },
  L: { dim: 'volume', factor: 1 },
  mL: { dim: 'volume', factor: 0.001 },
  'cu ft': { dim: 'volume', factor: 28.316846592 },
  gal: { dim: 'volume', factor: 3.785411784 },
  qt: { dim: 'volume', factor: 0.946352946 },
  cups: { dim: 'volume', factor: 0.2365882365 },
  'fl oz': { dim: 'volume', factor: 0.0295735296 },
  W: { dim: 'power', factor: 1 },
  kW: { dim: 'power', factor: 1000 },
  hp: { dim: 'power', factor: 745.699872 },
  dBA: { dim: 'sound', factor: 1 },
  dB: { dim: 'sound', factor: 1 },
  BTU: { dim: 'heat', factor: 1 },
  'BTU/h': { dim: 'heat', factor: 1 },
  '°F': { dim: 'temperature', factor: 1 },
  '°C': { dim: 'temperature', factor: 1 },
  GB: { dim: 'storage', factor: 1 },
  TB: { dim: 'storage', factor: 1000 },
  MB: { dim: 'storage', factor: 0.001 },
  Wh: { dim: 'energy', factor: 1 },
  kWh: { dim: 'energy', factor: 1000 },
  mAh: { dim: 'charge', factor: 1 },
  Ah: { dim: 'charge', factor: 1000 },
  hr: { dim: 'time', factor: 60 },
  min: { dim: 'time', factor: 1 },
  Hz: { dim: 'frequency', factor: 1 },
  kHz: { dim: 'frequency', factor: 1000 },
  'sq ft': { dim: 'area', factor: 1 },
  'sq m': { dim: 'area', factor: 10.7639104 },
  GPM: { dim: 'flow', factor: 1 },
  'L/min': { dim: 'flow', factor: 0.264172052 },
  PSI: { dim: 'pressure', factor: 1 },
  bar: { dim: 'pressure', factor: 14.5037738 },
  mph: { dim: 'speed', factor: 1 },
  'km/h': { dim: 'speed', factor: 0.621371192 },
  mi: { dim: 'distance', factor: 1 },
  km: { dim: 'distance', factor: 0.621371192 },
};

/** Spellings seen in feeds → canonical unit; keys are lower case with dots and spaces removed. */
const SPELLINGS: Record<string, string> = {
  '"': 'in',
  '″': 'in',
  "''": 'in',
  in: 'in',
  inch: 'in',
  inches: 'in',
  "'": 'ft',
  '′': 'ft',
  ft: 'ft',
  feet: 'ft',
  foot: 'ft',
  cm: 'cm',
  centimeter: 'cm',
  centimeters: 'cm',
  centimetre: 'cm',
  centimetres: 'cm',
  mm: 'mm',
  millimeter: 'mm',
  millimeters: 'mm',
  m: 'm',
  meter: 'm',
  meters: 'm',
  lb: 'lb',
  lbs: 'lb',
  pound: 'lb',
  pounds: 'lb',
  kg: 'kg',
  kgs: 'kg',
  kilogram: 'kg',
  kilograms: 'kg',
  g: 'g',
  gram: 'g',
  grams: 'g',
  oz: 'oz',
  ounce: 'oz',
  ounces: 'oz',
  l: 'L',
  liter: 'L',
  liters: 'L',
  litre: 'L',
  litres: 'L',
  ml: 'mL',
  cuft: 'cu ft',
  cubicfeet: 'cu ft',
  cubicfoot: 'cu ft',
  ft3: 'cu ft',
  'ft³': 'cu ft',
  gal: 'gal',
  gallon: 'gal',
  gallons: 'gal',
  qt: 'qt',
  quart: 'qt',
  quarts: 'qt',
  cup: 'cups',
  cups: 'cups',
  floz: 'fl oz',
  w: 'W',
  watt: 'W',
  watts: 'W',
  kw: 'kW',
  kilowatt: 'kW',
  kilowatts: 'kW',
  hp: 'hp',
  horsepower: 'hp',
  db: 'dB',
  decibel: 'dB',
  decibels: 'dB',
  dba: 'dBA',
  'db(a)': 'dBA',
  btu: 'BTU',
  btus: 'BTU',
  'btu/h': 'BTU/h',
  'btu/hr': 'BTU/h',
  btuh: 'BTU/h',
  '°f': '°F',
  f: '°F',
  degf: '°F',
  degreesf: '°F',
  fahrenheit: '°F',
  '°c': '°C',
  c: '°C',
  degc: '°C',
  degreesc: '°C',
  celsius: '°C',
  gb: 'GB',
  tb: 'TB',
  mb: 'MB',
  wh: 'Wh',
  kwh: 'kWh',
  mah: 'mAh',
  ah: 'Ah',
  h: 'hr',
  hr: 'hr',
  hrs: 'hr',
  hour: 'hr',
  hours: 'hr',
  min: 'min',
  mins: 'min',
  minute: 'min',
  minutes: 'min',
  hz: 'Hz',
  khz: 'kHz',
  sqft: 'sq ft',
  squarefeet: 'sq ft',
  'ft²': 'sq ft',
  sqm: 'sq m',
  'm²': 'sq m',
  gpm: 'GPM',
  'l/min': 'L/min',
  psi: 'PSI',
  bar: 'bar',
  mph: 'mph',
  'km/h': 'km/h',
  kph: 'km/h',
  mi: 'mi',
  mile: 'mi',
  miles: 'mi',
  km: 'km',
};

/** The canonical spelling of a unit as written in a feed, or null when unknown. */
export function canonicalUnit(text: string): string | null {
  const trimmed = text.trim();
  if (UNITS[trimmed]) return trimmed;
  const key = trimmed
    .toLowerCase()
    .replace(/\./g, '')
    .replace(/\s+/g, '')
    .replace(/^degrees?/, 'deg');
  return SPELLINGS[key] ?? SPELLINGS[key.replace(/^deg/, '°')] ?? null;
}

/** Converts a value between two canonical units of one dimension; null when they do not convert. */
export function convert(value: number, from: string, to: string): number | null {
  if (from === to) return value;
  const a = UNITS[from];
  const b = UNITS[to];
  if (!a || !b || a.dim !== b.dim) return null;
  if (a.dim === 'temperature') return from === '°C' ? (value * 9) / 5 + 32 : ((value - 32) * 5) / 9;
  return (value * a.factor) / b.factor;
}

/** Rounds to a precision that keeps converted values readable (3 significant decimals at most). */
export function roundValue(value: number): number {
  const abs = Math.abs(value);
  const digits = abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 1 ? 2 : 3;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** How a spec's values are stated in its unit (a spec range's `step` and `values`, data/README.md). */
export interface StatedPrecision {
  /** the precision values are quoted in: every value is a multiple of it */
  step?: number;
  /** the discrete values the market sells */
  values?: readonly number[];
}

const decimalsOf = (step: number): number => {
  const [, fraction = '', exponent] = /^\d*(?:\.(\d+))?(?:e-(\d+))?$/.exec(String(step)) ?? [];
  return fraction.length + Number(exponent ?? 0);
};

/**
 * A quantity converted from another unit, as a product states it in this one: a value the
 * market sells (`values`) that the source's precision admits, else the nearest multiple of
 * the unit's `step`, else {@link roundValue}. "109.2 cm" is 42.99 in, but 109.15–109.25 cm
 * admits 43 in: the 43-inch TV a metric retailer measured. Null precision: {@link roundValue}.
 */
export function statedValue(
  q: Quantity & { unit: string },
  to: string,
  precision: StatedPrecision | undefined,
): number | null {
  const value = convert(q.value, q.unit, to);
  if (value === null) return null;
  const ends = [q.value - q.resolution / 2, q.value + q.resolution / 2].map((v) => convert(v, q.unit, to)!);
  const [low, high] = [Math.min(...ends), Math.max(...ends)];
  let best: number | null = null;
  // a hair of slack: the source's own rounding can land exactly on the edge
  for (const v of precision?.values ?? [])
    if (
      v >= low - 1e-9 &&
      v <= high + 1e-9 &&
      (best === null || Math.abs(v - value) < Math.abs(best - value))
    )
      best = v;
  if (best !== null) return best;
  const step = precision?.step;
  if (step) return Number((Math.round(value / step) * step).toFixed(decimalsOf(step)));
  return roundValue(value);
}

const NUMBER = /(\d+)\s*\/\s*(\d+)|(\d+(?:[.,]\d+)?)(?:\s*[- ]\s*(\d+)\s*\/\s*(\d+))?/;

export interface Quantity {
  value: number;
  /** canonical unit as written, or null when the text has none */
  unit: string | null;
  /**
   * the precision the number is written to: 0.1 for "60.9", 1 for "61" and "1,500", 1/8 for
   * '23 7/8"'. The value stated is anything within half of it.
   */
  resolution: number;
}

/**
 * Reads the first quantity of a feed value: "5.0 cu. ft.", '23 7/8"', "1,500 W", "3/4 hp",
 * "60 cm (23.6 in)". A thousands comma ("1,500") and a decimal comma ("4,5 kg") are told
 * apart by the digits after them.
 */
export function parseQuantity(text: string): Quantity | null {
  const m = NUMBER.exec(text);
  if (!m) return null;
  let value: number;
  let resolution: number;
  if (m[1] !== undefined) {
    value = Number(m[1]) / Number(m[2]);
    resolution = 1 / Number(m[2]);
  } else {
    const raw = m[3]!;
    const thousands = /,\d{3}$/.test(raw);
    value = Number(thousands ? raw.replace(',', '') : raw.replace(',', '.'));
    resolution = thousands ? 1 : 10 ** -(/[.,](\d+)$/.exec(raw)?.[1]?.length ?? 0);
    if (m[4] !== undefined && Number(m[5]) > 0) {
      // "23 7/8" or "23-7/8" is a mixed fraction, but only when the fraction is proper
      const fraction = Number(m[4]) / Number(m[5]);
      if (fraction < 1 && Number.isInteger(value)) {
        value += fraction;
        resolution = 1 / Number(m[5]);
      }
    }
  }
  if (!Number.isFinite(value) || !Number.isFinite(resolution)) return null;
  const rest = text.slice(m.index + m[0].length).trim();
  const unitText =
    /^(cu\.?\s*ft\.?|cubic\s+f(?:ee|oo)t|sq\.?\s*(?:ft|m)\b\.?|square\s+feet|fl\.?\s*oz\.?|db\s*\(a\)|btu\s*\/\s*hr?|l\s*\/\s*min|km\s*\/\s*h|°\s*[fc]|deg(?:rees?)?\s*[fc]\b|["″'′]{1,2}|[a-z³²]+\.?)/i.exec(
      rest,
    );
  return { value, unit: unitText ? canonicalUnit(unitText[1]!.replace(/\s+/g, '')) : null, resolution };
}

/** True when both units are known and measure the same thing. */
export const sameDimension = (a: string, b: string): boolean =>
  UNITS[a] !== undefined && UNITS[a]?.dim === UNITS[b]?.dim;

export const KNOWN_UNITS: readonly string[] = Object.keys(UNITS);
