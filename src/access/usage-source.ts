import { Redis } from 'ioredis';
import type { KeyStore } from './key-store.js';
import type { RedisKeyStore } from './redis-key-store.js';
import { MemoryUsageSink } from './stores/memory-sink.js';
import { RedisStore } from './stores/redis-store.js';
import { UsageRepo, type UsageRow } from './usage.js';

/**
 * Usage rows for reports: access.db, and with `redisUrl` the live totals from Redis (the
 * source while replicas share it), taking the larger of the two for each month.
 */
export async function readUsage(
  keys: KeyStore,
  filter: { keyId?: string; month?: string },
  redisUrl?: string,
): Promise<{ rows: UsageRow[]; warning: string | null }> {
  const repo = new UsageRepo(keys.db);
  const rows = repo.list(filter);
  if (!redisUrl) return { rows, warning: null };
  const months = filter.month ? [filter.month] : [...new Set(rows.map((r) => r.month)), currentMonth()];
  const ids = filter.keyId ? [filter.keyId] : keys.list().map((k) => k.id);
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    const store = new RedisStore(redis, repo);
    const live = await store.read(
      ids.flatMap((keyId) => [...new Set(months)].map((month) => ({ keyId, month }))),
    );
    const merged = new Map(rows.map((r) => [`${r.keyId}|${r.month}`, r]));
    for (const r of live) {
      if (r.requests + r.cached + r.errors === 0) continue;
      const known = merged.get(`${r.keyId}|${r.month}`);
      merged.set(
        `${r.keyId}|${r.month}`,
        known
          ? {
              ...known,
              requests: Math.max(known.requests, r.requests),
              cached: Math.max(known.cached, r.cached),
              errors: Math.max(known.errors, r.errors),
            }
          : r,
      );
    }
    return {
      rows: [...merged.values()].sort(
        (a, b) => b.month.localeCompare(a.month) || a.keyId.localeCompare(b.keyId),
      ),
      warning: null,
    };
  } catch (error) {
    return { rows, warning: `Redis not reachable (${(error as Error).message}); showing access.db only` };
  } finally {
    redis.disconnect();
  }
}

const currentMonth = () => new Date().toISOString().slice(0, 7);

/**
 * Usage rows when keys and usage live in Redis: this month's and last month's totals (Redis
 * keeps a month 40 days), or the month asked for, of every key or one.
 */
export async function readRedisUsage(
  keys: RedisKeyStore,
  filter: { keyId?: string; month?: string },
): Promise<UsageRow[]> {
  const now = new Date();
  const months = filter.month
    ? [filter.month]
    : [
        currentMonth(),
        new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7),
      ];
  const ids = filter.keyId ? [filter.keyId] : (await keys.list()).map((k) => k.id);
  const store = new RedisStore(keys.redis, new MemoryUsageSink());
  const rows = await store.read(ids.flatMap((keyId) => months.map((month) => ({ keyId, month }))));
  return rows
    .filter((r) => r.requests + r.cached + r.errors > 0)
    .sort((a, b) => b.month.localeCompare(a.month) || a.keyId.localeCompare(b.keyId));
}
