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

/** The headline numeric spec, as titles show it ("65 in", "24 in"). */
function headline(p: DemoProduct): string {
  const spec = p.type.specs.find(
    (s) => s.headline && s.type === 'number' && typeof p.specs[s.key] === 'number' && s.unit,
  );
  return spec ? `${p.specs[spec.key]}${spec.unit === 'in' ? '"' : ` ${spec.unit}`}` : '';
}

/** A listing title in the retailer's style, with the variant words where the retailer shows them. */
export function renderTitle(p: DemoProduct, style: RetailerStyle, rnd: Random): string {
  const variant = Object.values(p.variant).map(title).join(' ');
  const h = headline(p);
  const name = p.type.name;
  let text: string;
  switch (style.titleStyle) {
    case 'model-last':
      text = `${h} ${name}${variant ? ` in ${variant}` : ''} - ${p.brand.name} ${p.model}`;
      break;
    case 'spec-heavy':
      text = `${p.brand.name} ${p.series} ${h} ${name}${variant ? `, ${variant}` : ''} (${p.model})`;
      break;
    case 'caps':
      text = `${p.brand.name} ${p.model} ${name} ${h} ${variant}`.toUpperCase();
      break;
    case 'terse':
      text = `${p.brand.name} ${p.model}${rnd.chance(0.5) ? ` ${name}` : ''}`;
      break;
    default:
      text = `${p.brand.name} ${rnd.chance(0.6) ? `${p.series} ` : ''}${h} ${name} ${p.model}${variant && rnd.chance(0.7) ? ` - ${variant}` : ''}`;
  }
  return text.replace(/\s+/g, ' ').replace(/\s,/g, ',').trim();
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
