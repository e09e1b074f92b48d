export { KeyStore } from './key-store.js';
export {
  type ApiKeyRecord,
  generateKey,
  hashKey,
  KEY_PATTERN,
  type KeyEnv,
  type KeyType,
  keyPrefix,
} from './keys.js';
export { isPlanId, PLAN_IDS, PLANS, type PlanId, planAtLeast } from './plans.js';
