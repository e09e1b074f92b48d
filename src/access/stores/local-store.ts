import { emptyUsage, type UsageCounts, type UsageField, type UsageRow } from '../usage.js';
import type { CounterStore, HitInput, HitResult, UsageSink } from './counter-store.js';

interface Window {
  count: number;
  expiresAt: number;
}

interface MonthEntry {
  keyId: string;
  month: string;
  /** totals: what access.db held when first read, plus everything counted here */
  total: UsageCounts;
  /** counted here and not yet written to access.db */
  unflushed: UsageCounts;
  /** counted here since the last `drainSinceMark` (what Redis missed while it was away) */
  sinceMark: UsageCounts;
}

const addTo = (c: UsageCounts, field: UsageField, by: number) => {
  c[field] += by;
};
const isZero = (c: UsageCounts) => c.requests === 0 && c.cached === 0 && c.errors === 0;

/**
 * Counters of one process: rate windows in memory, monthly usage in memory on top of
 * `access.db`, written back every `flushMs` and on close. Monthly totals start from what
 * `access.db` holds, so a restart continues the month where it stopped. Several processes
 * without Redis each keep their own rate windows (see docs/operations.md).
 */
export class LocalStore implements CounterStore {
  readonly name = 'local';
  readonly #windows = new Map<string, Window>();
  readonly #months = new Map<string, MonthEntry>();
  readonly #timer: NodeJS.Timeout | null;
  readonly #now: () => number;

  constructor(
    private readonly sink: UsageSink,
    options: { flushMs?: number; now?: () => number } = {},
  ) {
    this.#now = options.now ?? Date.now;
    const flushMs = options.flushMs ?? 2000;
    this.#timer =
      flushMs > 0
        ? setInterval(() => {
            this.flushSync();
            this.#sweep();
          }, flushMs)
        : null;
    this.#timer?.unref();
  }

  async hit(input: HitInput): Promise<HitResult> {
    return this.hitSync(input);
  }

  /** Synchronous form of `hit` (no I/O besides the first read of a month from access.db). */
  hitSync(input: HitInput): HitResult {
    const { count, resetMs } = this.#incr(`rl:${input.keyId}`, input.windowMs);
    const entry = this.#month(input.keyId, input.month);
    let blocked: HitResult['blocked'] = null;
    if (count > input.limit) blocked = 'minute';
    else if (input.cap !== null && entry.total.requests >= input.cap) blocked = 'month';
    else if (input.field) this.#count(entry, input.field, 1);
    return { count, resetMs, month: { ...entry.total }, blocked };
  }

  async incrWindow(key: string, windowMs: number) {
    return this.#incr(key, windowMs);
  }

  async add(keyId: string, month: string, field: UsageField, by: number): Promise<void> {
    this.#count(this.#month(keyId, month), field, by);
  }

  async flush(): Promise<void> {
    this.flushSync();
  }

  flushSync(): void {
    const rows: UsageRow[] = [];
    for (const e of this.#months.values()) {
      if (isZero(e.unflushed)) continue;
      rows.push({ keyId: e.keyId, month: e.month, ...e.unflushed });
      e.unflushed = emptyUsage();
    }
    this.sink.add(rows);
  }

  /** What was counted here since the last call: replayed into Redis when it comes back. */
  drainSinceMark(): UsageRow[] {
    const rows: UsageRow[] = [];
    for (const e of this.#months.values()) {
      if (isZero(e.sinceMark)) continue;
      rows.push({ keyId: e.keyId, month: e.month, ...e.sinceMark });
      e.sinceMark = emptyUsage();
    }
    return rows;
  }

  /** Forgets monthly totals so the next hit re-reads access.db (after Redis was the source). */
  forgetMonths(): void {
    this.flushSync();
    this.#months.clear();
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.flushSync();
  }

  #incr(key: string, windowMs: number): { count: number; resetMs: number } {
    const now = this.#now();
    let w = this.#windows.get(key);
    if (!w || w.expiresAt <= now) {
      w = { count: 0, expiresAt: now + windowMs };
      this.#windows.set(key, w);
    }
    w.count += 1;
    return { count: w.count, resetMs: w.expiresAt - now };
  }

  #month(keyId: string, month: string): MonthEntry {
    const id = `${keyId}|${month}`;
    let e = this.#months.get(id);
    if (!e) {
      e = {
        keyId,
        month,
        total: this.sink.get(keyId, month),
        unflushed: emptyUsage(),
        sinceMark: emptyUsage(),
      };
      this.#months.set(id, e);
    }
    return e;
  }

  #count(e: MonthEntry, field: UsageField, by: number): void {
    addTo(e.total, field, by);
    addTo(e.unflushed, field, by);
    addTo(e.sinceMark, field, by);
  }

  #sweep(): void {
    const now = this.#now();
    for (const [key, w] of this.#windows) if (w.expiresAt <= now) this.#windows.delete(key);
  }
}
