import type { PriceIntelligence, Signals } from '../schemas/index.js';
import { type Db, stmt } from './database.js';

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Relative change above which a price counts as rising or falling (3 %). */
export const TREND_THRESHOLD = 0.03;

/** The snapshot's day (YYYY-MM-DD): "today" for every price window, so answers do not drift with the wall clock. */
export function snapshotDay(db: Db): string {
  const row = stmt(db, "SELECT value FROM meta WHERE key = 'day'").get() as { value: string } | undefined;
  return row?.value ?? new Date().toISOString().slice(0, 10);
}

/** The day `days - 1` before `day`, so a window of N days includes `day` itself. */
export function windowStart(day: string, days: number): string {
  const t = Date.parse(`${day}T00:00:00Z`) - (days - 1) * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * Daily best price of a product: per day the lowest in-stock observation, or the lowest
 * observation when no retailer had it in stock that day.
 */
export function dailyBest(
  db: Db,
  productId: string,
  since: string | null,
): { date: string; price: number }[] {
  const rows = stmt(
    db,
    `SELECT po.day AS date, MIN(CASE WHEN po.in_stock = 1 THEN po.price END) AS best_in, MIN(po.price) AS best_any
     FROM offers o JOIN price_observations po ON po.offer_id = o.id
     WHERE o.product_id = ? AND po.day >= ?
     GROUP BY po.day ORDER BY po.day`,
  ).all(productId, since ?? '0000-00-00') as { date: string; best_in: number | null; best_any: number }[];
  return rows.map((r) => ({ date: r.date, price: round2(r.best_in ?? r.best_any) }));
}

/** rising / falling / stable: the current best price against the 30-day average, ±3 %. */
export function trendOf(current: number | null, avg30: number | null): 'rising' | 'falling' | 'stable' {
  if (current === null || avg30 === null || avg30 <= 0) return 'stable';
  const change = (current - avg30) / avg30;
  if (change > TREND_THRESHOLD) return 'rising';
  if (change < -TREND_THRESHOLD) return 'falling';
  return 'stable';
}

const avg = (xs: number[]) => (xs.length ? round2(xs.reduce((a, b) => a + b, 0) / xs.length) : null);

/** Price intelligence of spec §2.12 over the last `days` days (1–365); null for an unknown product. */
export function priceIntelligence(db: Db, productId: string, days: number): PriceIntelligence | null {
  const product = stmt(db, 'SELECT id, name, current_best_price FROM products WHERE id = ?').get(productId) as
    | { id: string; name: string; current_best_price: number | null }
    | undefined;
  if (!product) return null;
  const today = snapshotDay(db);
  const offers = stmt(
    db,
    `SELECT r.name AS retailer, o.price, o.in_stock, o.last_seen_at
     FROM offers o JOIN retailers r ON r.id = o.retailer_id
     WHERE o.product_id = ? ORDER BY o.in_stock DESC, o.price IS NULL, o.price, r.name`,
  ).all(productId) as { retailer: string; price: number | null; in_stock: number; last_seen_at: string }[];
  const all = dailyBest(db, productId, null);
  const since = windowStart(today, days);
  const since30 = windowStart(today, 30);
  const history = all.filter((d) => d.date >= since && d.date <= today);
  const avg30 = avg(all.filter((d) => d.date >= since30 && d.date <= today).map((d) => d.price));
  const prices = all.map((d) => d.price);
  return {
    product_id: product.id,
    product_name: product.name,
    days,
    current: {
      best_price: product.current_best_price,
      retailer_count: offers.length,
      retailers: offers.map((o) => ({
        retailer: o.retailer,
        price: o.price,
        in_stock: o.in_stock === 1,
        last_seen_at: o.last_seen_at,
      })),
    },
    summary: {
      min_ever: prices.length ? Math.min(...prices) : null,
      max_ever: prices.length ? Math.max(...prices) : null,
      avg_30d: avg30,
      trend: trendOf(product.current_best_price, avg30),
    },
    history,
  };
}

/** Signals of spec §4.1 include_signals for several products at once. */
export function signalsFor(
  db: Db,
  products: readonly { id: string; current_best_price: number | null; data_tier: number }[],
): Map<string, Signals> {
  const out = new Map<string, Signals>();
  if (products.length === 0) return out;
  const today = snapshotDay(db);
  const since90 = windowStart(today, 90);
  const since30 = windowStart(today, 30);
  const ids = JSON.stringify(products.map((p) => p.id));
  const days = stmt(
    db,
    `SELECT o.product_id AS id, po.day, MIN(CASE WHEN po.in_stock = 1 THEN po.price END) AS best_in, MIN(po.price) AS best_any
     FROM offers o JOIN price_observations po ON po.offer_id = o.id
     WHERE o.product_id IN (SELECT value FROM json_each(?)) AND po.day >= ? AND po.day <= ?
     GROUP BY o.product_id, po.day`,
  ).all(ids, since90, today) as { id: string; day: string; best_in: number | null; best_any: number }[];
  const stock = stmt(
    db,
    `SELECT product_id AS id, SUM(in_stock) AS n FROM offers
     WHERE product_id IN (SELECT value FROM json_each(?)) GROUP BY product_id`,
  ).all(ids) as { id: string; n: number }[];
  const successors = stmt(
    db,
    `SELECT product_id AS id, related_id FROM relationships
     WHERE type = 'successor' AND product_id IN (SELECT value FROM json_each(?)) ORDER BY score DESC`,
  ).all(ids) as { id: string; related_id: string }[];
  const byProduct = new Map<string, { day: string; price: number }[]>();
  for (const d of days) {
    const list = byProduct.get(d.id) ?? [];
    list.push({ day: d.day, price: d.best_in ?? d.best_any });
    byProduct.set(d.id, list);
  }
  const inStock = new Map(stock.map((s) => [s.id, s.n]));
  const successorOf = new Map<string, string>();
  for (const s of successors) if (!successorOf.has(s.id)) successorOf.set(s.id, s.related_id);
  for (const p of products) {
    const series = byProduct.get(p.id) ?? [];
    const avg30 = avg(series.filter((d) => d.day >= since30).map((d) => d.price));
    const low90 = series.length ? round2(Math.min(...series.map((d) => d.price))) : null;
    const current = p.current_best_price;
    const successor = successorOf.get(p.id) ?? null;
    out.set(p.id, {
      price_trend: trendOf(current, avg30),
      avg_30d: avg30,
      price_vs_avg_30d:
        current !== null && avg30 !== null && avg30 > 0 ? round2(((current - avg30) / avg30) * 100) : null,
      lowest_90d: low90,
      is_lowest_in_90_days: current !== null && low90 !== null && current <= low90,
      in_stock_offers: inStock.get(p.id) ?? 0,
      lifecycle: successor ? 'successor_available' : p.data_tier >= 3 ? 'legacy' : 'current',
      successor_id: successor,
    });
  }
  return out;
}
