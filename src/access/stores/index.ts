import type { CounterStore, StoreLogger, UsageSink } from './counter-store.js';
import { FallbackStore } from './fallback-store.js';
import { LocalStore } from './local-store.js';
import { connectRedis, RedisStore } from './redis-store.js';

export type { CounterStore, HitInput, HitResult, StoreLogger, UsageSink } from './counter-store.js';
export { FallbackStore, MONTH_TTL_MS } from './fallback-store.js';
export { LocalStore } from './local-store.js';
export { connectRedis, RedisStore } from './redis-store.js';

export interface CounterStoreOptions {
  /** where usage is kept for reports and restarts (access.db) */
  sink: UsageSink;
  /** with a URL, counters live in Redis (falling back to local counters while it is away) */
  redisUrl?: string;
  /** how often usage is written to access.db, ms (default 2000) */
  flushMs?: number;
  log: StoreLogger;
}

/** The store for a deployment: local counters, or Redis with a local fallback. */
export function createCounterStore(options: CounterStoreOptions): CounterStore {
  const local = new LocalStore(options.sink, { flushMs: options.flushMs });
  if (!options.redisUrl) return local;
  const redis = new RedisStore(connectRedis(options.redisUrl), options.sink);
  return new FallbackStore(redis, local, options.log, { flushMs: options.flushMs });
}
