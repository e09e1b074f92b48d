/**
 * Plans of spec §8: per-minute limit and monthly quota. Besides, for remote MCP: how many
 * sessions a key may hold open at once, and how many protocol messages (initialize,
 * tools/list, ping, tool calls…) it may send per minute: six times its request limit, so
 * every tool call the plan allows fits with the messages around it. These are Shelf's own
 * (the spec is silent) and documented in docs/api.md.
 */
export const PLANS = {
  free: { name: 'Free', perMinute: 10, monthly: 5_000, rank: 0, mcpSessions: 10, mcpMessagesPerMinute: 60 },
  starter: {
    name: 'Starter',
    perMinute: 60,
    monthly: 50_000,
    rank: 1,
    mcpSessions: 25,
    mcpMessagesPerMinute: 360,
  },
  pro: {
    name: 'Pro',
    perMinute: 300,
    monthly: 500_000,
    rank: 2,
    mcpSessions: 50,
    mcpMessagesPerMinute: 1_800,
  },
  enterprise: {
    name: 'Enterprise',
    perMinute: 1_000,
    monthly: 5_000_000,
    rank: 3,
    mcpSessions: 200,
    mcpMessagesPerMinute: 6_000,
  },
} as const;

export type PlanId = keyof typeof PLANS;
export const PLAN_IDS = Object.keys(PLANS) as PlanId[];

export const isPlanId = (value: string): value is PlanId => value in PLANS;

/** True when `plan` is `required` or above. */
export const planAtLeast = (plan: PlanId, required: PlanId): boolean =>
  PLANS[plan].rank >= PLANS[required].rank;
