import { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { KeyAdmin, KeyDirectory, NewKey } from './key-directory.js';
import { type ApiKeyRecord, generateKey, hashKey, KEY_PATTERN } from './keys.js';
import type { PlanId } from './plans.js';
import type { StoreLogger, UsageSink } from './stores/counter-store.js';
import { MemoryUsageSink } from './stores/memory-sink.js';

/** Redis names of the keys, under the deployment's prefix. */
const names = (prefix: string) => ({
  /** hash: SHA-256 of a key → its record (JSON); never the key itself */
  records: `${prefix}keys`,
  /** hash: key id → SHA-256, for `revoke` and `set-plan` by id */
  ids: `${prefix}key-ids`,
  /** pub/sub channel: the SHA-256 of each created or changed key */
  changed: `${prefix}keys:changed`,
});

export interface RedisKeyStoreOptions {
  /** key names prefix, shared with the counters (default `shelf:`) */
  prefix?: string;
  /** keep an in-memory copy current through pub/sub (servers); the CLI only writes */
  follow?: boolean;
  /** full re-read of the keys, ms, besides pub/sub and reconnects (default 30 000) */
  reloadMs?: number;
  log?: StoreLogger;
}

/**
 * Keys, plans and revocations in Redis, for replicas that behave as one service. Records are
 * stored as in access.db: by the key's SHA-256, with its last four characters, never the key.
 * Every change is published; each server keeps a copy of all records in memory, updated from
 * those messages (milliseconds after the change), re-read whole on every (re)connect and
 * every `reloadMs`. Requests are authenticated from that copy, so Redis is never on the
 * request's path and a Redis outage leaves the keys as they were. If Redis comes back
 * without its keys (no persistence), a server writes its copy back.
 */
export class RedisKeyStore implements KeyDirectory, KeyAdmin {
  readonly #names: ReturnType<typeof names>;
  readonly #records = new Map<string, ApiKeyRecord>();
  /** hashes of presented keys, so a known key skips SHA-256 */
  readonly #hashes = new LRUCache<string, string>({ max: 10_000 });
  readonly #sink = new MemoryUsageSink();
  #subscriber: Redis | null = null;
  #timer: NodeJS.Timeout | null = null;
  #origins: Set<string> | null = null;
  #loaded = false;

  private constructor(
    readonly redis: Redis,
    private readonly options: RedisKeyStoreOptions,
  ) {
    this.#names = names(options.prefix ?? 'shelf:');
  }

  /**
   * Connects to Redis. With `follow` (servers) it keeps reconnecting and never throws: keys
   * are loaded when Redis answers. Without (the CLI), it throws when Redis does not answer.
   */
  static async open(url: string, options: RedisKeyStoreOptions = {}): Promise<RedisKeyStore> {
    const follow = options.follow ?? false;
    const redis = new Redis(url, {
      lazyConnect: true,
      connectTimeout: 2000,
      maxRetriesPerRequest: follow ? 1 : 0,
      commandTimeout: 2000,
      enableOfflineQueue: !follow,
      retryStrategy: follow ? (times) => Math.min(200 * times, 1000) : () => null,
    });
    redis.on('error', () => {}); // reported by the counters' store and by failed commands
    const store = new RedisKeyStore(redis, options);
    if (!follow) {
      await redis.connect();
      return store;
    }
    redis.connect().catch(() => {});
    await store.#follow(url);
    return store;
  }

  /** True once the keys were read from Redis at least once. */
  get loaded(): boolean {
    return this.#loaded;
  }

  authenticate(key: string): ApiKeyRecord | null {
    if (!KEY_PATTERN.test(key)) return null;
    let hash = this.#hashes.get(key);
    if (hash === undefined) {
      hash = hashKey(key);
      this.#hashes.set(key, hash);
    }
    const record = this.#records.get(hash);
    return record && !record.revokedAt ? record : null;
  }

  /**
   * Reads a well-formed key the copy does not know from Redis: a key created on another node
   * works here even before its message arrives. A revoked or unknown key stays null.
   */
  async resolve(key: string): Promise<ApiKeyRecord | null> {
    if (!KEY_PATTERN.test(key)) return null;
    const hash = hashKey(key);
    let json: string | null;
    try {
      json = await this.redis.hget(this.#names.records, hash);
    } catch {
      return null; // Redis away: the copy is all there is
    }
    if (!json) return null;
    const record = JSON.parse(json) as ApiKeyRecord;
    this.#records.set(hash, record);
    this.#origins = null;
    return record.revokedAt ? null : record;
  }

  publishableOrigins(): Set<string> {
    this.#origins ??= new Set(
      [...this.#records.values()]
        .filter((r) => r.type === 'publishable' && !r.revokedAt)
        .flatMap((r) => r.allowedOrigins),
    );
    return this.#origins;
  }

  usageSink(): UsageSink {
    return this.#sink;
  }

  async create(args: NewKey): Promise<{ key: string; record: ApiKeyRecord }> {
    const { key, hash, record } = generateKey(args);
    await this.redis
      .multi()
      .hset(this.#names.records, hash, JSON.stringify(record))
      .hset(this.#names.ids, record.id, hash)
      .publish(this.#names.changed, hash)
      .exec();
    return { key, record };
  }

  async list(): Promise<ApiKeyRecord[]> {
    const all = await this.redis.hgetall(this.#names.records);
    return Object.values(all)
      .map((json) => JSON.parse(json) as ApiKeyRecord)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async find(idOrLast4: string): Promise<ApiKeyRecord | null> {
    const hash = await this.redis.hget(this.#names.ids, idOrLast4);
    if (hash) {
      const json = await this.redis.hget(this.#names.records, hash);
      if (json) return JSON.parse(json) as ApiKeyRecord;
    }
    const matches = (await this.list()).filter((r) => r.last4 === idOrLast4);
    return matches.length === 1 ? (matches[0] as ApiKeyRecord) : null;
  }

  async revoke(id: string): Promise<boolean> {
    return this.#update(id, (r) => (r.revokedAt ? null : { ...r, revokedAt: new Date().toISOString() }));
  }

  async setPlan(id: string, plan: PlanId): Promise<boolean> {
    return this.#update(id, (r) => ({ ...r, plan }));
  }

  /**
   * Copies keys from access.db that Redis does not have (moving a single server to Redis).
   * Only hashes are copied; a key already in Redis is left as it is. Returns how many were added.
   */
  async importRecords(rows: readonly { hash: string; record: ApiKeyRecord }[]): Promise<number> {
    let added = 0;
    for (const { hash, record } of rows) {
      const [[, set] = []] =
        (await this.redis.multi().hsetnx(this.#names.records, hash, JSON.stringify(record)).exec()) ?? [];
      if (Number(set) === 1) {
        added++;
        await this.redis
          .multi()
          .hset(this.#names.ids, record.id, hash)
          .publish(this.#names.changed, hash)
          .exec();
      }
    }
    return added;
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#subscriber?.disconnect();
    this.redis.disconnect();
  }

  /** Read-modify-write of one record under WATCH, retried when another change came first. */
  async #update(id: string, change: (r: ApiKeyRecord) => ApiKeyRecord | null): Promise<boolean> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const hash = await this.redis.hget(this.#names.ids, id);
      if (!hash) return false;
      await this.redis.watch(this.#names.records);
      const json = await this.redis.hget(this.#names.records, hash);
      const next = json ? change(JSON.parse(json) as ApiKeyRecord) : null;
      if (!next) {
        await this.redis.unwatch();
        return false;
      }
      const done = await this.redis
        .multi()
        .hset(this.#names.records, hash, JSON.stringify(next))
        .publish(this.#names.changed, hash)
        .exec();
      if (done) return true;
    }
    throw new Error('the key changed too often while being updated; try again');
  }

  async #follow(url: string): Promise<void> {
    const subscriber = new Redis(url, {
      lazyConnect: true,
      connectTimeout: 2000,
      retryStrategy: (times) => Math.min(200 * times, 1000),
    });
    subscriber.on('error', () => {});
    this.#subscriber = subscriber;
    this.redis.on('ready', () => void this.reload());
    subscriber.on('message', (_channel: string, hash: string) => void this.#refresh(hash));
    // (re)subscribe on every connection (ioredis only renews subscriptions that once
    // succeeded), then read everything again: messages sent meanwhile were missed
    subscriber.on('ready', () => {
      subscriber
        .subscribe(this.#names.changed)
        .then(() => this.reload())
        .catch(() => {});
    });
    await subscriber.connect().catch(() => {});
    this.#timer = setInterval(() => void this.reload(), this.options.reloadMs ?? 30_000);
    this.#timer.unref();
    await this.reload();
  }

  /** Reads all records from Redis; false when Redis did not answer. */
  async reload(): Promise<boolean> {
    let all: Record<string, string>;
    try {
      all = await this.redis.hgetall(this.#names.records);
    } catch {
      return false;
    }
    const hashes = Object.keys(all);
    if (hashes.length === 0 && this.#records.size > 0) {
      // Redis came back empty (no persistence): the keys live on in this copy, so restore them
      this.options.log?.warn(
        { keys: this.#records.size },
        'Redis has no API keys but this server knows some: writing them back',
      );
      await this.importRecords([...this.#records].map(([hash, record]) => ({ hash, record }))).catch(
        () => {},
      );
      return true;
    }
    this.#records.clear();
    for (const hash of hashes) this.#records.set(hash, JSON.parse(all[hash] as string) as ApiKeyRecord);
    this.#origins = null;
    if (!this.#loaded) this.options.log?.info({ keys: hashes.length }, 'API keys loaded from Redis');
    this.#loaded = true;
    return true;
  }

  async #refresh(hash: string): Promise<void> {
    try {
      const json = await this.redis.hget(this.#names.records, hash);
      if (json) this.#records.set(hash, JSON.parse(json) as ApiKeyRecord);
      else this.#records.delete(hash);
      this.#origins = null;
    } catch {
      // Redis went away right after publishing: the reload on reconnect catches up
    }
  }
}
