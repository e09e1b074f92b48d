import type { ApiKeyRecord, KeyEnv, KeyType } from './keys.js';
import type { PlanId } from './plans.js';
import type { UsageSink } from './stores/counter-store.js';

/** What serving a request needs of the keys: answered from memory, never waiting on I/O. */
export interface KeyDirectory {
  /** The active record of a presented key; null for malformed, unknown or revoked keys. */
  authenticate(key: string): ApiKeyRecord | null;
  /**
   * For a well-formed key `authenticate` does not know: the store's own answer, for stores
   * whose in-memory copy may lag a change made elsewhere by milliseconds (Redis).
   */
  resolve?(key: string): Promise<ApiKeyRecord | null>;
  /** Origins listed on any active publishable key (CORS preflights carry no key). */
  publishableOrigins(): Set<string>;
  /** Where this deployment keeps usage totals besides the counters (access.db, or memory with Redis). */
  usageSink(): UsageSink;
}

export interface NewKey {
  type: KeyType;
  env: KeyEnv;
  plan: PlanId;
  name?: string | null;
  allowedOrigins?: string[];
}

type MaybePromise<T> = T | Promise<T>;

/** What `shelf keys …` does with the keys, in access.db or in Redis. */
export interface KeyAdmin {
  create(args: NewKey): MaybePromise<{ key: string; record: ApiKeyRecord }>;
  list(): MaybePromise<ApiKeyRecord[]>;
  /** Finds a key by id, or by its last four characters when they are unique. */
  find(idOrLast4: string): MaybePromise<ApiKeyRecord | null>;
  revoke(id: string): MaybePromise<boolean>;
  setPlan(id: string, plan: PlanId): MaybePromise<boolean>;
  close(): MaybePromise<void>;
}
