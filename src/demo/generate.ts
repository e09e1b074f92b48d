import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrandDef, Content, ProductTypeDef, RetailerDef, SpecDef } from '../content/index.js';
import { gs1CheckDigit } from '../ingest/normalize/gtin.js';
import { Random } from './random.js';

export interface DemoOptions {
  outDir: string;
  content: Content;
  /** base products per product type (before color variants); default 3 */
  perType?: number;
  seed?: number;
}

export interface DemoResult {
  feeds: { retailer: string; path: string; rows: number }[];
  products: number;
  truthPath: string;
}

interface DemoProduct {
  key: string;
  type: ProductTypeDef;
  brand: BrandDef;
  model: string;
  series: string;
  color: string | null;
  gtin: string;
  price: number;
  specs: Record<string, string>;
  groupKey: string;
}

const COLUMNS = [
  'id',
  'title',
  'description',
  'link',
  'image_link',
  'price',
  'sale_price',
  'availability',
  'brand',
  'gtin',
  'mpn',
  'product_type',
  'google_product_category',
  'item_group_id',
  'color',
  'size',
  'product_detail',
];

/** Plausible numeric ranges by unit, for specs the taxonomy does not bound. */
const UNIT_RANGES: Record<string, [number, number, number]> = {
  in: [10, 80, 0.5],
  lb: [5, 300, 1],
  dBA: [38, 56, 1],
  W: [40, 2000, 10],
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
  kW: [1, 20, 1],
  mm: [14, 600, 1],
  min: [5, 120, 5],
  ft: [1, 50, 1],
};

function specValue(spec: SpecDef, rnd: Random): string | null {
  switch (spec.type) {
    case 'boolean':
      return rnd.chance(0.5) ? 'Yes' : 'No';
    case 'enum':
      return spec.values?.length ? rnd.pick(spec.values) : null;
    case 'list':
      return spec.values?.length
        ? rnd.sample(spec.values, rnd.int(1, Math.min(3, spec.values.length))).join(', ')
        : null;
    case 'number': {
      const [lo, hi, step] = UNIT_RANGES[spec.unit ?? ''] ?? [1, 20, 1];
      const value = Math.round((lo + rnd.next() * (hi - lo)) / step) * step;
      const text = Number.isInteger(step) ? String(Math.round(value)) : value.toFixed(1);
      return spec.unit ? `${text} ${spec.unit}` : text;
    }
    default:
      return null;
  }
}

const upc = (rnd: Random): string => {
  const body = `0${String(rnd.int(10000, 99999))}${String(rnd.int(10000, 99999))}`;
  return body + gs1CheckDigit(body);
};

const COLOR_CODES: Record<string, string> = {
  black: 'BK',
  white: 'WW',
  'stainless steel': 'SS',
  'black stainless steel': 'BS',
  silver: 'SL',
  gray: 'GY',
  blue: 'BL',
  red: 'RD',
};
const colorCode = (color: string) =>
  COLOR_CODES[color.toLowerCase()] ??
  color
    .replace(/[^A-Za-z]/g, '')
    .slice(0, 2)
    .toUpperCase();

/** Builds the demo's real-world products: a few base models per type, with color variants. */
function planProducts(content: Content, rnd: Random, perType: number): DemoProduct[] {
  const products: DemoProduct[] = [];
  for (const type of content.productTypes) {
    let brands = content.brands.filter((b) => b.product_types?.includes(type.slug));
    if (brands.length === 0) brands = rnd.sample(content.brands, Math.min(2, content.brands.length));
    if (brands.length === 0) continue;
    const colors = type.controlled_values?.color?.values ?? [];
    for (let i = 0; i < perType; i++) {
      const brand = rnd.pick(brands);
      const prefix = (
        brand.name.replace(/[^A-Za-z]/g, '').slice(0, 2) + type.slug.replace(/[^a-z]/g, '').slice(0, 1)
      ).toUpperCase();
      const base = `${prefix}${rnd.int(100, 999)}${String.fromCharCode(65 + rnd.int(0, 25))}${rnd.int(10, 99)}`;
      const series = `${rnd.pick(['100', '300', '500', '800'])} Series`;
      const range = type.price_range ?? { low: 50, typical: 300, high: 900 };
      const price = Math.round((range.low + rnd.next() * (range.high - range.low)) * 100) / 100 - 0.01;
      const specs: Record<string, string> = {};
      for (const spec of type.specs) {
        if (type.variant_dimensions.includes(spec.key)) continue;
        const value = specValue(spec, rnd);
        if (value) specs[spec.key] = value;
      }
      const variantColors =
        colors.length && type.variant_dimensions.includes('color')
          ? rnd.sample(colors, rnd.int(1, Math.min(3, colors.length)))
          : [null];
      for (const color of variantColors) {
        const model = color ? `${base}${colorCode(color)}` : base;
        products.push({
          key: `${brand.slug}:${model}`,
          type,
          brand,
          model,
          series,
          color,
          gtin: upc(rnd),
          price: Math.max(4.99, price),
          specs,
          groupKey: `${brand.slug}:${base}`,
        });
      }
    }
  }
  return products;
}

/** A retailer's title for a product, in that retailer's style. */
function title(style: string | undefined, p: DemoProduct, rnd: Random): string {
  const headline = p.type.specs.find((s) => s.headline && p.specs[s.key] && s.type === 'number');
  const spec = headline ? `${p.specs[headline.key]} ` : '';
  const color = p.color ? ` ${p.color.replace(/\b\w/g, (c) => c.toUpperCase())}` : '';
  switch (style) {
    case 'model-last':
      return `${spec}${p.type.name}${color} - ${p.brand.name} ${p.model}`;
    case 'spec-heavy':
      return `${p.brand.name} ${p.series} ${spec}${p.type.name},${color} (${p.model})`;
    case 'caps':
      return `${p.brand.name} ${p.model} ${p.type.name} ${spec}${color}`
        .toUpperCase()
        .replace(/\s+/g, ' ')
        .trim();
    case 'terse':
      return `${p.brand.name} ${p.model}`;
    default:
      return `${p.brand.name} ${p.series} ${p.model} ${spec}${p.type.name}${rnd.chance(0.5) ? color : ''}`
        .replace(/\s+/g, ' ')
        .trim();
  }
}

const clean = (s: string) => s.replace(/[\t\n\r]/g, ' ');

/** Writes one Merchant Center TSV feed per retailer, and the ground truth of which listings are one product. */
export function generateDemo(options: DemoOptions): DemoResult {
  const rnd = new Random(options.seed ?? 20261121);
  const { content } = options;
  mkdirSync(options.outDir, { recursive: true });
  const products = planProducts(content, rnd, options.perType ?? 3);
  const retailers: RetailerDef[] = content.retailers.filter((r) => r.is_active !== false);
  const categoryOf = new Map(content.categories.map((c) => [c.slug, c]));
  const topCategory = (type: ProductTypeDef) => categoryOf.get(type.subcategory)?.parent ?? type.subcategory;

  const rows = new Map<string, string[][]>(retailers.map((r) => [r.slug, []]));
  const truth: string[] = ['retailer,item_id,product_key,group_key'];
  for (const p of products) {
    const sellers = retailers.filter(
      (r) => !r.categories?.length || r.categories.includes(topCategory(p.type)),
    );
    for (const r of rnd.sample(sellers, rnd.int(1, Math.max(1, Math.min(sellers.length, 5))))) {
      const itemId = `${r.slug.slice(0, 3).toUpperCase()}-${rnd.int(100000, 999999)}`;
      const price = Math.round(p.price * (0.92 + rnd.next() * 0.16) * 100) / 100;
      const onSale = rnd.chance(0.15);
      const gtin = rnd.chance(0.1)
        ? ''
        : rnd.chance(0.03)
          ? p.gtin.slice(0, -1) + ((Number(p.gtin.at(-1)) + 1) % 10)
          : rnd.chance(0.3)
            ? `0${p.gtin}`
            : p.gtin;
      const detail = Object.entries(p.specs)
        .filter(() => rnd.chance(0.8))
        .map(([key, value]) => {
          const def = p.type.specs.find((s) => s.key === key);
          const name = def?.aliases?.length && rnd.chance(0.4) ? rnd.pick(def.aliases) : (def?.label ?? key);
          return `General:${name}:${value}`;
        })
        .join(',');
      rows
        .get(r.slug)
        ?.push(
          [
            itemId,
            title(r.title_style, p, rnd),
            `${p.brand.name} ${p.type.name.toLowerCase()} ${p.model}.`,
            `https://${r.domain ?? `${r.slug}.example`}/p/${itemId}`,
            `https://images.${r.domain ?? 'shelf.example'}/${itemId}.jpg`,
            `${price.toFixed(2)} USD`,
            onSale ? `${(price * 0.85).toFixed(2)} USD` : '',
            rnd.chance(0.08) ? 'out of stock' : 'in stock',
            rnd.chance(0.1) ? p.brand.name.toUpperCase() : p.brand.name,
            gtin,
            rnd.chance(0.9) ? p.model : '',
            `${categoryOf.get(topCategory(p.type))?.name ?? ''} > ${p.type.name}`,
            rnd.chance(0.5) ? String(p.type.google_product_category.id) : '',
            p.color ? `${r.slug}-${p.groupKey}` : '',
            p.color ?? '',
            '',
            detail,
          ].map((v) => clean(String(v))),
        );
      truth.push(`${r.slug},${itemId},${p.key},${p.groupKey}`);
    }
  }

  const feeds: DemoResult['feeds'] = [];
  for (const [retailer, list] of rows) {
    if (list.length === 0) continue;
    const path = join(options.outDir, `${retailer}.tsv`);
    writeFileSync(path, `${[COLUMNS, ...list].map((row) => row.join('\t')).join('\n')}\n`);
    feeds.push({ retailer, path, rows: list.length });
  }
  const truthPath = join(options.outDir, 'ground-truth.csv');
  writeFileSync(truthPath, `${truth.join('\n')}\n`);
  return { feeds, products: products.length, truthPath };
}
