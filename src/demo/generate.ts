import { once } from 'node:events';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Content, RetailerDef } from '../content/index.js';
import { priceHistory, saleEvents } from './history.js';
import {
  type RetailerStyle,
  renderBrand,
  renderGtin,
  renderMpn,
  renderSpec,
  renderTitle,
} from './listing.js';
import { type DemoProduct, planProducts } from './plan.js';
import { Random } from './random.js';

/**
 * Products the demo plans by default, variants included: about 10 % end up legacy (discontinued,
 * no current offer), so this leaves the spec's 35,000+ live products (tiers 1–2).
 */
export const DEFAULT_DEMO_PRODUCTS = 39_000;

export interface DemoOptions {
  outDir: string;
  content: Content;
  /** approximate number of products, variants included (default DEFAULT_DEMO_PRODUCTS) */
  products?: number;
  seed?: number;
  /** last day of the price history and the day of the feeds (YYYY-MM-DD, default today UTC) */
  endDay?: string;
  /** days of price history (default 365; 0 writes no history file) */
  historyDays?: number;
}

export interface DemoResult {
  feeds: { retailer: string; path: string; rows: number; sourceType: 'synthetic' }[];
  products: number;
  listings: number;
  truthPath: string;
  historyPath: string | null;
  historyRows: number;
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

function styleOf(retailer: RetailerDef, index: number, rnd: Random): RetailerStyle {
  const profileCategories = (retailer.profile?.categories as string[] | undefined) ?? [];
  return {
    retailer,
    titleStyle: retailer.title_style ?? 'brand-first',
    metric: index % 7 === 3,
    format: index % 4 === 1 ? 'csv' : 'tsv',
    factor: 0.95 + rnd.next() * 0.1,
    categories: retailer.categories ?? profileCategories,
  };
}

/** A short product description: brand, line, type, model and three specs with their units. */
function describe(p: DemoProduct): string {
  const facts = Object.entries(p.specs)
    .slice(0, 3)
    .map(([key, v]) => {
      const def = p.type.specs.find((s) => s.key === key);
      const value = Array.isArray(v) ? v.join(', ') : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);
      return `${def?.label ?? key}: ${value}${typeof v === 'number' && def?.unit ? ` ${def.unit}` : ''}`;
    });
  const line = [p.series, p.platform].filter(Boolean).join(' ');
  return `${p.brand.name}${line ? ` ${line}` : ''} ${p.type.name.toLowerCase()}, model ${p.model}. ${facts.join('; ')}.`;
}

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const tsvCell = (v: string) => v.replace(/[\t\r\n]+/g, ' ');

/**
 * A file written in large chunks: lines are joined in memory and handed to the stream a
 * megabyte at a time (a write per history row cost more than computing the row), waiting
 * for the stream to drain so a demo's 150 MB never sits in memory at once.
 */
class ChunkedFile {
  readonly stream: WriteStream;
  #chunk = '';
  constructor(readonly path: string) {
    this.stream = createWriteStream(path);
  }
  line(text: string): Promise<void> | undefined {
    this.#chunk += `${text}\n`;
    return this.#chunk.length >= 1 << 20 ? this.flush() : undefined;
  }
  flush(): Promise<void> | undefined {
    const ok = this.stream.write(this.#chunk);
    this.#chunk = '';
    return ok ? undefined : once(this.stream, 'drain').then(() => undefined);
  }
  async close(): Promise<void> {
    if (this.#chunk) await this.flush();
    this.stream.end();
    await once(this.stream, 'finish');
  }
}

class FeedWriter extends ChunkedFile {
  rows = 0;
  constructor(
    path: string,
    readonly format: 'tsv' | 'csv',
  ) {
    super(path);
    this.line(this.#join(COLUMNS));
  }
  #join(cells: string[]): string {
    return cells.map(this.format === 'csv' ? csvCell : tsvCell).join(this.format === 'csv' ? ',' : '\t');
  }
  write(cells: string[]): Promise<void> | undefined {
    this.rows++;
    return this.line(this.#join(cells));
  }
}

/**
 * Writes the demo: one Merchant Center feed per active retailer (TSV or CSV, each with its own
 * title style, units and noise), a year of price history as change points
 * (`price-history.csv`: retailer,id,date,price,sale_price,availability) and the ground truth of
 * which listings are one product, of which type and brand (`ground-truth.csv`). The same seed gives the same files.
 */
export async function generateDemo(options: DemoOptions): Promise<DemoResult> {
  const rnd = new Random(options.seed ?? 20261121);
  const { content } = options;
  mkdirSync(options.outDir, { recursive: true });
  const endDay = options.endDay ?? new Date().toISOString().slice(0, 10);
  const endMs = Date.parse(`${endDay}T00:00:00Z`);
  const historyDays = options.historyDays ?? 365;
  const products = planProducts(content, rnd, options.products ?? DEFAULT_DEMO_PRODUCTS);
  const retailers = content.retailers.filter((r) => r.is_active !== false);
  const styles = retailers.map((r, i) => styleOf(r, i, rnd));
  const categoryOf = new Map(content.categories.map((c) => [c.slug, c]));
  const topOf = (p: DemoProduct) => categoryOf.get(p.type.subcategory)?.parent ?? p.type.subcategory;
  const endYear = new Date(endMs).getUTCFullYear();
  const events = saleEvents([endYear - 1, endYear]);

  const writers = new Map<string, FeedWriter>();
  const writerFor = (style: RetailerStyle) => {
    let w = writers.get(style.retailer.slug);
    if (!w) {
      w = new FeedWriter(join(options.outDir, `${style.retailer.slug}.${style.format}`), style.format);
      writers.set(style.retailer.slug, w);
    }
    return w;
  };
  const truth = new ChunkedFile(join(options.outDir, 'ground-truth.csv'));
  truth.line('retailer,item_id,product_key,group_key,type,brand');
  const historyPath = historyDays > 0 ? join(options.outDir, 'price-history.csv') : null;
  const history = historyPath ? new ChunkedFile(historyPath) : null;
  history?.line('retailer,id,date,price,sale_price,availability');
  let historyRows = 0;
  let listings = 0;
  const usedIds = new Set<string>();

  const specDefs = new Map(
    content.productTypes.map((t) => [t.slug, new Map(t.specs.map((s) => [s.key, s]))] as const),
  );
  for (const p of products) {
    const defs = specDefs.get(p.type.slug)!;
    const description = describe(p);
    const sellers = styles.filter((s) => s.categories.length === 0 || s.categories.includes(topOf(p)));
    const pool = sellers.length ? sellers : styles;
    const count = Math.min(pool.length, 1 + Math.floor(rnd.next() ** 1.6 * 6));
    for (const style of rnd.sample(pool, count)) {
      let itemId = `${style.retailer.slug.slice(0, 3).toUpperCase()}${rnd.int(1_000_000, 9_999_999)}`;
      while (usedIds.has(itemId))
        itemId = `${style.retailer.slug.slice(0, 3).toUpperCase()}${rnd.int(1_000_000, 9_999_999)}`;
      usedIds.add(itemId);
      const points = priceHistory({
        rnd,
        listPrice: p.listPrice,
        drift: p.drift,
        retailerFactor: style.factor,
        events,
        endMs,
        days: Math.max(historyDays, 1),
        discontinuedFromDay: p.discontinued ? rnd.int(200, 330) : null,
      });
      if (history) {
        const prefix = `${style.retailer.slug},${itemId},`;
        for (const pt of points) {
          const full = history.line(
            `${prefix}${pt.day},${pt.price.toFixed(2)},${pt.salePrice?.toFixed(2) ?? ''},${pt.inStock ? 'in stock' : 'out of stock'}`,
          );
          if (full) await full;
          historyRows++;
        }
      }
      // a discontinued product's listings stay in the feed without a price: legacy records
      const last = points.at(-1);
      const availability = p.discontinued ? 'out of stock' : last?.inStock ? 'in stock' : 'out of stock';
      const price = last?.price ?? p.listPrice;
      const detail = Object.entries(p.specs)
        .filter(() => rnd.chance(0.75))
        .map(([key, value]) => {
          const def = defs.get(key);
          const name = def?.aliases?.length && rnd.chance(0.5) ? rnd.pick(def.aliases) : (def?.label ?? key);
          return `Specifications:${name.replace(/[:,]/g, ' ')}:${renderSpec(value, def?.unit, style, rnd).replace(/,/g, ' /')}`;
        })
        .join(',');
      const variantValues = Object.entries(p.variant);
      const color = variantValues.find(([k]) => k === 'color' || k === 'finish')?.[1] ?? '';
      const size = variantValues.find(([k]) => k !== 'color' && k !== 'finish')?.[1] ?? '';
      const domain = style.retailer.domain ?? `${style.retailer.slug}.example`;
      await writerFor(style).write([
        itemId,
        renderTitle(p, style, rnd),
        description,
        `https://${domain}/p/${itemId}`,
        `https://images.${domain}/${itemId}.jpg`,
        p.discontinued ? '' : `${price.toFixed(2)} USD`,
        !p.discontinued && last?.salePrice ? `${last.salePrice.toFixed(2)} USD` : '',
        availability,
        renderBrand(p, rnd),
        renderGtin(p.gtin, rnd),
        renderMpn(p.model, rnd),
        `${categoryOf.get(topOf(p))?.name ?? ''} > ${categoryOf.get(p.type.subcategory)?.name ?? ''} > ${p.type.name}`,
        rnd.chance(0.5) ? String(p.type.google_product_category.id) : '',
        variantValues.length ? `${style.retailer.slug}-${p.groupKey}` : '',
        color,
        size,
        detail,
      ]);
      await truth.line(
        `${style.retailer.slug},${itemId},${p.key},${p.groupKey},${p.type.slug},${p.brand.slug}`,
      );
      listings++;
    }
  }
  await Promise.all([...writers.values()].map((w) => w.close()));
  await truth.close();
  await history?.close();
  return {
    feeds: [...writers.values()].map((w) => ({
      retailer: w.path
        .split('/')
        .pop()!
        .replace(/\.(tsv|csv)$/, ''),
      path: w.path,
      rows: w.rows,
      sourceType: 'synthetic' as const,
    })),
    products: products.length,
    listings,
    truthPath: join(options.outDir, 'ground-truth.csv'),
    historyPath,
    historyRows,
  };
}
