export type { KeyAdmin, KeyDirectory, NewKey } from './key-directory.js';
export { KEY_RECHECK_MS, KeyStore } from './key-store.js';
export {
  type ApiKeyRecord,
  generateKey,
  hashKey,
  KEY_PATTERN,
  type KeyEnv,
  type KeyType,
  keyPrefix,
} from './keys.js';
export {
  AUTH_DELAY_CAP_MS,
  type AuthFailureState,
  authDelayMs,
  authFailureHeaders,
  Limiter,
  type LimiterOptions,
  type LimitState,
  limitHeaders,
  QUOTA_WARNING_SHARE,
} from './limiter.js';
export { isPlanId, PLAN_IDS, PLANS, type PlanId, planAtLeast } from './plans.js';
export { RedisKeyStore, type RedisKeyStoreOptions } from './redis-key-store.js';
export { normalizeOrigin, publishableMayCall } from './scope.js';
export {
  type CounterStore,
  type CounterStoreOptions,
  connectRedis,
  createCounterStore,
  FallbackStore,
  LocalStore,
  MemoryUsageSink,
  RedisStore,
  type StoreLogger,
} from './stores/index.js';
export { monthOf, type UsageCounts, UsageRepo, type UsageRow } from './usage.js';
export { type UsageReportRow, usageReport } from './usage-report.js';
export { readRedisUsage, readUsage } from './usage-source.js';
