import { Redis } from 'ioredis';
import { emptyUsage, type UsageField, type UsageRow } from '../usage.js';
import type { CounterStore, HitInput, HitResult, UsageSink, WindowCount } from './counter-store.js';
import type { PendingHit } from './local-store.js';

/** Redis's clock in ms (with µs as the fraction): every replica's requests on one clock. */
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
`;

/**
 * One request, atomically: drop the requests that left the key's rolling window (a sorted
 * set of accepted requests scored by time), refuse when the window is full or the monthly
 * cap is reached, else add this one to the window and the month. Replicas running this
 * script against one Redis share exactly one limit, on Redis's clock.
 * KEYS: window, month hash. ARGV: windowMs, limit, field, cap (-1: none), month ttl ms, member.
 * Returns count, ms until the oldest request leaves, requests, cached, errors, blocked, now.
 */
const HIT = `${NOW}
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local requests = tonumber(redis.call('HGET', KEYS[2], 'requests') or '0')
local cached = tonumber(redis.call('HGET', KEYS[2], 'cached') or '0')
local errors = tonumber(redis.call('HGET', KEYS[2], 'errors') or '0')
local blocked = 0
local cap = tonumber(ARGV[4])
if count >= tonumber(ARGV[2]) then
  blocked = 1
elseif cap >= 0 and requests >= cap then
  blocked = 2
else
  redis.call('ZADD', KEYS[1], now, ARGV[6])
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + 1
  if ARGV[3] ~= '' then
    local value = redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
    if ARGV[3] == 'requests' then requests = value else cached = value end
    redis.call('PEXPIRE', KEYS[2], ARGV[5])
  end
end
local reset = window
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if oldest[2] then reset = math.max(0, math.ceil(tonumber(oldest[2]) + window - now)) end
return {count, reset, requests, cached, errors, blocked, tostring(now)}
`;

/**
 * One event in a rolling window (failed authentications), stored unless the window already
 * holds ARGV[3] events. KEYS: window. ARGV: windowMs, member, max.
 */
const WINDOW = `${NOW}
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + 1
end
local reset = window
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if oldest[2] then reset = math.max(0, math.ceil(tonumber(oldest[2]) + window - now)) end
return {count, reset}
`;

/**
 * A request a replica served on its own while Redis was away. Skipped when Redis holds its
 * id already (the original command reached Redis after all, before timing out at the
 * replica); else added to the rolling window (if still in it) and to the month.
 * KEYS: window, month hash. ARGV: member, time (Redis clock, ms), field, windowMs, month ttl.
 */
const REPLAY = `${NOW}
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
local at = tonumber(ARGV[2])
local window = tonumber(ARGV[4])
if at > now - window then
  redis.call('ZADD', KEYS[1], at, ARGV[1])
  redis.call('PEXPIRE', KEYS[1], window)
end
if ARGV[3] ~= '' then
  redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
  redis.call('PEXPIRE', KEYS[2], ARGV[5])
end
return 1
`;

/**
 * Starts a month's counters from what the sink remembers when Redis has none (Redis that
 * lost its data). Only when the hash is missing, so replicas replaying their outage counts
 * add to one baseline. KEYS: month hash. ARGV: requests, cached, errors, ttl ms.
 */
const SEED = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'requests', ARGV[1], 'cached', ARGV[2], 'errors', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`;

/**
 * The health check: records this replica as alive, forgets replicas silent for ARGV[2] ms,
 * and answers how many are alive and Redis's time. KEYS: replica set. ARGV: replica id, ttl.
 */
const HEARTBEAT = `${NOW}
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl)
redis.call('PEXPIRE', KEYS[1], ttl * 10)
return {redis.call('ZCARD', KEYS[1]), tostring(now)}
`;

type ShelfRedis = Redis & {
  shelfHit(
    window: string,
    month: string,
    ...argv: (string | number)[]
  ): Promise<[number, number, number, number, number, number, string]>;
  shelfWindow(key: string, windowMs: number, member: string, max: number): Promise<[number, number]>;
  shelfReplay(window: string, month: string, ...argv: (string | number)[]): Promise<number>;
  shelfSeed(month: string, ...argv: number[]): Promise<number>;
  shelfHeartbeat(set: string, id: string, ttlMs: number): Promise<[number, string]>;
};

/** Key names, all under one prefix so several deployments can share a Redis. */
export const redisKeys = (prefix: string) => ({
  rate: (keyId: string) => `${prefix}rl:${keyId}`,
  month: (keyId: string, month: string) => `${prefix}usage:${keyId}:${month}`,
  window: (key: string) => `${prefix}w:${key}`,
  replicas: () => `${prefix}replicas`,
});

/**
 * Connects to Redis for counters: fail fast (no offline queue), a command waits at most
 * `commandTimeoutMs` (a stalled Redis keeps the socket open and answers nothing), reconnect
 * forever.
 */
export function connectRedis(url: string, options: { commandTimeoutMs?: number } = {}): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 1000,
    connectTimeout: 2000,
    lazyConnect: false,
    retryStrategy: (times) => Math.min(200 * times, 1000),
  });
}

/** Counters in Redis: the source of truth for limits and usage when `REDIS_URL` is set. */
export class RedisStore implements CounterStore {
  readonly name = 'redis';
  readonly redis: ShelfRedis;
  readonly #keys: ReturnType<typeof redisKeys>;
  /** months already raised to the sink's totals since the last (re)connect */
  readonly #seeded = new Set<string>();
  /**
   * (key, month) pairs this replica counted in the last 10 minutes: each flush reads their
   * totals again, so the copy keeps up with what the other replicas count for the same keys
   */
  readonly #touched = new Map<string, { keyId: string; month: string; ttl: number; at: number }>();
  /** Redis's clock minus this process's, ms (from the last answer that carried Redis's time) */
  clockOffsetMs = 0;

  constructor(
    redis: Redis,
    private readonly sink: UsageSink,
    options: { prefix?: string } = {},
  ) {
    this.#keys = redisKeys(options.prefix ?? 'shelf:');
    redis.defineCommand('shelfHit', { numberOfKeys: 2, lua: HIT });
    redis.defineCommand('shelfWindow', { numberOfKeys: 1, lua: WINDOW });
    redis.defineCommand('shelfReplay', { numberOfKeys: 2, lua: REPLAY });
    redis.defineCommand('shelfSeed', { numberOfKeys: 1, lua: SEED });
    redis.defineCommand('shelfHeartbeat', { numberOfKeys: 1, lua: HEARTBEAT });
    this.redis = redis as ShelfRedis;
    this.redis.on('ready', () => this.#seeded.clear());
  }

  get ready(): boolean {
    return this.redis.status === 'ready';
  }

  async hit(input: HitInput, member: string = randomMember()): Promise<HitResult> {
    const monthKey = this.#keys.month(input.keyId, input.month);
    await this.#seed(input.keyId, input.month, input.monthTtlMs);
    const sent = Date.now();
    const [count, reset, requests, cached, errors, blocked, now] = await this.redis.shelfHit(
      this.#keys.rate(input.keyId),
      monthKey,
      input.windowMs,
      input.limit,
      input.field ?? '',
      input.cap ?? -1,
      input.monthTtlMs,
      member,
    );
    this.#clock(sent, now);
    this.#touch(input.keyId, input.month, input.monthTtlMs);
    return {
      count: Number(count),
      resetMs: Number(reset),
      month: { requests: Number(requests), cached: Number(cached), errors: Number(errors) },
      blocked: blocked === 1 ? 'minute' : blocked === 2 ? 'month' : null,
    };
  }

  async incrWindow(key: string, windowMs: number, max: number): Promise<WindowCount> {
    const [count, reset] = await this.redis.shelfWindow(
      this.#keys.window(key),
      windowMs,
      randomMember(),
      max,
    );
    return { count: Number(count), resetMs: Number(reset) };
  }

  async add(keyId: string, month: string, field: UsageField, by: number, monthTtlMs: number) {
    const key = this.#keys.month(keyId, month);
    await this.redis.multi().hincrby(key, field, by).pexpire(key, monthTtlMs).exec();
    this.#touch(keyId, month, monthTtlMs);
  }

  /**
   * Health check and replica count in one round trip: records this replica as alive and
   * answers how many replicas were alive in the last `ttlMs`. Rejects after `timeoutMs`.
   */
  async heartbeat(replicaId: string, ttlMs: number, timeoutMs: number): Promise<number> {
    const sent = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new Error(`no answer from Redis within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const [replicas, now] = await Promise.race([
        this.redis.shelfHeartbeat(this.#keys.replicas(), replicaId, ttlMs),
        timeout,
      ]);
      this.#clock(sent, now);
      return Number(replicas);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Takes this replica out of the count of live replicas (graceful shutdown). */
  async leave(replicaId: string): Promise<void> {
    await this.redis.zrem(this.#keys.replicas(), replicaId);
  }

  /**
   * Adds what a replica counted alone while Redis was away: each request into its rolling
   * window (on Redis's clock) and month, unless Redis counted it already; older sums by month.
   */
  async replay(
    hits: readonly PendingHit[],
    counts: readonly UsageRow[],
    monthTtlMs: number,
  ): Promise<number> {
    let added = 0;
    const months = new Map<string, { keyId: string; month: string }>();
    for (const h of hits) months.set(`${h.keyId}|${h.month}`, h);
    for (const r of counts) months.set(`${r.keyId}|${r.month}`, r);
    for (const m of months.values()) await this.#seed(m.keyId, m.month, monthTtlMs);
    for (let i = 0; i < hits.length; i += 500) {
      const pipeline = this.redis.pipeline() as unknown as Pick<ShelfRedis, 'shelfReplay'> & {
        exec(): Promise<[Error | null, unknown][] | null>;
      };
      for (const h of hits.slice(i, i + 500))
        void pipeline.shelfReplay(
          this.#keys.rate(h.keyId),
          this.#keys.month(h.keyId, h.month),
          h.member,
          h.at + this.clockOffsetMs,
          h.field ?? '',
          h.windowMs,
          h.monthTtlMs,
        );
      for (const [error, result] of (await pipeline.exec()) ?? []) {
        if (error) throw error;
        added += Number(result);
      }
    }
    for (const r of counts) {
      const key = this.#keys.month(r.keyId, r.month);
      const multi = this.redis.multi();
      for (const field of ['requests', 'cached', 'errors'] as const)
        if (r[field]) multi.hincrby(key, field, r[field]);
      await multi.pexpire(key, monthTtlMs).exec();
    }
    for (const m of months.values()) this.#touch(m.keyId, m.month, monthTtlMs);
    return added;
  }

  /** Reads months' totals of the given keys (for `shelf keys usage`). */
  async read(pairs: readonly { keyId: string; month: string }[]): Promise<UsageRow[]> {
    if (pairs.length === 0) return [];
    const multi = this.redis.multi();
    for (const p of pairs) multi.hgetall(this.#keys.month(p.keyId, p.month));
    const results = (await multi.exec()) ?? [];
    return pairs.map((p, i) => {
      const fields = (results[i]?.[1] ?? {}) as Record<string, string>;
      const counts = emptyUsage();
      for (const f of ['requests', 'cached', 'errors'] as const) counts[f] = Number(fields[f] ?? 0);
      return { ...p, ...counts };
    });
  }

  /** Copies the totals of the months counted lately into the sink. */
  async flush(): Promise<void> {
    const recent = Date.now() - 10 * 60_000;
    for (const [id, p] of this.#touched) if (p.at < recent) this.#touched.delete(id);
    if (this.#touched.size === 0 || !this.ready) return;
    this.sink.mirror(await this.read([...this.#touched.values()]));
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.redis.disconnect();
    }
  }

  #clock(sent: number, redisNow: string): void {
    // Redis answered between `sent` and now: take the middle as the moment it read its clock
    const local = (sent + Date.now()) / 2;
    this.clockOffsetMs = Number(redisNow) - local;
  }

  async #seed(keyId: string, month: string, ttl: number): Promise<void> {
    const id = `${keyId}|${month}`;
    if (this.#seeded.has(id)) return;
    const known = this.sink.get(keyId, month);
    await this.redis.shelfSeed(
      this.#keys.month(keyId, month),
      known.requests,
      known.cached,
      known.errors,
      ttl,
    );
    this.#seeded.add(id);
  }

  #touch(keyId: string, month: string, ttl: number): void {
    this.#touched.set(`${keyId}|${month}`, { keyId, month, ttl, at: Date.now() });
  }
}

let sequence = 0;
const token = `${process.pid.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
/** A request's id in a rolling window: unique across replicas (process token + sequence). */
export const randomMember = (): string => `${token}.${(++sequence).toString(36)}`;
