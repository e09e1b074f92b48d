import { Redis } from 'ioredis';
import { emptyUsage, type UsageField, type UsageRow } from '../usage.js';
import type { CounterStore, HitInput, HitResult, UsageSink } from './counter-store.js';

/**
 * One request, atomically: count it in the key's rate window (which starts at its first
 * request, like @fastify/rate-limit), then, unless it is over the minute limit or the
 * monthly cap, add it to the month. Replicas running this script against one Redis share
 * exactly one limit.
 * KEYS: rate window, month hash. ARGV: windowMs, limit, field, cap (-1: none), month ttl ms.
 */
const HIT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
local requests = tonumber(redis.call('HGET', KEYS[2], 'requests') or '0')
local cached = tonumber(redis.call('HGET', KEYS[2], 'cached') or '0')
local errors = tonumber(redis.call('HGET', KEYS[2], 'errors') or '0')
local blocked = 0
local cap = tonumber(ARGV[4])
if count > tonumber(ARGV[2]) then
  blocked = 1
elseif cap >= 0 and requests >= cap then
  blocked = 2
elseif ARGV[3] ~= '' then
  local value = redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
  if ARGV[3] == 'requests' then requests = value else cached = value end
  redis.call('PEXPIRE', KEYS[2], ARGV[5])
end
return {count, ttl, requests, cached, errors, blocked}
`;

/** A plain fixed window. KEYS: window. ARGV: windowMs. */
const WINDOW = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/**
 * Raises the month's fields to at least what access.db remembers (Redis without persistence
 * forgets everything on restart; the mirror in access.db does not).
 * KEYS: month hash. ARGV: requests, cached, errors, ttl ms.
 */
const SEED = `
local fields = {'requests', 'cached', 'errors'}
for i, field in ipairs(fields) do
  local have = tonumber(redis.call('HGET', KEYS[1], field) or '0')
  local want = tonumber(ARGV[i])
  if want > have then redis.call('HSET', KEYS[1], field, want) end
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`;

type ShelfRedis = Redis & {
  shelfHit(rate: string, month: string, ...argv: (string | number)[]): Promise<number[]>;
  shelfWindow(key: string, windowMs: number): Promise<number[]>;
  shelfSeed(month: string, ...argv: number[]): Promise<number>;
};

/** Key names, all under one prefix so several deployments can share a Redis. */
const keys = (prefix: string) => ({
  rate: (keyId: string) => `${prefix}rl:${keyId}`,
  month: (keyId: string, month: string) => `${prefix}usage:${keyId}:${month}`,
  window: (key: string) => `${prefix}w:${key}`,
});

/** Connects to Redis for counters: fail fast (no offline queue), reconnect forever. */
export function connectRedis(url: string): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    connectTimeout: 2000,
    lazyConnect: false,
    retryStrategy: (times) => Math.min(200 * times, 1000),
  });
}

/** Counters in Redis: the source of truth for limits and usage when `REDIS_URL` is set. */
export class RedisStore implements CounterStore {
  readonly name = 'redis';
  readonly redis: ShelfRedis;
  readonly #keys: ReturnType<typeof keys>;
  /** months already raised to access.db's totals since the last (re)connect */
  readonly #seeded = new Set<string>();
  /** (key, month) pairs counted since the last mirror to access.db */
  readonly #touched = new Map<string, { keyId: string; month: string; ttl: number }>();

  constructor(
    redis: Redis,
    private readonly sink: UsageSink,
    options: { prefix?: string } = {},
  ) {
    this.#keys = keys(options.prefix ?? 'shelf:');
    redis.defineCommand('shelfHit', { numberOfKeys: 2, lua: HIT });
    redis.defineCommand('shelfWindow', { numberOfKeys: 1, lua: WINDOW });
    redis.defineCommand('shelfSeed', { numberOfKeys: 1, lua: SEED });
    this.redis = redis as ShelfRedis;
    this.redis.on('ready', () => this.#seeded.clear());
  }

  get ready(): boolean {
    return this.redis.status === 'ready';
  }

  async hit(input: HitInput): Promise<HitResult> {
    const monthKey = this.#keys.month(input.keyId, input.month);
    await this.#seed(input.keyId, input.month, input.monthTtlMs);
    const [count, ttl, requests, cached, errors, blocked] = await this.redis.shelfHit(
      this.#keys.rate(input.keyId),
      monthKey,
      input.windowMs,
      input.limit,
      input.field ?? '',
      input.cap ?? -1,
      input.monthTtlMs,
    );
    this.#touch(input.keyId, input.month, input.monthTtlMs);
    return {
      count: Number(count),
      resetMs: Number(ttl),
      month: { requests: Number(requests), cached: Number(cached), errors: Number(errors) },
      blocked: blocked === 1 ? 'minute' : blocked === 2 ? 'month' : null,
    };
  }

  async incrWindow(key: string, windowMs: number) {
    const [count, ttl] = await this.redis.shelfWindow(this.#keys.window(key), windowMs);
    return { count: Number(count), resetMs: Number(ttl) };
  }

  async add(keyId: string, month: string, field: UsageField, by: number, monthTtlMs: number) {
    const key = this.#keys.month(keyId, month);
    await this.redis.multi().hincrby(key, field, by).pexpire(key, monthTtlMs).exec();
    this.#touch(keyId, month, monthTtlMs);
  }

  /** Adds usage counted elsewhere (local counters while Redis was away). */
  async replay(rows: readonly UsageRow[], monthTtlMs: number): Promise<void> {
    if (rows.length === 0) return;
    const multi = this.redis.multi();
    for (const r of rows) {
      const key = this.#keys.month(r.keyId, r.month);
      for (const field of ['requests', 'cached', 'errors'] as const)
        if (r[field]) multi.hincrby(key, field, r[field]);
      multi.pexpire(key, monthTtlMs);
    }
    await multi.exec();
  }

  /** Reads this month's totals of the given keys (for `shelf keys usage`). */
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

  /** Mirrors the totals of months counted since the last flush into access.db. */
  async flush(): Promise<void> {
    if (this.#touched.size === 0 || !this.ready) return;
    const pairs = [...this.#touched.values()];
    this.#touched.clear();
    try {
      this.sink.mirror(await this.read(pairs));
    } catch (error) {
      for (const p of pairs) this.#touched.set(`${p.keyId}|${p.month}`, p);
      throw error;
    }
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.redis.disconnect();
    }
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
    this.#touched.set(`${keyId}|${month}`, { keyId, month, ttl });
  }
}
