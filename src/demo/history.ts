import type { Random } from './random.js';

/** One point of a listing's price history: the day a price or stock state began. */
export interface PricePoint {
  day: string;
  price: number;
  salePrice: number | null;
  inStock: boolean;
}

const DAY = 86_400_000;
export const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

// a demo writes the same 365 days on about two million history rows
const dayNames = new Map<number, string>();
const dayName = (ms: number): string => {
  let name = dayNames.get(ms);
  if (name === undefined) {
    name = isoDay(ms);
    if (dayNames.size < 4096) dayNames.set(ms, name);
  }
  return name;
};

/** nth weekday (0 = Sunday) of a month, UTC; n = -1 for the last one. */
function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  if (n > 0) {
    const first = Date.UTC(year, month, 1);
    const offset = (weekday - new Date(first).getUTCDay() + 7) % 7;
    return first + (offset + 7 * (n - 1)) * DAY;
  }
  const last = Date.UTC(year, month + 1, 0);
  return last - ((new Date(last).getUTCDay() - weekday + 7) % 7) * DAY;
}

/** US retail sale events: [first day, length in days]. */
export function saleEvents(years: number[]): [number, number][] {
  return years.flatMap(
    (y) =>
      [
        [nthWeekday(y, 1, 1, 3) - 3 * DAY, 7], // Presidents Day
        [nthWeekday(y, 4, 1, -1) - 5 * DAY, 8], // Memorial Day
        [Date.UTC(y, 6, 1), 7], // Fourth of July
        [nthWeekday(y, 8, 1, 1) - 5 * DAY, 8], // Labor Day
        [nthWeekday(y, 10, 4, 4) - 3 * DAY, 8], // Black Friday to Cyber Monday
      ] as [number, number][],
  );
}

/**
 * A year of daily prices for one listing, returned as change points only (a price holds until
 * the next point): a slow trend, the retailer's holiday sales, occasional price drops and
 * stock-outs.
 */
export function priceHistory(args: {
  rnd: Random;
  listPrice: number;
  drift: number;
  retailerFactor: number;
  events: [number, number][];
  endMs: number;
  days: number;
  discontinuedFromDay: number | null;
  /** evaluate every day instead of the change days only: the reference the fast walk is tested against */
  everyDay?: boolean;
}): PricePoint[] {
  const { rnd, listPrice, drift, retailerFactor, endMs, days } = args;
  const events = args.events
    .filter(() => rnd.chance(0.6))
    .map(([start, len]) => ({ start, len, off: 0.1 + rnd.next() * 0.15 }));
  const dropStart = rnd.chance(0.4) ? rnd.int(0, days - 30) : -1;
  const dropLen = rnd.int(7, 28);
  const dropOff = 0.05 + rnd.next() * 0.12;
  const outStart = rnd.chance(0.15) ? rnd.int(0, days - 10) : -1;
  const outLen = rnd.int(3, 20);
  // retailers reprice in steps, every four to eight weeks, not daily
  const period = rnd.int(28, 56);
  const phase = rnd.int(0, period - 1);
  // the price is piecewise constant: it can only change on a repricing day, the first or the
  // day after the last day of a sale, drop or stock-out, so only those days are evaluated
  // (the same points as walking every day; 20-odd evaluations instead of 365 per listing)
  const firstMs = endMs - (days - 1) * DAY;
  const dayOf = (ms: number) => Math.ceil((ms - firstMs) / DAY);
  const cuts: number[] = [0];
  if (args.everyDay) for (let d = 1; d < days; d++) cuts.push(d);
  else {
    for (let d = (period - (phase % period)) % period; d < days; d += period) cuts.push(d);
    for (const e of events) cuts.push(dayOf(e.start), dayOf(e.start + e.len * DAY));
    if (dropStart >= 0) cuts.push(dropStart, dropStart + dropLen);
    if (outStart >= 0) cuts.push(outStart, outStart + outLen);
    cuts.sort((a, b) => a - b);
  }
  const stop = args.discontinuedFromDay === null ? days : Math.min(days, args.discontinuedFromDay);
  const points: PricePoint[] = [];
  let last: PricePoint | null = null;
  for (let i = 0; i < cuts.length; i++) {
    const d = cuts[i]!;
    if (d < 0 || (i > 0 && d === cuts[i - 1])) continue;
    if (d >= stop) break;
    const ms = firstMs + d * DAY;
    const t = (Math.floor((d + phase) / period) * period - phase) / Math.max(1, days - 1);
    const regular =
      Math.round(listPrice * retailerFactor * (1 + drift * Math.max(0, t)) * 100) / 100 -
      (listPrice > 20 ? 0.01 : 0);
    const event = events.find((e) => ms >= e.start && ms < e.start + e.len * DAY);
    let sale: number | null = event ? regular * (1 - event.off) : null;
    if (dropStart >= 0 && d >= dropStart && d < dropStart + dropLen)
      sale = Math.min(sale ?? regular, regular * (1 - dropOff));
    const salePrice =
      sale === null
        ? null
        : Math.floor(sale) + 0.99 < regular
          ? Math.floor(sale) + 0.99
          : Math.round(sale * 100) / 100;
    const inStock = !(outStart >= 0 && d >= outStart && d < outStart + outLen);
    if (!last || last.price !== regular || last.salePrice !== salePrice || last.inStock !== inStock) {
      last = { day: dayName(ms), price: regular, salePrice, inStock };
      points.push(last);
    }
  }
  return points;
}
