import type { UsageField } from '../usage.js';
import type { CounterStore, HitInput, HitResult, StoreLogger } from './counter-store.js';
import type { LocalStore } from './local-store.js';
import type { RedisStore } from './redis-store.js';

/** How long the month's counters live in Redis: a month and a bit, so last month stays readable. */
const MONTH_TTL_MS = 40 * 24 * 3600 * 1000;

/**
 * Redis while it answers, local counters while it does not: the API never stops serving
 * because Redis went away. Going down and coming back are logged once each. When Redis is
 * back, the usage counted locally meanwhile is added to Redis before Redis is used again, so
 * monthly totals stay whole (per-minute windows of the outage are not carried over).
 */
export class FallbackStore implements CounterStore {
  #usingRedis = false;
  #recovering: Promise<void> | null = null;
  readonly #timer: NodeJS.Timeout;

  constructor(
    readonly redis: RedisStore,
    readonly local: LocalStore,
    private readonly log: StoreLogger,
    options: { flushMs?: number } = {},
  ) {
    // mirror Redis's totals into access.db regularly, so reports and restarts see them
    this.#timer = setInterval(() => void this.flush(), options.flushMs ?? 2000);
    this.#timer.unref();
    redis.redis.on('ready', () => this.#recover());
    redis.redis.on('error', () => {
      // ioredis logs nothing itself; the switch to local counters is logged in #fallBack
    });
    redis.redis.on('close', () => this.#fallBack(new Error('connection closed')));
    if (redis.ready) this.#usingRedis = true;
  }

  get name(): string {
    return this.#usingRedis ? 'redis' : 'local (redis unavailable)';
  }

  /** True while counters are shared through Redis. */
  get shared(): boolean {
    return this.#usingRedis;
  }

  async hit(input: HitInput): Promise<HitResult> {
    if (this.#usingRedis) {
      try {
        return await this.redis.hit(input);
      } catch (error) {
        this.#fallBack(error);
      }
    }
    return this.local.hitSync(input);
  }

  async incrWindow(key: string, windowMs: number) {
    if (this.#usingRedis) {
      try {
        return await this.redis.incrWindow(key, windowMs);
      } catch (error) {
        this.#fallBack(error);
      }
    }
    return this.local.incrWindow(key, windowMs);
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

  async flush(): Promise<void> {
    this.local.flushSync();
    try {
      await this.redis.flush();
    } catch {
      // Redis went away between the check and the read: mirrored on the next flush
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.local.close();
    try {
      await this.redis.close();
    } catch {
      // closing while Redis is down: nothing left to mirror
    }
  }

  #fallBack(error: unknown): void {
    if (!this.#usingRedis) return;
    this.#usingRedis = false;
    // restart local monthly totals from access.db, which holds the last mirrored Redis totals
    this.local.forgetMonths();
    this.local.drainSinceMark();
    this.log.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'Redis is unavailable: counting limits and usage locally until it returns',
    );
  }

  #recover(): void {
    if (this.#usingRedis || this.#recovering) return;
    this.#recovering = (async () => {
      try {
        const missed = this.local.drainSinceMark();
        await this.redis.replay(missed, MONTH_TTL_MS);
        this.#usingRedis = true;
        this.log.info(
          { replayed: missed.length },
          'Redis is available: limits and usage are shared through Redis again',
        );
      } catch (error) {
        this.log.warn({ err: (error as Error).message }, 'Redis came back but replay failed; staying local');
      } finally {
        this.#recovering = null;
      }
    })();
  }
}

export { MONTH_TTL_MS };
