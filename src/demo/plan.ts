import type { BrandDef, Content, ProductTypeDef, SpecRulesDef } from '../content/index.js';
import { gs1CheckDigit } from '../identifiers/index.js';
import type { Random } from './random.js';
import { drawSpecs, listPrice, matches, type SpecValue, satisfies, tierFactor } from './spec-draw.js';

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
  /** the brand's real line (series) the product belongs to; '' when the brand has none for the type */
  series: string;
  /** the brand's cordless battery platform ("20V MAX"), when the type runs on one */
  platform: string;
  generation: number;
  variant: Record<string, string>;
  gtin: string;
  /** place of the product in its brand's range, 0–1 (its line's rank, or drawn): prices and features follow it */
  quality: number;
  /** list price on the first day of the history */
  listPrice: number;
  /** yearly drift of the price: electronics fall, appliances hold */
  drift: number;
  specs: Record<string, SpecValue>;
  /** discontinued products keep listings but have no current offer */
  discontinued: boolean;
}

/** A brand's real model-number scheme for a type, from the taxonomy's `model_patterns`. */
interface ModelScheme {
  regex: RegExp;
  /** the same regex with group indices (`d`), only for placing encoded groups: indices slow every match */
  indexed: RegExp;
  example: string;
  /** regex group → the spec it encodes and the code of each value (`model_patterns[].decodes`) */
  decodes: [number, { spec: string; map: Record<string, unknown> }][];
}

function schemeOf(type: ProductTypeDef, brand: BrandDef): ModelScheme | null {
  const p = type.model_patterns?.find((m) => m.brand === brand.slug && m.example);
  if (!p?.example) return null;
  // a name whose numbers are specs ("RF 24-70mm F2.8 L IS USM") is no serial: redrawn digits
  // would print a 87-79mm F3.7 lens, so such brands get the plain code
  if (/\d\s?(mm|GB|TB)\b|\bF\d/i.test(p.example)) return null;
  try {
    const decodes = Object.entries(
      (p.decodes ?? {}) as Record<string, { spec: string; map: Record<string, unknown> }>,
    )
      .filter(([g, d]) => Number.isInteger(Number(g)) && typeof d?.spec === 'string' && d.map)
      .map(([g, d]) => [Number(g), d] as [number, { spec: string; map: Record<string, unknown> }]);
    const source = p.regex.replace(/^\(\?i\)/, '');
    return { regex: new RegExp(source, 'i'), indexed: new RegExp(source, 'di'), example: p.example, decodes };
  } catch {
    return null;
  }
}

/**
 * A model number in the brand's real scheme: the taxonomy's example with its digits redrawn
 * (and now and then a letter), kept only if the scheme's regex still accepts it. Brands
 * without a scheme get a plausible letters-digits code.
 */
function modelNumber(type: ProductTypeDef, brand: BrandDef, scheme: ModelScheme | null, rnd: Random): string {
  if (scheme) {
    for (let attempt = 0; attempt < 12; attempt++) {
      const letters = attempt < 8 ? 0.2 : 0;
      const candidate = [...scheme.example]
        .map((c) =>
          /\d/.test(c)
            ? String(rnd.int(0, 9))
            : /[A-Z]/.test(c) && rnd.chance(letters)
              ? String.fromCharCode(65 + rnd.int(0, 25))
              : c,
        )
        .join('');
      if (scheme.regex.test(candidate)) return candidate;
    }
    return scheme.example;
  }
  const prefix = (
    brand.name.replace(/[^A-Za-z]/g, '').slice(0, 2) + type.slug.replace(/[^a-z]/g, '').slice(0, 2)
  ).toUpperCase();
  return `${prefix}${rnd.int(10, 99)}${String.fromCharCode(65 + rnd.int(0, 25))}${rnd.int(100, 999)}`;
}

/**
 * A model number that names a line (Weber "Spirit E-310", JBL "Flip 6") names the product's
 * own line: the example's line word is swapped for the product's when the scheme allows it.
 */
function inLine(
  model: string,
  series: string,
  lines: { name: string }[],
  scheme: ModelScheme | null,
): string {
  if (!series || !scheme) return model;
  const named = lines.find((l) => model.startsWith(l.name));
  if (!named || named.name === series) return model;
  const swapped = series + model.slice(named.name.length);
  return scheme.regex.test(swapped) ? swapped : model;
}

/**
 * The model number of one variant: the base with the variant's code, placed where the brand's
 * scheme allows it (appended, else replacing the trailing letters or the last character).
 */
function variantModel(base: string, code: string, index: number, scheme: ModelScheme | null): string {
  if (!code) return base;
  if (!scheme) return `${base}${code}`;
  // the example's trailing letters are usually its color code (GE …RFSS, Samsung …SR); some
  // schemes take a dash suffix (AT-LP120XUSB-BK) or a digit code (TOTO …#01)
  const candidates = [
    base.replace(/[A-Z]+$/i, code),
    base.replace(/[A-Z]+$/i, code.slice(0, 1)),
    `${base}${code}`,
    `${base}-${code}`,
    base.replace(/[A-Z]{2}$/i, code.slice(0, 2).padEnd(2, 'X')),
    base.slice(0, -1) + code.slice(0, 1),
    index === 0
      ? base
      : base.replace(/(\d)(\D*)$/, (_, d: string, rest: string) => `${(Number(d) + index) % 10}${rest}`),
  ];
  return candidates.find((c) => (c !== base || index === 0) && scheme.regex.test(c)) ?? `${base}${code}`;
}

/**
 * A model number that says what the product is where the brand's scheme encodes a spec: a
 * Samsung QN65… TV is 65 in, a DeWalt …B drill a bare tool, a Samsung …SR refrigerator
 * stainless. Each decoded group is set to the code of the product's value (one at random when
 * several codes mean it); a value the scheme has no code for leaves the group as drawn.
 */
function encodeSpecs(
  model: string,
  scheme: ModelScheme | null,
  values: Record<string, SpecValue>,
  rnd: Random,
): string {
  if (!scheme?.decodes.length) return model;
  let out = model;
  // right to left, so a replacement of another length leaves the earlier groups' places intact
  for (const [group, { spec, map }] of [...scheme.decodes].sort((a, b) => b[0] - a[0])) {
    const value = values[spec];
    if (value === undefined || Array.isArray(value)) continue;
    const codes = Object.entries(map)
      .filter(([, v]) => String(v).toLowerCase() === String(value).toLowerCase())
      .map(([code]) => code);
    if (!codes.length) continue;
    const code = rnd.pick(codes);
    const at = scheme.indexed.exec(out)?.indices?.[group];
    if (at) {
      const candidate = out.slice(0, at[0]) + code + out.slice(at[1]);
      if (scheme.regex.test(candidate)) out = candidate;
      continue;
    }
    // an optional group the drawn number left out (HP's XL): insert the code where the group goes
    for (let i = out.length; i >= 0; i--) {
      const candidate = out.slice(0, i) + code + out.slice(i);
      if (scheme.regex.exec(candidate)?.[group] === code) {
        out = candidate;
        break;
      }
    }
  }
  return out;
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

const groupTypes = new WeakMap<ProductTypeDef, ProductTypeDef>();

/** The type without its variant dimensions: what one product group shares (one object per type). */
function groupTypeOf(type: ProductTypeDef): ProductTypeDef {
  let g = groupTypes.get(type);
  if (!g) {
    g = { ...type, specs: type.specs.filter((s) => !type.variant_dimensions.includes(s.key)) };
    groupTypes.set(type, g);
  }
  return g;
}

/** The span of quality (0–1) a brand tier's products cover, its lines spread inside it. */
const TIER_BAND: Record<string, [number, number]> = {
  budget: [0, 0.5],
  'mid-range': [0.15, 0.8],
  premium: [0.4, 0.95],
  luxury: [0.6, 1],
};

const ELECTRONICS =
  /tv|laptop|phone|tablet|monitor|camera|drive|ssd|card|console|headphone|earbud|speaker|router|watch/;

/**
 * Plans the demo's products: for every product type, base models from the brands that really
 * sell the type, in the brand's real lines and battery platforms, with specs drawn from the
 * type's real-world ranges and rules, color/size/configuration variants and, for some, a newer
 * generation. `target` is the approximate number of products (variants included).
 */
export function planProducts(content: Content, rnd: Random, target: number): DemoProduct[] {
  const products: DemoProduct[] = [];
  const usedModels = new Set<string>();
  const rulesOf = new Map(content.specRules.map((r) => [r.product_type, r]));
  // a brand whose cordless platforms for the type all lie outside the type's voltage range
  // cannot be shown truthfully: leave it out of that type (see platformsFor)
  const sellers = new Map(
    content.productTypes.map((t) => [
      t.slug,
      content.brands.filter((b) => b.product_types?.includes(t.slug) && platformsFor(b, t)?.length !== 0),
    ]),
  );
  // one base model per type per round, until the target is reached
  for (let round = 0; products.length < target && round < 10_000; round++) {
    const before = products.length;
    for (const type of content.productTypes) {
      if (products.length >= target) break;
      const brands = sellers.get(type.slug) ?? [];
      if (brands.length) addBaseModel(type, brands, rulesOf.get(type.slug), rnd, products, usedModels);
    }
    if (products.length === before) break;
  }
  return products;
}

function addBaseModel(
  type: ProductTypeDef,
  brands: BrandDef[],
  rules: SpecRulesDef | undefined,
  rnd: Random,
  products: DemoProduct[],
  usedModels: Set<string>,
): void {
  const brand = rnd.pick(brands);
  const scheme = schemeOf(type, brand);
  // a line's place among the brand's lines for the type sets the product's quality
  const lines = (brand.lines ?? []).filter((l) => l.product_types.includes(type.slug));
  const lineIndex = pickLine(lines, rnd);
  const inBrand =
    lineIndex >= 0
      ? (lineIndex + 0.15 + 0.7 * rnd.next()) / lines.length
      : lines.length
        ? 0.6 * rnd.next()
        : rnd.next();
  // ... inside the band of the brand's tier: a budget brand's best product is no flagship, a
  // luxury brand's entry model no bargain (Wyze robot vacuums sit low, Miele dishwashers high)
  const tier = String(brand.profile?.quality_tier ?? 'mid-range');
  const [low, high] = TIER_BAND[tier] ?? [0, 1];
  const quality = low + (high - low) * inBrand;
  const series = lines[lineIndex]?.name ?? '';
  const platforms = platformsFor(brand, type) ?? [];
  const platform = platforms.length ? rnd.pick(platforms) : null;
  const fixed: Record<string, SpecValue> = {};
  const specKeys = new Set(type.specs.map((s) => s.key));
  if (platform) {
    if (specKeys.has('battery_platform')) fixed.battery_platform = platform.name;
    if (specKeys.has('battery_voltage')) fixed.battery_voltage = platform.voltage;
    // a tool on a battery platform is the cordless kind of its type
    const cordless = type.specs
      .find((s) => s.key === 'power_source' && s.type === 'enum')
      ?.values?.find((v) => /cordless|battery/i.test(v));
    if (cordless) fixed.power_source = cordless;
  }
  // variant dimensions (kit, color, width) are chosen per variant below, not drawn for the group
  const groupType = groupTypeOf(type);
  const specs = drawSpecs(groupType, rules, rnd, quality, fixed, { brand: brand.slug, series, tier });
  // a scheme that spells out an enum value (LG's OLED65C3PUA) is only for products with it
  const fits = (s: ModelScheme | null) =>
    s &&
    !type.specs.some(
      (d) =>
        d.type === 'enum' &&
        typeof specs[d.key] === 'string' &&
        d.values?.some((v) => v !== specs[d.key] && /^[A-Za-z]{3,}$/.test(v) && s.regex.source.includes(v)),
    )
      ? s
      : null;
  const ownScheme = fits(scheme);
  const model = () =>
    encodeSpecs(
      inLine(modelNumber(type, brand, ownScheme, rnd), series, lines, ownScheme),
      ownScheme,
      specs,
      rnd,
    );
  let base = model();
  for (let n = 0; usedModels.has(`${brand.slug}:${base}`) && n < 5; n++) base = model();
  if (usedModels.has(`${brand.slug}:${base}`)) return;
  usedModels.add(`${brand.slug}:${base}`);
  // a variant value must keep the rules the product's specs trigger (an instant camera is body only)
  const context = { ...specs, brand: brand.slug, series, tier };
  const keeps = (dim: string) => {
    const binding = (rules?.rules ?? []).filter((r) => r.then[dim] !== undefined && matches(context, r.when));
    return (value: string) =>
      binding.every((r) => satisfies(numericVariant(type, { [dim]: value })[dim], r.then[dim]!));
  };
  const variantRules = (rules?.rules ?? []).filter((r) =>
    Object.keys(r.when).some((k) => type.variant_dimensions.includes(k)),
  );
  const variantDims = type.variant_dimensions.filter((d) => variantValues(type, d).some(keeps(d)));
  const noise = 0.92 + rnd.next() * 0.16;
  const brandFactor = tierFactor(brand.profile?.quality_tier);
  const drift = ELECTRONICS.test(type.slug) ? -0.05 - rnd.next() * 0.2 : -0.05 + rnd.next() * 0.1;
  const generations = rnd.chance(0.2) ? 2 : 1;
  for (let generation = 1; generation <= generations; generation++) {
    // a newer generation bumps the last digit of the model number
    let genBase = base;
    if (generation === 2) {
      const bumped = base.replace(
        /(\d)(\D*)$/,
        (_, d: string, rest: string) => `${(Number(d) + 1) % 10}${rest}`,
      );
      // (a bump of a digit that encodes a spec is undone: that spec did not change)
      if (!ownScheme || ownScheme.regex.test(bumped)) genBase = encodeSpecs(bumped, ownScheme, specs, rnd);
      if (genBase === base || usedModels.has(`${brand.slug}:${genBase}`)) break;
      usedModels.add(`${brand.slug}:${genBase}`);
    }
    for (const [index, variant] of variantCombos(type, variantDims, rnd, keeps).entries()) {
      const code = Object.values(variant).map(variantCode).join('');
      const model = encodeSpecs(
        variantModel(genBase, code, index, ownScheme),
        ownScheme,
        { ...specs, ...variant },
        rnd,
      );
      if (model !== genBase && usedModels.has(`${brand.slug}:${model}`)) continue;
      usedModels.add(`${brand.slug}:${model}`);
      const all = { ...specs, ...numericVariant(type, variant) };
      // `series` may carry a price factor of its own (a Weber Summit is no dearer Spirit)
      const priced = series ? { ...all, series } : all;
      const price = listPrice(
        type,
        rules,
        priced,
        brandFactor,
        quality,
        noise * (generation === 2 ? 1.08 : 1),
      );
      // what a variant leaves out (a bare tool has no battery): rules on a variant say which specs do not apply
      let own = specs;
      for (const r of variantRules)
        if (matches({ ...all, brand: brand.slug, series, tier }, r.when))
          for (const [k, c] of Object.entries(r.then))
            if (c === null && k in own) {
              if (own === specs) own = { ...specs };
              delete own[k];
            }
      products.push({
        key: `${brand.slug}:${model}`,
        groupKey: `${brand.slug}:${genBase}`,
        type,
        brand,
        model,
        baseModel: genBase,
        series,
        platform: platform?.name ?? '',
        generation,
        quality,
        variant,
        gtin: makeGtin(rnd),
        listPrice: Math.max(4.99, price),
        drift,
        specs: own,
        discontinued: generations === 2 && generation === 1 && rnd.chance(0.5),
      });
    }
  }
}

/**
 * The brand's battery platforms for a type whose voltage the type's `battery_voltage` range
 * allows; null when the brand has no platform for the type (corded or not cordless).
 */
function platformsFor(brand: BrandDef, type: ProductTypeDef) {
  const covering = (brand.battery_platforms ?? []).filter((p) => p.product_types.includes(type.slug));
  if (!covering.length) return null;
  const range = type.specs.find((s) => s.key === 'battery_voltage')?.range;
  return range
    ? covering.filter(
        (p) =>
          p.voltage >= range.min &&
          p.voltage <= range.max &&
          (!range.values || range.values.includes(p.voltage)),
      )
    : covering;
}

/**
 * Index of the line a new product belongs to, or -1 for none: lines with a `share` take that
 * share of the brand's products, the others split the rest equally (none when all have one).
 */
function pickLine(lines: { share?: number }[], rnd: Random): number {
  if (!lines.length) return -1;
  const fixed = lines.reduce((n, l) => n + (l.share ?? 0), 0);
  const open = lines.filter((l) => l.share === undefined).length;
  const each = open ? Math.max(0, 1 - fixed) / open : 0;
  let u = rnd.next();
  for (const [i, l] of lines.entries()) {
    u -= l.share ?? each;
    if (u < 0) return i;
  }
  return -1;
}

/** A variant's numeric dimensions as spec values ("256" → 256 GB) for the price. */
function numericVariant(type: ProductTypeDef, variant: Record<string, string>): Record<string, SpecValue> {
  const out: Record<string, SpecValue> = {};
  for (const [k, v] of Object.entries(variant)) {
    const def = type.specs.find((s) => s.key === k);
    out[k] = def?.type === 'number' && Number.isFinite(Number(v)) ? Number(v) : v;
  }
  return out;
}

/** The controlled values of a variant dimension, numeric ones only inside the spec's range. */
function variantValues(type: ProductTypeDef, dim: string): string[] {
  const values = type.controlled_values?.[dim]?.values ?? [];
  const range = type.specs.find((s) => s.key === dim && s.type === 'number')?.range;
  if (!range) return values;
  return values.filter((v) => {
    const n = Number(v);
    return (
      Number.isFinite(n) && n >= range.min && n <= range.max && (!range.values || range.values.includes(n))
    );
  });
}

function variantCombos(
  type: ProductTypeDef,
  dims: string[],
  rnd: Random,
  keeps: (dim: string) => (value: string) => boolean,
): Record<string, string>[] {
  let combos: Record<string, string>[] = [{}];
  for (const dim of dims.slice(0, 2)) {
    const values = variantValues(type, dim).filter(keeps(dim));
    const chosen = rnd.sample(values, rnd.int(1, Math.min(3, values.length)));
    combos = combos.flatMap((c) => chosen.map((v) => ({ ...c, [dim]: v })));
  }
  return combos.slice(0, 4);
}
