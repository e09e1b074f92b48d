import type { CounterStore, StoreLogger, UsageSink } from './counter-store.js';
import { type FallbackOptions, FallbackStore } from './fallback-store.js';
import { LocalStore } from './local-store.js';
import { connectRedis, RedisStore } from './redis-store.js';

export type {
  CounterStore,
  HitInput,
  HitResult,
  StoreLogger,
  UsageSink,
  WindowCount,
} from './counter-store.js';
export { type FallbackOptions, FallbackStore, MONTH_TTL_MS } from './fallback-store.js';
export { LocalStore, type Pending, type PendingHit } from './local-store.js';
export { MemoryUsageSink } from './memory-sink.js';
export { connectRedis, RedisStore, randomMember, redisKeys } from './redis-store.js';
export { SlidingLog } from './sliding-log.js';

export interface CounterStoreOptions extends FallbackOptions {
  /** where usage is kept for reports and restarts (access.db; memory with Redis) */
  sink: UsageSink;
  /** with a URL, counters live in Redis (falling back to local counters while it is away) */
  redisUrl?: string;
  log: StoreLogger;
}

/** The store for a deployment: local counters, or Redis with a local fallback. */
export function createCounterStore(options: CounterStoreOptions): CounterStore {
  if (!options.redisUrl) return new LocalStore(options.sink, { flushMs: options.flushMs });
  // local counts made while Redis is away wait in memory for Redis's return
  const local = new LocalStore(options.sink, { flushMs: 0, trackPending: true });
  const redis = new RedisStore(
    connectRedis(options.redisUrl, { commandTimeoutMs: options.healthTimeoutMs }),
    options.sink,
  );
  return new FallbackStore(redis, local, options.log, options);
}
