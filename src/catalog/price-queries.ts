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

interface Observation {
  offer_id: string;
  day: string;
  price: number;
  in_stock: number;
}

const DAY_MS = 86_400_000;
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/**
 * Daily best prices from offer observations (sorted by day). A price holds until the offer's
 * next observation: ingest records one per offer and day, and imported history only where a
 * price changed. Each day's best is the lowest in-stock price, or the lowest price when no
 * retailer had stock. Runs from the first observation (at most ten years back) to `until`.
 */
export function fillDaily(
  observations: readonly Observation[],
  until: string,
): { date: string; price: number }[] {
  const first = observations[0];
  if (!first) return [];
  const floor = windowStart(until, 3650);
  const state = new Map<string, { price: number; inStock: boolean }>();
  const out: { date: string; price: number }[] = [];
  let i = 0;
  // biome-ignore lint/complexity/useMathMinMax: ISO days compare as strings, Math.max would not
  for (let day = first.day > floor ? first.day : floor; day <= until; day = nextDay(day)) {
    for (let o = observations[i]; o !== undefined && o.day <= day; o = observations[++i])
      state.set(o.offer_id, { price: o.price, inStock: o.in_stock === 1 });
    let bestIn = Number.POSITIVE_INFINITY;
    let bestAny = Number.POSITIVE_INFINITY;
    for (const { price, inStock } of state.values()) {
      if (inStock && price < bestIn) bestIn = price;
      if (price < bestAny) bestAny = price;
    }
    if (bestAny < Number.POSITIVE_INFINITY)
      out.push({ date: day, price: round2(bestIn < Number.POSITIVE_INFINITY ? bestIn : bestAny) });
  }
  return out;
}

/** A product's daily best price up to `until` (see fillDaily). */
export function dailyBest(db: Db, productId: string, until: string): { date: string; price: number }[] {
  const rows = stmt(
    db,
    `SELECT po.offer_id, po.day, po.price, po.in_stock
     FROM offers o JOIN price_observations po ON po.offer_id = o.id
     WHERE o.product_id = ? AND po.day <= ? ORDER BY po.day`,
  ).all(productId, until) as Observation[];
  return fillDaily(rows, until);
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
  const all = dailyBest(db, productId, today);
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
  const observations = stmt(
    db,
    `SELECT o.product_id AS id, po.offer_id, po.day, po.price, po.in_stock
     FROM offers o JOIN price_observations po ON po.offer_id = o.id
     WHERE o.product_id IN (SELECT value FROM json_each(?)) AND po.day <= ?
     ORDER BY po.day`,
  ).all(ids, today) as (Observation & { id: string })[];
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
  const observationsOf = new Map<string, Observation[]>();
  for (const o of observations) {
    const list = observationsOf.get(o.id);
    if (list) list.push(o);
    else observationsOf.set(o.id, [o]);
  }
  const inStock = new Map(stock.map((s) => [s.id, s.n]));
  const successorOf = new Map<string, string>();
  for (const s of successors) if (!successorOf.has(s.id)) successorOf.set(s.id, s.related_id);
  for (const p of products) {
    const series = fillDaily(observationsOf.get(p.id) ?? [], today).filter((d) => d.date >= since90);
    const avg30 = avg(series.filter((d) => d.date >= since30).map((d) => d.price));
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
