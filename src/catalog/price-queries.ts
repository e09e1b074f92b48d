import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { PriceIntelligence, PriceVerdict, Signals } from '../schemas/index.js';
import { round2 } from '../util/index.js';
import { type Db, hasTable, perConnection, schemaVersion, stmt } from './database.js';
import { offersFor } from './offer-rows.js';
import { refsOf } from './ref-cache.js';
import { COMPACT_VERSION, INTEGER_KEYS_VERSION, LEAN_VERSION } from './schema.js';

/** Relative change above which a price counts as rising or falling (3 %). */
export const TREND_THRESHOLD = 0.03;

/** The snapshot's day (YYYY-MM-DD): "today" for every price window, so answers do not drift with the wall clock. */
export function snapshotDay(db: Db): string {
  // a snapshot being built has no day until its run is recorded: read it each time
  return db.readonly ? days(db, '', readDay) : readDay(db);
}
const days = perConnection<string>();
const readDay = (db: Db): string =>
  (stmt(db, "SELECT value FROM meta WHERE key = 'day'").pluck().get() as string | undefined) ??
  new Date().toISOString().slice(0, 10);

/** One price observation of an offer: from `day` (a day number, see dayNumber) until its next. */
export interface Observation {
  /** the offer's rowid (its UUID in snapshots before schema version 8) */
  offer_id: number | string;
  day: number;
  price: number;
  in_stock: number;
}

const DAY_MS = 86_400_000;

// A year of daily history is 365 day names per request: computed once per day, not per use.
const dayNumbers = new Map<string, number>();
const dayNames = new Map<number, string>();
/** Days since 1970-01-01 of a YYYY-MM-DD day. */
export function dayNumber(day: string): number {
  let n = dayNumbers.get(day);
  if (n === undefined) {
    n = Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
    dayNumbers.set(day, n);
  }
  return n;
}
function dayName(n: number): string {
  let day = dayNames.get(n);
  if (day === undefined) {
    day = new Date(n * DAY_MS).toISOString().slice(0, 10);
    dayNames.set(n, day);
  }
  return day;
}

/**
 * Daily best prices from offer observations (sorted by day). A price holds until the offer's
 * next observation: the snapshot stores a row only where an offer's price or stock changed
 * (one per offer and day before schema version 8). Each day's best is the lowest in-stock price, or the lowest price when no
 * retailer had stock. Runs from the first observation (at most ten years back) to `until`.
 */
export function fillDaily(
  observations: readonly Observation[],
  until: string,
): { date: string; price: number }[] {
  const first = observations[0];
  if (!first) return [];
  const last = dayNumber(until);
  const state = new Map<number | string, { price: number; inStock: boolean }>();
  const out: { date: string; price: number }[] = [];
  let i = 0;
  for (let day = Math.max(first.day, last - 3649); day <= last; day++) {
    for (let o = observations[i]; o !== undefined && o.day <= day; o = observations[++i])
      state.set(o.offer_id, { price: o.price, inStock: o.in_stock === 1 });
    let bestIn = Number.POSITIVE_INFINITY;
    let bestAny = Number.POSITIVE_INFINITY;
    for (const { price, inStock } of state.values()) {
      if (inStock && price < bestIn) bestIn = price;
      if (price < bestAny) bestAny = price;
    }
    if (bestAny < Number.POSITIVE_INFINITY)
      out.push({ date: dayName(day), price: round2(bestIn < Number.POSITIVE_INFINITY ? bestIn : bestAny) });
  }
  return out;
}

/**
 * A product's daily best prices: the day number of the first, then one price in cents per
 * day up to the snapshot day. Read from product_price_series (written at ingest), or
 * computed from the observations in snapshots without it.
 */
export interface PriceSeries {
  first: number;
  cents: Int32Array;
}

/** A price in whole cents, as price_observations stores it since schema version 8. */
export const toCents = (price: number): number => Math.round(price * 100);

const EMPTY_SERIES: PriceSeries = { first: 0, cents: new Int32Array(0) };
const MAX_CENTS = 2 ** 31 - 1;

/**
 * The series of fillDaily's points as stored in product_price_series: little-endian Int32
 * cents, packed with raw deflate since schema version 7 (a price holds for days, so the
 * series is long runs of one value: 57.5 MB of cents took 3 MB on the 35k demo); null if a
 * price does not fit.
 */
export function encodeSeries(points: readonly { date: string; price: number }[]): Buffer | null {
  const buffer = Buffer.alloc(points.length * 4);
  for (let i = 0; i < points.length; i++) {
    const cents = toCents((points[i] as { price: number }).price);
    if (!(cents >= 0 && cents <= MAX_CENTS)) return null;
    buffer.writeInt32LE(cents, i * 4);
  }
  return packCents(buffer);
}

/** Little-endian Int32 cents as stored in product_price_series (see encodeSeries). */
export function packCents(cents: Buffer): Buffer {
  return deflateRawSync(cents);
}

/** The cents of a stored series (see encodeSeries; plain Int32s before schema version 7). */
function decodeSeries(db: Db, stored: Buffer): Int32Array {
  const buffer = schemaVersion(db) >= COMPACT_VERSION ? inflateRawSync(stored) : stored;
  const cents = new Int32Array(buffer.length / 4);
  for (let i = 0; i < cents.length; i++) cents[i] = buffer.readInt32LE(i * 4);
  return cents;
}

function toSeries(points: readonly { date: string; price: number }[]): PriceSeries {
  const first = points[0];
  if (!first) return EMPTY_SERIES;
  return { first: dayNumber(first.date), cents: Int32Array.from(points, (p) => Math.round(p.price * 100)) };
}

/** The daily best prices of a product up to the snapshot day (see PriceSeries). */
export function priceSeries(db: Db, productId: string): PriceSeries {
  if (hasTable(db, 'product_price_series')) {
    const row = stmt(db, 'SELECT first_day, cents FROM product_price_series WHERE id = ?').get(productId) as
      | { first_day: string; cents: Buffer }
      | undefined;
    if (row) return { first: dayNumber(row.first_day), cents: decodeSeries(db, row.cents) };
    // no row: no observations, or a price too large to store as cents (computed below)
  }
  return toSeries(observedDailyBest(db, productId, snapshotDay(db)));
}

/** A product's daily best price up to `until` from its observations (see fillDaily). */
export function observedDailyBest(
  db: Db,
  productId: string,
  until: string,
): { date: string; price: number }[] {
  const rows = stmt(db, observationsSql(db)).all(productId, dayNumber(until)) as (Observation & {
    retailer_id: string;
  })[];
  return fillDaily(rows, until);
}

/**
 * A product's observations up to a day number (its two parameters), by day: retailer_id,
 * offer_id, day (a day number), price, in_stock. Snapshots before schema version 8 key them
 * by UUID and day text (see migrations/008-lean.ts).
 */
function observationsSql(db: Db): string {
  const version = schemaVersion(db);
  // since schema version 9 from the offers' own table, as offersFor reads them (offer-rows.ts)
  if (version >= INTEGER_KEYS_VERSION)
    return `SELECT (SELECT id FROM retailers WHERE rowid = o.retailer_rowid) AS retailer_id,
         po.offer_rowid AS offer_id, po.day, po.cents / 100.0 AS price, po.in_stock
       FROM offer_rows o JOIN price_observations po ON po.offer_rowid = o.rowid
       WHERE o.product_rowid = (SELECT rowid FROM products WHERE id = ?) AND po.day <= ? ORDER BY po.day`;
  return version >= LEAN_VERSION
    ? `SELECT o.retailer_id, po.offer_rowid AS offer_id, po.day, po.cents / 100.0 AS price, po.in_stock
       FROM offers o JOIN price_observations po ON po.offer_rowid = o.rowid
       WHERE o.product_id = ? AND po.day <= ? ORDER BY po.day`
    : `SELECT o.retailer_id, po.offer_id, CAST(julianday(po.day) - 2440587.5 AS INTEGER) AS day, po.price, po.in_stock
       FROM offers o JOIN price_observations po ON po.offer_id = o.id
       WHERE o.product_id = ? AND po.day <= date(? * 86400, 'unixepoch') ORDER BY po.day`;
}

/** The series' days from `from` to `to` (day numbers, inclusive) as points. */
function pointsOf(series: PriceSeries, from: number, to: number): { date: string; price: number }[] {
  const out: { date: string; price: number }[] = [];
  const start = Math.max(from, series.first);
  const end = Math.min(to, series.first + series.cents.length - 1);
  for (let day = start; day <= end; day++)
    out.push({ date: dayName(day), price: (series.cents[day - series.first] as number) / 100 });
  return out;
}

/** Lowest, highest and mean price (rounded to cents) of the series' days from `from` to `to`. */
function statsOf(series: PriceSeries, from: number, to: number) {
  const start = Math.max(from, series.first) - series.first;
  const end = Math.min(to, series.first + series.cents.length - 1) - series.first;
  if (end < start) return null;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let sum = 0;
  for (let i = start; i <= end; i++) {
    const c = series.cents[i] as number;
    if (c < min) min = c;
    if (c > max) max = c;
    sum += c;
  }
  return { min: min / 100, max: max / 100, avg: round2(sum / (end - start + 1) / 100) };
}

/** rising / falling / stable: the current best price against the 30-day average, ±3 %. */
export function trendOf(current: number | null, avg30: number | null): 'rising' | 'falling' | 'stable' {
  if (current === null || avg30 === null || avg30 <= 0) return 'stable';
  const change = (current - avg30) / avg30;
  if (change > TREND_THRESHOLD) return 'rising';
  if (change < -TREND_THRESHOLD) return 'falling';
  return 'stable';
}

/** Within this share above the window low, a price counts as a good deal (camelcamelcamel's 5 %). */
export const NEAR_LOW = 0.05;

/** How a day count reads: "1 day", "90 days". */
const dayCount = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/**
 * The verdict on the current best price (see PriceVerdict): the lowest of the window first
 * (the news a buyer wants), then its distance to the 30-day average. `history` is the window's
 * daily best prices; `days` the window asked for, named in the text only when the history
 * covers all of it ("lowest price in 90 days", else "lowest price in its 12 days of history").
 */
export function priceVerdict(
  current: number | null,
  history: readonly { price: number }[],
  avg30: number | null,
  days: number,
): PriceVerdict {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const { price } of history) {
    if (price < low) low = price;
    if (price > high) high = price;
  }
  const windowDays = history.length;
  const windowLow = windowDays ? low : null;
  const windowHigh = windowDays ? high : null;
  const ratio =
    current !== null && avg30 !== null && avg30 > 0 ? round2(((current - avg30) / avg30) * 100) : null;
  // an average of a fraction of a cent makes any price an overflow, not a percentage
  const vsAvg = ratio !== null && Number.isFinite(ratio) ? ratio : null;
  const nearLow = current !== null && windowLow !== null && current <= windowLow * (1 + NEAR_LOW);
  const base = {
    window_days: windowDays,
    window_low: windowLow,
    window_high: windowHigh,
    vs_avg_30d_percent: vsAvg,
    near_low: nearLow,
  };
  if (current === null) return { ...base, kind: 'no_price', text: 'no retailer has a current price' };
  if (windowLow === null || windowHigh === null)
    return { ...base, kind: 'no_history', text: 'no price history yet' };
  const span = windowDays >= days ? dayCount(days) : `its ${dayCount(windowDays)} of history`;
  if (windowLow === windowHigh && current === windowLow)
    return { ...base, kind: 'unchanged', text: `same price for ${span}` };
  if (current <= windowLow) return { ...base, kind: 'lowest', text: `lowest price in ${span}` };
  const rounded = vsAvg === null ? 0 : Math.round(vsAvg);
  if (vsAvg === null || rounded === 0) return { ...base, kind: 'at_average', text: 'at its 30-day average' };
  return rounded > 0
    ? { ...base, kind: 'above_average', text: `${rounded} % above its 30-day average` }
    : { ...base, kind: 'below_average', text: `${-rounded} % below its 30-day average` };
}

/** Price intelligence of spec §2.12 over the last `days` days (1–365); null for an unknown product. */
export function priceIntelligence(db: Db, productId: string, days: number): PriceIntelligence | null {
  const product = stmt(db, 'SELECT id, name, current_best_price FROM products WHERE id = ?').get(productId) as
    | { id: string; name: string; current_best_price: number | null }
    | undefined;
  if (!product) return null;
  const today = dayNumber(snapshotDay(db));
  const offers = offersFor(db, [productId]).get(productId) ?? [];
  const series = priceSeries(db, productId);
  const ever = statsOf(series, Number.NEGATIVE_INFINITY, today);
  const avg30 = statsOf(series, today - 29, today)?.avg ?? null;
  const history = pointsOf(series, today - days + 1, today);
  return {
    product_id: product.id,
    product_name: product.name,
    days,
    current: {
      best_price: product.current_best_price,
      retailer_count: offers.length,
      retailers: offers.map((o) => ({
        retailer: o.retailer_name,
        price: o.price,
        in_stock: o.in_stock,
        url: o.retailer_url,
        last_seen_at: o.last_seen_at,
      })),
    },
    summary: {
      min_ever: ever?.min ?? null,
      max_ever: ever?.max ?? null,
      avg_30d: avg30,
      trend: trendOf(product.current_best_price, avg30),
    },
    history,
    verdict: priceVerdict(product.current_best_price, history, avg30, days),
  };
}

/** One retailer's daily price over a window: what a price chart draws as one line. */
export interface RetailerPriceLine {
  retailer: string;
  points: { date: string; price: number }[];
}

/**
 * Each retailer's daily price over the last `days` days up to the snapshot day, for charts.
 * A price holds until the offer's next observation (as in fillDaily); a retailer with several
 * offers for the product shows its lowest. Days before an offer's first observation have no
 * point. Lines are sorted by retailer name so colours stay put between windows.
 */
export function retailerPriceLines(db: Db, productId: string, days: number): RetailerPriceLine[] {
  const until = snapshotDay(db);
  const today = dayNumber(until);
  const from = today - days + 1;
  const rows = stmt(db, observationsSql(db)).all(productId, today) as (Observation & {
    retailer_id: string;
  })[];
  const refs = refsOf(db);
  const byRetailer = new Map<
    string,
    { offers: Map<number | string, number>; points: { date: string; price: number }[] }
  >();
  const name = (id: string) => refs.retailer(id)?.name ?? id;
  for (const row of rows) {
    const key = name(row.retailer_id);
    if (!byRetailer.has(key)) byRetailer.set(key, { offers: new Map(), points: [] });
  }
  let i = 0;
  const start = rows[0] ? Math.max(rows[0].day, from) : today + 1;
  // observations before the window only set the starting price
  for (let o = rows[i]; o !== undefined && o.day < start; o = rows[++i])
    byRetailer.get(name(o.retailer_id))?.offers.set(o.offer_id, o.price);
  for (let day = start; day <= today; day++) {
    for (let o = rows[i]; o !== undefined && o.day <= day; o = rows[++i])
      byRetailer.get(name(o.retailer_id))?.offers.set(o.offer_id, o.price);
    for (const line of byRetailer.values()) {
      if (line.offers.size === 0) continue;
      line.points.push({ date: dayName(day), price: round2(Math.min(...line.offers.values())) });
    }
  }
  return [...byRetailer.entries()]
    .filter(([, line]) => line.points.length > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([retailer, line]) => ({ retailer, points: line.points }));
}

/** Signals of spec §4.1 include_signals for several products at once. */
export function signalsFor(
  db: Db,
  products: readonly { id: string; current_best_price: number | null; data_tier: number }[],
): Map<string, Signals> {
  const out = new Map<string, Signals>();
  if (products.length === 0) return out;
  const today = dayNumber(snapshotDay(db));
  const ids = JSON.stringify(products.map((p) => p.id));
  const stock = stmt(
    db,
    schemaVersion(db) >= INTEGER_KEYS_VERSION
      ? `SELECT p.id, SUM(o.in_stock) AS n FROM products p JOIN offer_rows o ON o.product_rowid = p.rowid
         WHERE p.id IN (SELECT value FROM json_each(?)) GROUP BY p.id`
      : `SELECT product_id AS id, SUM(in_stock) AS n FROM offers
         WHERE product_id IN (SELECT value FROM json_each(?)) GROUP BY product_id`,
  ).all(ids) as { id: string; n: number }[];
  const successors = stmt(
    db,
    schemaVersion(db) >= LEAN_VERSION
      ? `SELECT p.id, q.id AS related_id FROM products p
         JOIN relationships r ON r.product_rowid = p.rowid AND r.type = 'successor'
         JOIN products q ON q.rowid = r.related_rowid
         WHERE p.id IN (SELECT value FROM json_each(?)) ORDER BY r.score DESC`
      : `SELECT product_id AS id, related_id FROM relationships
         WHERE type = 'successor' AND product_id IN (SELECT value FROM json_each(?)) ORDER BY score DESC`,
  ).all(ids) as { id: string; related_id: string }[];
  const inStock = new Map(stock.map((s) => [s.id, s.n]));
  const successorOf = new Map<string, string>();
  for (const s of successors) if (!successorOf.has(s.id)) successorOf.set(s.id, s.related_id);
  for (const p of products) {
    const series = priceSeries(db, p.id);
    const avg30 = statsOf(series, today - 29, today)?.avg ?? null;
    const low90 = statsOf(series, today - 89, today)?.min ?? null;
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
