import type { RetailerDef } from '../content/index.js';
import type { DemoProduct } from './plan.js';
import type { Random } from './random.js';

/** How one demo retailer writes its feed. */
export interface RetailerStyle {
  retailer: RetailerDef;
  titleStyle: string;
  /** writes lengths, weights and volumes in metric units */
  metric: boolean;
  format: 'tsv' | 'csv';
  /** price level against the market */
  factor: number;
  categories: string[];
}

const METRIC: Record<string, [string, number]> = {
  in: ['cm', 2.54],
  lb: ['kg', 0.453592],
  'cu ft': ['L', 28.3168],
  gal: ['L', 3.78541],
  oz: ['g', 28.3495],
};
const IMPERIAL_FORMS: Record<string, string[]> = {
  in: ['in', 'in.', '"', 'inches'],
  lb: ['lb', 'lbs', 'lbs.', 'pounds'],
  'cu ft': ['cu ft', 'cu. ft.', 'cubic feet'],
};

const title = (s: string) => s.replace(/\b[a-z]/g, (c) => c.toUpperCase());

/** A spec value as this retailer writes it: units converted or spelled differently, booleans as Yes/No. */
export function renderSpec(
  value: DemoProduct['specs'][string],
  unit: string | null | undefined,
  style: RetailerStyle,
  rnd: Random,
): string {
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'boolean') return rnd.chance(0.8) ? (value ? 'Yes' : 'No') : value ? 'true' : 'false';
  if (typeof value === 'number' && unit) {
    const metric = METRIC[unit];
    if (style.metric && metric) return `${Number((value * metric[1]).toFixed(1))} ${metric[0]}`;
    const forms = IMPERIAL_FORMS[unit];
    const form = forms && rnd.chance(0.4) ? rnd.pick(forms) : unit;
    return form === '"' ? `${value}"` : `${value} ${form}`;
  }
  return String(value);
}

/** Units written without a space in titles ("20V", "512GB", "1500W"). */
const TIGHT_UNITS = new Set(['V', 'W', 'GB', 'TB', 'MP', 'mAh', 'Ah', 'Wh', 'mm', 'K', '%']);

/** A quantity as a retailer title writes it: 65", 24 in., 25.5 cu. ft., 20V, 512GB, 1TB. */
export function titleQuantity(value: number, unit: string, form: 'inch-mark' | 'abbrev'): string {
  if (unit === 'GB' && value >= 1000 && value % 1000 === 0) return `${value / 1000}TB`;
  if (unit === 'in') return form === 'inch-mark' ? `${value}"` : `${value} in.`;
  if (unit === 'cu ft') return `${value} cu. ft.`;
  if (unit === 'cups') return `${value}-Cup`;
  if (TIGHT_UNITS.has(unit)) return `${value}${unit}`;
  return `${value} ${unit}`;
}

/** Variant values as titles show them: pack sizes as "6-Pack", capacities with their unit. */
export function variantWords(p: DemoProduct, form: 'inch-mark' | 'abbrev' = 'abbrev'): string[] {
  return Object.entries(p.variant).map(([dim, value]) => {
    const n = Number(value);
    if (/^\d+(\.\d+)?$/.test(value)) {
      if (/pack|node/.test(dim)) return n === 1 ? '1-Pack' : `${value}-Pack`;
      if (/count/.test(dim)) return `${value} Count`;
      if (/case_size/.test(dim)) return `${value}mm`;
      const unit = p.type.specs.find((s) => s.key === dim)?.unit;
      if (unit) return unit === 'gal' && n < 1 ? 'Quart' : titleQuantity(n, unit, form);
      return value;
    }
    return title(value);
  });
}

const SIZE_UNITS = [
  'in',
  'ft',
  'cu ft',
  'gal',
  'qt',
  'cups',
  'oz',
  'GB',
  'TB',
  'V',
  'BTU',
  'BTU/h',
  'W',
  'Ah',
  'mAh',
  'Wh',
];
const unitRank = (unit: string | null | undefined) => {
  const i = SIZE_UNITS.indexOf(unit ?? '');
  return i >= 0 ? i : SIZE_UNITS.length;
};

const headlineCache = new WeakMap<DemoProduct['type'], DemoProduct['type']['specs']>();

/** A type's headline specs, sizes first: sizes lead a title ("24 in.", "25.5 cu. ft.", "20V"), ratings such as dBA come after. */
function headlineSpecs(type: DemoProduct['type']): DemoProduct['type']['specs'] {
  let specs = headlineCache.get(type);
  if (!specs) {
    specs = type.specs.filter((s) => s.headline).sort((a, b) => unitRank(a.unit) - unitRank(b.unit));
    headlineCache.set(type, specs);
  }
  return specs;
}

/**
 * A headline enum value as a title shows it. A value that is also a color or finish of the
 * type ("stainless steel" tub) takes its spec's noun, or "Stainless Steel Dishwasher - White"
 * would read as two colors: "Stainless Steel Tub Dishwasher - White".
 */
function featureWords(
  type: DemoProduct['type'],
  spec: DemoProduct['type']['specs'][number],
  value: string,
): string {
  const text = /^[a-z][A-Z]/.test(value) ? value : title(value);
  const variantValues = Object.values(type.controlled_values ?? {}).flatMap((c) => c.values);
  if (!variantValues.some((v) => v.toLowerCase() === value.toLowerCase())) return text;
  const noun = spec.label.split(/\s+/)[0] ?? '';
  return noun && !text.toLowerCase().includes(noun.toLowerCase()) ? `${text} ${title(noun)}` : text;
}

/** The type's headline numbers with units ("65"", "24 in.") and headline enum words ("OLED"). */
function headlines(
  p: DemoProduct,
  form: 'inch-mark' | 'abbrev',
): { numbers: string[]; words: string[]; details: string[] } {
  const numbers: string[] = [];
  const details: string[] = [];
  const words: string[] = [];
  const sized: [boolean, string][] = [];
  for (const s of headlineSpecs(p.type)) {
    const v = p.specs[s.key];
    if (s.type === 'number' && typeof v === 'number' && s.unit)
      sized.push([unitRank(s.unit) < SIZE_UNITS.length, titleQuantity(v, s.unit, form)]);
    else if (s.type === 'enum' && typeof v === 'string' && v !== 'none' && !/^(other|none|n\/a)$/i.test(v))
      words.push(featureWords(p.type, s, v));
  }
  // a size leads the title ("65"", "24 in.", "20V"); run times, areas and ratings only go in details
  for (const [isSize, text] of sized) (isSize ? numbers : details).push(text);
  return { numbers, words, details };
}

/**
 * A listing title in the retailer's style (data/retailers.json `title_style`):
 * - brand-first: brand, line, size, key feature, type, model, variant ("Samsung Neo QLED 65" QLED TV QN65QN90D - Titan Black")
 * - model-last: line, size, type "in" color, then brand and model ("500 Series 24 in. Dishwasher in Stainless Steel - Bosch SHPM65Z55N")
 * - spec-heavy: brand, line, type, then the headline specs and variant, model in parentheses
 * - caps: a warehouse club's short upper-case line
 * - terse: brand, model, type
 */
export function renderTitle(p: DemoProduct, style: RetailerStyle, rnd: Random): string {
  const form = style.titleStyle === 'brand-first' || style.titleStyle === 'caps' ? 'inch-mark' : 'abbrev';
  const { numbers, words, details: extra } = headlines(p, form);
  const variant = variantWords(p, form);
  const size = numbers[0] ?? '';
  const feature = words[0] ?? '';
  const line = [p.series, p.platform].filter(Boolean).join(' ');
  const name = p.type.name;
  const brand = p.brand.name;
  let text: string;
  switch (style.titleStyle) {
    case 'model-last':
      text = `${line} ${size} ${feature} ${name}${variant.length ? ` in ${variant.join(', ')}` : ''} - ${brand} ${p.model}`;
      break;
    case 'spec-heavy': {
      const details = [...[...numbers, ...extra].slice(0, 3), ...words.slice(0, 2), ...variant];
      text = `${brand} ${line} ${name}${details.length ? `, ${details.join(', ')}` : ''} (${p.model})`;
      break;
    }
    case 'caps':
      text = `${brand} ${line} ${size} ${name} ${p.model} ${variant.join(' ')}`.toUpperCase();
      break;
    case 'terse':
      text = `${brand} ${p.model}${rnd.chance(0.7) ? ` ${name}` : ''}`;
      break;
    default:
      text = `${brand} ${line} ${size} ${feature} ${name} ${p.model}${variant.length ? ` - ${variant.join(', ')}` : ''}`;
  }
  return tidy(text);
}

/** Collapses spaces and drops a repeated word a line name and the type name share ("OLED OLED TV"). */
function tidy(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s,/g, ',')
    .replace(/\b(\S+) \1\b/gi, '$1')
    .trim();
}

/** The feed's brand text: usually the brand's name, sometimes an alias, upper case, or missing. */
export function renderBrand(p: DemoProduct, rnd: Random): string {
  if (rnd.chance(0.04)) return '';
  if (rnd.chance(0.1) && p.brand.aliases?.length) return rnd.pick(p.brand.aliases);
  return rnd.chance(0.1) ? p.brand.name.toUpperCase() : p.brand.name;
}

/** The feed's GTIN: usually right (as UPC-A, EAN-13 or GTIN-14), sometimes missing or with a wrong check digit. */
export function renderGtin(gtin: string, rnd: Random): string {
  if (rnd.chance(0.08)) return '';
  if (rnd.chance(0.02)) return gtin.slice(0, -1) + ((Number(gtin.at(-1)) + 1) % 10);
  if (rnd.chance(0.25)) return `0${gtin}`;
  if (rnd.chance(0.03)) return `00${gtin}`;
  return gtin;
}

/** The feed's MPN: the model number, sometimes with separators, sometimes missing. */
export function renderMpn(model: string, rnd: Random): string {
  if (rnd.chance(0.1)) return '';
  if (rnd.chance(0.05) && model.length > 5) return `${model.slice(0, 3)}-${model.slice(3)}`;
  return model;
}
