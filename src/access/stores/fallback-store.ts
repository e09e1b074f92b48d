import { randomUUID } from 'node:crypto';
import type { UsageField } from '../usage.js';
import type { CounterStore, HitInput, HitResult, StoreLogger, WindowCount } from './counter-store.js';
import type { LocalStore } from './local-store.js';
import { type RedisStore, randomMember } from './redis-store.js';

/** How long the month's counters live in Redis: a month and a bit, so last month stays readable. */
const MONTH_TTL_MS = 40 * 24 * 3600 * 1000;

export interface FallbackOptions {
  /** how often usage totals are copied from Redis to the sink, ms (default 2000) */
  flushMs?: number;
  /** how often Redis is pinged (health check and replica heartbeat), ms (default 1000) */
  healthMs?: number;
  /** a ping or command unanswered this long marks Redis as away, ms (default 1000) */
  healthTimeoutMs?: number;
  /** a replica silent this long no longer counts as alive, ms (default 5000) */
  replicaTtlMs?: number;
}

/**
 * Redis while it answers, local counters while it does not: the API never stops serving
 * because Redis went away or stalled. Redis's health is checked actively: every `healthMs`
 * a heartbeat script (which also counts the live replicas) must answer within
 * `healthTimeoutMs`, and any command that fails or times out switches at once. A stalled
 * Redis that keeps its socket open is therefore noticed like a dead one, and its return is
 * noticed by the next heartbeat that answers (not by a reconnect event that never comes).
 *
 * While Redis is away each replica counts alone and allows its share of each limit (the
 * limit divided by the replicas alive at the last heartbeat), over a rolling window that
 * already holds the requests it served just before. When Redis is back, what it missed is
 * replayed before Redis is used again: each request into its key's rolling window (at the
 * time it was served) and month, skipping requests Redis counted after all (a command sent
 * just before a stall runs when Redis resumes). Going down and coming back are logged once
 * each.
 */
export class FallbackStore implements CounterStore {
  #usingRedis = false;
  #connectedBefore = false;
  #warnedAtStart = false;
  #closing = false;
  #recovering: Promise<void> | null = null;
  #checking = false;
  readonly #flushTimer: NodeJS.Timeout;
  readonly #healthTimer: NodeJS.Timeout;
  readonly #replicaId = randomUUID();
  readonly #options: Required<FallbackOptions>;

  constructor(
    readonly redis: RedisStore,
    readonly local: LocalStore,
    private readonly log: StoreLogger,
    options: FallbackOptions = {},
  ) {
    this.#options = { flushMs: 2000, healthMs: 1000, healthTimeoutMs: 1000, replicaTtlMs: 5000, ...options };
    // copy Redis's totals regularly: the local counting of an outage starts from them
    this.#flushTimer = setInterval(() => void this.flush(), this.#options.flushMs);
    this.#flushTimer.unref();
    this.#healthTimer = setInterval(() => void this.check(), this.#options.healthMs);
    this.#healthTimer.unref();
    redis.redis.on('ready', () => void this.check());
    redis.redis.on('error', (error: Error) => {
      // ioredis logs nothing itself; a lost connection is logged once in #fallBack
      if (this.#connectedBefore || this.#warnedAtStart || this.#closing) return;
      this.#warnedAtStart = true;
      this.log.warn({ err: error.message }, 'Redis is not reachable yet: counting limits and usage locally');
    });
    redis.redis.on('close', () => {
      if (!this.#closing) this.#fallBack(new Error('connection closed'));
    });
    if (redis.ready) void this.check();
  }

  get name(): string {
    return this.#usingRedis ? 'redis' : 'local (redis unavailable)';
  }

  /** True while counters are shared through Redis. */
  get shared(): boolean {
    return this.#usingRedis;
  }

  async hit(input: HitInput): Promise<HitResult> {
    // the same id in Redis and in the local log: a replay skips what Redis counted after all
    const member = randomMember();
    if (this.#usingRedis) {
      try {
        const result = await this.redis.hit(input, member);
        if (!result.blocked) this.local.record(input.keyId);
        return result;
      } catch (error) {
        this.#fallBack(error);
      }
    }
    return this.local.hitSync(input, member);
  }

  async incrWindow(key: string, windowMs: number, max: number): Promise<WindowCount> {
    if (this.#usingRedis) {
      try {
        return await this.redis.incrWindow(key, windowMs, max);
      } catch (error) {
        this.#fallBack(error);
      }
    }
    return this.local.incrWindow(key, windowMs, max);
  }

  async add(keyId: string, month: string, field: UsageField, by: number, monthTtlMs: number) {
    if (this.#usingRedis) {
      try {
        return await this.redis.add(keyId, month, field, by, monthTtlMs);
      } catch (error) {
        this.#fallBack(error);
      }
    }
    return this.local.add(keyId, month, field, by);
  }

  /** Copies Redis's totals to the sink. Counts made while Redis was away wait for its return. */
  async flush(): Promise<void> {
    this.local.sweep();
    if (!this.#usingRedis) return;
    try {
      await this.redis.flush();
    } catch {
      // Redis went away between the check and the read: copied on the next flush
    }
  }

  /** One health check: a heartbeat within the timeout, or a switch to local counting. */
  async check(): Promise<void> {
    if (this.#checking || this.#closing) return;
    this.#checking = true;
    try {
      const replicas = await this.redis.heartbeat(
        this.#replicaId,
        this.#options.replicaTtlMs,
        this.#options.healthTimeoutMs,
      );
      this.local.setShare(replicas);
      if (!this.#usingRedis) await this.#recover();
    } catch (error) {
      if (this.#usingRedis) this.#fallBack(error);
    } finally {
      this.#checking = false;
    }
  }

  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#flushTimer);
    clearInterval(this.#healthTimer);
    if (this.#usingRedis) await this.redis.leave(this.#replicaId).catch(() => {});
    await this.local.close();
    try {
      await this.redis.close();
    } catch {
      // closing while Redis is down: nothing left to copy
    }
  }

  #fallBack(error: unknown): void {
    if (!this.#usingRedis) return;
    this.#usingRedis = false;
    // restart local monthly totals from the sink, which holds the last totals read from Redis
    this.local.forgetMonths();
    this.log.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'Redis is unavailable: counting limits and usage locally until it returns',
    );
  }

  #recover(): Promise<void> {
    this.#recovering ??= (async () => {
      const started = Date.now();
      const pending = this.local.drainPending();
      try {
        const replayed = await this.redis.replay(pending.hits, pending.counts, MONTH_TTL_MS);
        this.local.forgetMonths();
        this.#usingRedis = true;
        // what was counted locally while the replay ran: Redis is used from now on
        const late = this.local.drainPending();
        await this.redis.replay(late.hits, late.counts, MONTH_TTL_MS).catch((error: unknown) => {
          this.local.restorePending(late);
          this.#fallBack(error);
        });
        const fields = {
          pendingRequests: pending.hits.length + late.hits.length,
          replayedRequests: replayed,
          pendingSums: pending.counts.length,
          ms: Date.now() - started,
        };
        if (this.#connectedBefore)
          this.log.info(fields, 'Redis is back: limits and usage are shared through Redis again');
        else this.log.info(fields, 'connected to Redis: limits and usage are shared');
        this.#connectedBefore = true;
      } catch (error) {
        this.local.restorePending(pending);
        this.log.warn({ err: (error as Error).message }, 'Redis came back but replay failed; staying local');
      } finally {
        this.#recovering = null;
      }
    })();
    return this.#recovering;
  }
}

export { MONTH_TTL_MS };
