/** Plans of spec §8: per-minute limit and monthly quota. */
export const PLANS = {
  free: { name: 'Free', perMinute: 10, monthly: 5_000, rank: 0 },
  starter: { name: 'Starter', perMinute: 60, monthly: 50_000, rank: 1 },
  pro: { name: 'Pro', perMinute: 300, monthly: 500_000, rank: 2 },
  enterprise: { name: 'Enterprise', perMinute: 1_000, monthly: 5_000_000, rank: 3 },
} as const;

export type PlanId = keyof typeof PLANS;
export const PLAN_IDS = Object.keys(PLANS) as PlanId[];

export const isPlanId = (value: string): value is PlanId => value in PLANS;

/** True when `plan` is `required` or above. */
export const planAtLeast = (plan: PlanId, required: PlanId): boolean =>
  PLANS[plan].rank >= PLANS[required].rank;
