import type { UsageCounts, UsageField, UsageRow } from '../usage.js';

/** One metered request, as the limiter asks the store to count it. */
export interface HitInput {
  keyId: string;
  /** per-minute limit of the key's plan */
  limit: number;
  /** length of the rolling rate window, ms (60 000) */
  windowMs: number;
  /** `YYYY-MM` (UTC) */
  month: string;
  /** how long the month's counters must live, ms (until a while after the month ends) */
  monthTtlMs: number;
  /** the monthly field this request adds to: `requests`, `cached` (cache hits), or none */
  field: 'requests' | 'cached' | null;
  /** stop at this many monthly requests (Free plan); null: never stop (paid plans, test keys) */
  cap: number | null;
}

export interface HitResult {
  /** requests accepted in the rolling window ending now, this one included when accepted */
  count: number;
  /** ms until the oldest request of the window leaves it (one more request is allowed then) */
  resetMs: number;
  /** this month's counters after this request */
  month: UsageCounts;
  /** why the request was refused, if it was; refused requests count neither in the window nor the month */
  blocked: null | 'minute' | 'month';
}

/** A rolling count of events (failed authentications of one address or key prefix). */
export interface WindowCount {
  /** events in the rolling window ending now, this one included */
  count: number;
  /** ms until the oldest of them leaves the window */
  resetMs: number;
}

/**
 * The counters behind keys' limits and usage, with one implementation per deployment shape
 * (like @fastify/rate-limit's LocalStore and RedisStore): `LocalStore` keeps them in memory
 * and `access.db`; `RedisStore` keeps them in Redis so replicas share one limit;
 * `FallbackStore` uses Redis and falls back to local counters while Redis is away.
 *
 * Rate windows are rolling (a sliding log of accepted requests, as rate-limiter-flexible's
 * and Cloudflare's exact limiters keep): no rolling window of `windowMs` ever holds more than
 * `limit` accepted requests, so there is no boundary at which a key gets twice its limit.
 */
export interface CounterStore {
  readonly name: string;
  /** Counts one request against the key's rolling window and month, atomically. */
  hit(input: HitInput): Promise<HitResult>;
  /** `hit` answered at once, by stores that count in memory (absent where counting waits on I/O). */
  hitSync?(input: HitInput): HitResult;
  /**
   * Counts one event in a rolling window of `windowMs` (failed authentications). Past `max`
   * events in the window further ones are not stored (the count stays at `max`), which
   * bounds the memory a flood can take.
   */
  incrWindow(key: string, windowMs: number, max: number): Promise<WindowCount>;
  /** Adds to a monthly field without any limit (errors). */
  add(keyId: string, month: string, field: UsageField, by: number, monthTtlMs: number): Promise<void>;
  /** Writes pending usage to its sink (local deltas, or Redis totals). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Where a store writes usage rows for reports (access.db; memory with Redis). */
export interface UsageSink {
  get(keyId: string, month: string): UsageCounts;
  add(rows: readonly UsageRow[]): void;
  mirror(rows: readonly UsageRow[]): void;
}

/** The narrow logger the stores need (pino's and Fastify's loggers fit). */
export interface StoreLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error?(obj: object, msg: string): void;
}
