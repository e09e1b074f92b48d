import type { ApiKeyRecord } from './keys.js';
import { PLANS } from './plans.js';
import type { UsageRow } from './usage.js';

export interface UsageReportRow {
  keyId: string;
  key: string;
  name: string | null;
  env: 'live' | 'test';
  plan: string;
  month: string;
  requests: number;
  cached: number;
  errors: number;
  /** the plan's monthly quota; null for test keys, which never count against it */
  quota: number | null;
  /** requests past the quota (paid plans keep being served) */
  overage: number;
}

/** Usage rows joined with their keys, with each live key's quota and overage. */
export function usageReport(keys: readonly ApiKeyRecord[], rows: readonly UsageRow[]): UsageReportRow[] {
  const byId = new Map(keys.map((k) => [k.id, k]));
  return rows.flatMap((r) => {
    const key = byId.get(r.keyId);
    if (!key) return [];
    const quota = key.env === 'live' ? PLANS[key.plan].monthly : null;
    return [
      {
        keyId: key.id,
        key: `${key.prefix}…${key.last4}`,
        name: key.name,
        env: key.env,
        plan: key.plan,
        month: r.month,
        requests: r.requests,
        cached: r.cached,
        errors: r.errors,
        quota,
        overage: quota === null ? 0 : Math.max(0, r.requests - quota),
      },
    ];
  });
}
