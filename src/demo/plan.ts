import type { BrandDef, Content, ProductTypeDef, SpecDef } from '../content/index.js';
import { gs1CheckDigit } from '../identifiers/index.js';
import type { Random } from './random.js';

/** One real-world product of the demo catalog: what every retailer listing of it describes. */
export interface DemoProduct {
  /** ground-truth identity: brand slug + model number */
  key: string;
  /** ground-truth variant group: brand slug + base model */
  groupKey: string;
  type: ProductTypeDef;
  brand: BrandDef;
  model: string;
  baseModel: string;
  series: string;
  generation: number;
  variant: Record<string, string>;
  gtin: string;
  /** list price on the first day of the history */
  listPrice: number;
  /** yearly drift of the price: electronics fall, appliances hold */
  drift: number;
  specs: Record<string, string | number | boolean | string[]>;
  /** discontinued products keep listings but have no current offer */
  discontinued: boolean;
}

/** Plausible ranges by unit for numeric specs: [low, high, step]. */
const UNIT_RANGES: Record<string, [number, number, number]> = {
  in: [10, 80, 0.5],
  ft: [1, 50, 1],
  lb: [5, 300, 1],
  dBA: [38, 56, 1],
  W: [40, 2000, 10],
  kW: [1, 20, 1],
  'cu ft': [1.5, 30, 0.1],
  Hz: [60, 240, 60],
  nits: [300, 3000, 50],
  GB: [4, 2048, 4],
  TB: [1, 20, 1],
  MP: [12, 61, 1],
  mAh: [2000, 30000, 500],
  Wh: [200, 4000, 50],
  BTU: [5000, 60000, 1000],
  'BTU/h': [5000, 60000, 1000],
  gal: [1, 80, 1],
  GPM: [1.5, 11, 0.1],
  PSI: [1000, 4000, 100],
  CFM: [100, 1200, 10],
  RPM: [600, 1600, 100],
  V: [12, 240, 1],
  A: [2, 60, 1],
  Ah: [2, 12, 1],
  hr: [1, 40, 1],
  min: [5, 120, 5],
  K: [2700, 6500, 100],
  lm: [400, 3000, 50],
  years: [1, 10, 1],
  '%': [10, 99, 1],
  qt: [1, 10, 0.5],
  oz: [4, 64, 1],
  cups: [2, 14, 1],
  'sq ft': [100, 3000, 50],
  mph: [10, 28, 1],
  mi: [20, 80, 5],
  cc: [100, 500, 10],
  mm: [14, 600, 1],
};

/** Unitless counts by the words in their key: [low, high]; other counts fall back to 1–12. */
const COUNT_RANGES: [RegExp, [number, number]][] = [
  [/place_settings/, [8, 16]],
  [/burners|elements|zones/, [4, 6]],
  [/hdmi|usb|ports/, [1, 6]],
  [/cycles|programs|modes/, [4, 14]],
  [/speeds|settings|levels/, [2, 12]],
  [/shelves|racks|drawers|doors/, [1, 5]],
  [/year/, [2018, 2026]],
  [/seer|eer|hspf/, [14, 24]],
  [/afue/, [80, 98]],
  [/rating|stars/, [1, 5]],
];

/** Spec keys whose value should follow the price: better products cost more. */
const LOWER_IS_BETTER = /noise|weight|energy_use|annual_energy|power_consumption|response_time|decibel/;

function specValue(spec: SpecDef, rnd: Random, quality: number): string | number | boolean | string[] | null {
  switch (spec.type) {
    case 'boolean':
      return rnd.chance(0.25 + 0.5 * quality);
    case 'enum':
      return spec.values?.length ? rnd.pick(spec.values) : null;
    case 'list':
      return spec.values?.length
        ? rnd.sample(spec.values, rnd.int(1, Math.min(3, spec.values.length)))
        : null;
    case 'number': {
      const count = COUNT_RANGES.find(([re]) => re.test(spec.key))?.[1];
      const [lo, hi, step] = UNIT_RANGES[spec.unit ?? ''] ?? (count ? [count[0], count[1], 1] : [1, 12, 1]);
      const position = LOWER_IS_BETTER.test(spec.key) ? 1 - quality : quality;
      const jitter = (rnd.next() - 0.5) * 0.5;
      const t = Math.min(1, Math.max(0, position + jitter));
      const value = Math.round((lo + t * (hi - lo)) / step) * step;
      return Number(value.toFixed(step < 1 ? 1 : 0));
    }
    default:
      return null;
  }
}

/** A model number shaped like the brand's real scheme when the taxonomy gives an example. */
function modelNumber(type: ProductTypeDef, brand: BrandDef, rnd: Random): string {
  const pattern = type.model_patterns?.find((p) => p.brand === brand.slug && p.example);
  if (pattern?.example) {
    return [...pattern.example]
      .map((c) =>
        /\d/.test(c)
          ? String(rnd.int(0, 9))
          : /[A-Z]/.test(c) && rnd.chance(0.25)
            ? String.fromCharCode(65 + rnd.int(0, 25))
            : c,
      )
      .join('');
  }
  const prefix = (
    brand.name.replace(/[^A-Za-z]/g, '').slice(0, 2) + type.slug.replace(/[^a-z]/g, '').slice(0, 2)
  ).toUpperCase();
  return `${prefix}${rnd.int(10, 99)}${String.fromCharCode(65 + rnd.int(0, 25))}${rnd.int(100, 999)}`;
}

/** Short code of a variant value in model numbers: "Stainless Steel" → SS, "Queen" → QN. */
export function variantCode(value: string): string {
  const words = value.match(/[A-Za-z0-9]+/g) ?? ['X'];
  if (words.length > 1)
    return words
      .map((w) => w[0])
      .join('')
      .toUpperCase()
      .slice(0, 3);
  const w = words[0] ?? 'X';
  return /^\d/.test(w)
    ? w.toUpperCase()
    : (w.slice(0, 1) + w.slice(1).replace(/[aeiou]/gi, '')).slice(0, 2).toUpperCase();
}

export const makeGtin = (rnd: Random): string => {
  const body = `0${rnd.int(10000, 99999)}${rnd.int(10000, 99999)}`;
  return body + gs1CheckDigit(body);
};

const ELECTRONICS =
  /tv|laptop|phone|tablet|monitor|camera|drive|ssd|card|console|headphone|earbud|speaker|router|watch/;

/**
 * Plans the demo's products: for every product type, base models from brands that really sell
 * the type, with color/size/configuration variants and, for some, a newer generation in the
 * same series. `target` is the approximate number of products (variants included).
 */
export function planProducts(content: Content, rnd: Random, target: number): DemoProduct[] {
  const products: DemoProduct[] = [];
  const usedModels = new Set<string>();
  // one base model per type per round, until the target is reached
  for (let round = 0; products.length < target && round < 10_000; round++) {
    const before = products.length;
    for (const type of content.productTypes) {
      if (products.length >= target) break;
      addBaseModel(type, content, rnd, products, usedModels);
    }
    if (products.length === before) break;
  }
  return products;
}

function addBaseModel(
  type: ProductTypeDef,
  content: Content,
  rnd: Random,
  products: DemoProduct[],
  usedModels: Set<string>,
): void {
  let brands = content.brands.filter((b) => b.product_types?.includes(type.slug));
  if (brands.length === 0) brands = relatedBrands(type, content);
  if (brands.length === 0) brands = rnd.sample(content.brands, Math.min(3, content.brands.length));
  if (brands.length === 0) return;
  const range = type.price_range ?? { low: 40, typical: 200, high: 800 };
  const variantDims = type.variant_dimensions.filter(
    (d) => (type.controlled_values?.[d]?.values.length ?? 0) > 0,
  );
  {
    const brand = rnd.pick(brands);
    let base = modelNumber(type, brand, rnd);
    for (let n = 0; usedModels.has(`${brand.slug}:${base}`) && n < 5; n++)
      base = modelNumber(type, brand, rnd);
    if (usedModels.has(`${brand.slug}:${base}`)) return;
    usedModels.add(`${brand.slug}:${base}`);
    const quality = rnd.next();
    const listPrice =
      Math.round((range.low + (range.high - range.low) * (0.15 * rnd.next() + 0.85 * quality ** 1.3)) * 100) /
      100;
    const series = `${rnd.pick(['100', '300', '500', '700', '800', '900'])} Series`;
    const specs: DemoProduct['specs'] = {};
    for (const spec of type.specs) {
      if (type.variant_dimensions.includes(spec.key)) continue;
      const value = specValue(spec, rnd, quality);
      if (value !== null) specs[spec.key] = value;
    }
    const drift = ELECTRONICS.test(type.slug) ? -0.05 - rnd.next() * 0.2 : -0.05 + rnd.next() * 0.1;
    const generations = rnd.chance(0.2) ? 2 : 1;
    for (let generation = 1; generation <= generations; generation++) {
      // a newer generation bumps the last digit of the model number
      const genBase =
        generation === 1
          ? base
          : base.replace(/(\d)(\D*)$/, (_, d: string, rest: string) => `${(Number(d) + 1) % 10}${rest}`);
      const combos = variantCombos(type, variantDims, rnd);
      for (const variant of combos) {
        const suffix = Object.values(variant).map(variantCode).join('');
        const model = `${genBase}${suffix}`;
        products.push({
          key: `${brand.slug}:${model}`,
          groupKey: `${brand.slug}:${genBase}`,
          type,
          brand,
          model,
          baseModel: genBase,
          series,
          generation,
          variant,
          gtin: makeGtin(rnd),
          listPrice: Math.max(
            4.99,
            Math.round(
              listPrice *
                (generation === 2 ? 1.12 : 1) *
                (1 + 0.04 * Object.keys(variant).length * rnd.next()) *
                100,
            ) / 100,
          ),
          drift,
          specs,
          discontinued: generations === 2 && generation === 1 && rnd.chance(0.5),
        });
      }
    }
  }
}

function variantCombos(type: ProductTypeDef, dims: string[], rnd: Random): Record<string, string>[] {
  let combos: Record<string, string>[] = [{}];
  for (const dim of dims.slice(0, 2)) {
    const values = type.controlled_values?.[dim]?.values ?? [];
    const chosen = rnd.sample(values, rnd.int(1, Math.min(3, values.length)));
    combos = combos.flatMap((c) => chosen.map((v) => ({ ...c, [dim]: v })));
  }
  return combos.slice(0, 4);
}

/**
 * Brands for a type no brand lists: those selling other types of the same subcategory, else
 * of the same top category (a TV-mount maker is likelier an electronics brand than a bike one).
 */
function relatedBrands(type: ProductTypeDef, content: Content): BrandDef[] {
  const parentOf = new Map(content.categories.map((c) => [c.slug, c.parent]));
  const subcategoryOf = new Map(content.productTypes.map((t) => [t.slug, t.subcategory]));
  const sells = (b: BrandDef, where: (typeSlug: string) => boolean) => (b.product_types ?? []).some(where);
  const same = content.brands.filter((b) => sells(b, (t) => subcategoryOf.get(t) === type.subcategory));
  if (same.length > 0) return same;
  const top = parentOf.get(type.subcategory) ?? type.subcategory;
  return content.brands.filter((b) =>
    sells(b, (t) => {
      const sub = subcategoryOf.get(t);
      return sub !== undefined && (parentOf.get(sub) ?? sub) === top;
    }),
  );
}
