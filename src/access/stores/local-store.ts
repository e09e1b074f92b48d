import { emptyUsage, type UsageCounts, type UsageField, type UsageRow } from '../usage.js';
import type { CounterStore, HitInput, HitResult, UsageSink, WindowCount } from './counter-store.js';
import { SlidingLog } from './sliding-log.js';

interface MonthEntry {
  keyId: string;
  month: string;
  /** totals: what the sink held when first read, plus everything counted here */
  total: UsageCounts;
  /** counted here and not yet written to the sink */
  unflushed: UsageCounts;
}

/** A request counted here while Redis was away, replayed into Redis when it is back. */
export interface PendingHit {
  keyId: string;
  month: string;
  /** when it was accepted, by this process's clock (ms) */
  at: number;
  /** the id Redis would have stored it under: replay skips a request Redis counted after all */
  member: string;
  field: 'requests' | 'cached' | null;
  windowMs: number;
  monthTtlMs: number;
}

/** What Redis missed while it was away: recent requests one by one, older usage as sums. */
export interface Pending {
  hits: PendingHit[];
  counts: UsageRow[];
}

const addTo = (c: UsageCounts, field: UsageField, by: number) => {
  c[field] += by;
};
const isZero = (c: UsageCounts) => c.requests === 0 && c.cached === 0 && c.errors === 0;

/**
 * Counters of one process: rolling windows in memory (an exact sliding log per key), monthly
 * usage in memory on top of its sink (`access.db`), written back every `flushMs` (0: only
 * when asked) and on close. Monthly totals start from what the sink holds, so a restart
 * continues the month where it stopped. Several processes without Redis each keep their own
 * windows (see docs/operations.md). Behind a `FallbackStore` it also keeps what Redis missed
 * (`trackPending`) and applies a replica's share of each limit (`share`).
 */
export class LocalStore implements CounterStore {
  readonly name = 'local';
  /** rolling windows of other counts (failed authentications, MCP messages) by their key */
  readonly #logs = new Map<string, SlidingLog>();
  /**
   * each API key's rolling window of requests, by key id, and monthly entries by month then
   * key id: looked up on every request, by the strings the request has (no key made per request)
   */
  readonly #rateLogs = new Map<string, SlidingLog>();
  readonly #months = new Map<string, Map<string, MonthEntry>>();
  readonly #timer: NodeJS.Timeout | null;
  readonly #now: () => number;
  readonly #trackPending: boolean;
  #pendingHits: PendingHit[] = [];
  readonly #pendingCounts = new Map<string, UsageRow>();
  #seq = 0;
  /** replicas sharing a limit while each counts alone: each allows this fraction of it */
  #share = 1;

  constructor(
    private readonly sink: UsageSink,
    options: { flushMs?: number; now?: () => number; trackPending?: boolean } = {},
  ) {
    this.#now = options.now ?? Date.now;
    this.#trackPending = options.trackPending ?? false;
    const flushMs = options.flushMs ?? 2000;
    this.#timer =
      flushMs > 0
        ? setInterval(() => {
            this.flushSync();
            this.sweep();
          }, flushMs)
        : null;
    this.#timer?.unref();
  }

  async hit(input: HitInput): Promise<HitResult> {
    return this.hitSync(input);
  }

  /** Synchronous form of `hit` (no I/O besides the first read of a month from the sink). */
  hitSync(input: HitInput, member?: string): HitResult {
    const now = this.#now();
    const log = this.#log(this.#rateLogs, input.keyId);
    let count = log.prune(now, input.windowMs);
    // a replica counting alone takes only its share, so N replicas together stay within the limit
    const limit = Math.max(1, Math.floor(input.limit / this.#share));
    const entry = this.#month(input.keyId, input.month);
    let blocked: HitResult['blocked'] = null;
    if (count >= limit) blocked = 'minute';
    else if (input.cap !== null && entry.total.requests >= input.cap) blocked = 'month';
    else {
      log.add(now);
      count += 1;
      if (input.field) this.#count(entry, input.field, 1);
      if (this.#trackPending)
        this.#pendingHits.push({
          keyId: input.keyId,
          month: input.month,
          at: now,
          member: member ?? `l${process.pid}.${now}.${++this.#seq}`,
          field: input.field,
          windowMs: input.windowMs,
          monthTtlMs: input.monthTtlMs,
        });
    }
    return { count, resetMs: log.resetMs(now, input.windowMs), month: { ...entry.total }, blocked };
  }

  /**
   * Notes a request that Redis accepted, at this process's time: the rolling window this
   * process falls back to then already holds the requests it served just before.
   */
  record(keyId: string, at: number = this.#now()): void {
    this.#log(this.#rateLogs, keyId).add(at);
  }

  /** Sets how many replicas share each limit while counting alone (1: this one alone). */
  setShare(replicas: number): void {
    this.#share = Math.max(1, Math.floor(replicas));
  }

  async incrWindow(key: string, windowMs: number, max: number): Promise<WindowCount> {
    const now = this.#now();
    const log = this.#log(this.#logs, key);
    let count = log.prune(now, windowMs);
    if (count < max) {
      log.add(now);
      count += 1;
    }
    return { count, resetMs: log.resetMs(now, windowMs) };
  }

  async add(keyId: string, month: string, field: UsageField, by: number): Promise<void> {
    const entry = this.#month(keyId, month);
    this.#count(entry, field, by);
    if (this.#trackPending) {
      const id = `${keyId}|${month}`;
      const row = this.#pendingCounts.get(id) ?? { keyId, month, ...emptyUsage() };
      addTo(row, field, by);
      this.#pendingCounts.set(id, row);
    }
  }

  async flush(): Promise<void> {
    this.flushSync();
  }

  flushSync(): void {
    const rows: UsageRow[] = [];
    for (const entries of this.#months.values())
      for (const e of entries.values()) {
        if (isZero(e.unflushed)) continue;
        rows.push({ keyId: e.keyId, month: e.month, ...e.unflushed });
        e.unflushed = emptyUsage();
      }
    this.sink.add(rows);
  }

  /** Everything counted here since the last call (what Redis missed), and forgets it. */
  drainPending(): Pending {
    const pending = { hits: this.#pendingHits, counts: [...this.#pendingCounts.values()] };
    this.#pendingHits = [];
    this.#pendingCounts.clear();
    return pending;
  }

  /** Puts back what a failed replay did not write. */
  restorePending(pending: Pending): void {
    this.#pendingHits = [...pending.hits, ...this.#pendingHits];
    for (const r of pending.counts) {
      const id = `${r.keyId}|${r.month}`;
      const row = this.#pendingCounts.get(id) ?? { keyId: r.keyId, month: r.month, ...emptyUsage() };
      row.requests += r.requests;
      row.cached += r.cached;
      row.errors += r.errors;
      this.#pendingCounts.set(id, row);
    }
  }

  /** Counts waiting for Redis (requests and cache hits one by one, errors as sums). */
  get pendingSize(): number {
    return this.#pendingHits.length + this.#pendingCounts.size;
  }

  /**
   * Forgets monthly totals and pending counts so the next hit re-reads the sink: used when
   * Redis, the source until now, goes away (the sink holds the last totals read from it).
   */
  forgetMonths(): void {
    this.#months.clear();
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.flushSync();
  }

  /** Drops windows that emptied; pending hits past their window become sums (bounded memory). */
  sweep(): void {
    const now = this.#now();
    for (const logs of [this.#logs, this.#rateLogs])
      for (const [key, log] of logs) if (log.prune(now) === 0) logs.delete(key);
    if (this.#pendingHits.length > 0 && (this.#pendingHits[0] as PendingHit).at < now - 120_000) {
      const keep: PendingHit[] = [];
      for (const h of this.#pendingHits) {
        if (h.at >= now - 120_000) keep.push(h);
        else if (h.field) {
          const id = `${h.keyId}|${h.month}`;
          const row = this.#pendingCounts.get(id) ?? { keyId: h.keyId, month: h.month, ...emptyUsage() };
          addTo(row, h.field, 1);
          this.#pendingCounts.set(id, row);
        }
      }
      this.#pendingHits = keep;
    }
  }

  #log(logs: Map<string, SlidingLog>, key: string): SlidingLog {
    let log = logs.get(key);
    if (!log) {
      log = new SlidingLog();
      logs.set(key, log);
    }
    return log;
  }

  #month(keyId: string, month: string): MonthEntry {
    let entries = this.#months.get(month);
    if (!entries) {
      entries = new Map();
      this.#months.set(month, entries);
    }
    let e = entries.get(keyId);
    if (!e) {
      e = { keyId, month, total: this.sink.get(keyId, month), unflushed: emptyUsage() };
      entries.set(keyId, e);
    }
    return e;
  }

  #count(e: MonthEntry, field: UsageField, by: number): void {
    addTo(e.total, field, by);
    addTo(e.unflushed, field, by);
  }
}
