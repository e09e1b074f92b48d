import type { ApiKeyRecord } from './keys.js';
import { PLANS } from './plans.js';
import type { CounterStore, HitInput, HitResult } from './stores/counter-store.js';
import { MONTH_TTL_MS } from './stores/fallback-store.js';
import { monthOf, msToMonthEnd, type UsageCounts } from './usage.js';

const MINUTE_MS = 60_000;
/** The longest a failed authentication is held before it is answered, ms. */
export const AUTH_DELAY_CAP_MS = 5_000;
/** The first delayed failure waits this long; each further one twice as long, ms. */
const AUTH_DELAY_BASE_MS = 100;
/** Characters of a presented key that make its prefix (`sk_shelf_live_` and 8 more). */
const KEY_PREFIX_LENGTH = 22;
/** The IETF draft's window of the monthly policy: 30 days. */
const MONTH_WINDOW_S = 2_592_000;
/** Share of the monthly quota at which every response carries a warning. */
export const QUOTA_WARNING_SHARE = 0.8;

/** The state of a key's limits after one request, as headers and errors show it. */
export interface LimitState {
  minute: { limit: number; remaining: number; resetMs: number; windowMs: number };
  month: { limit: number; remaining: number; used: number; resetMs: number };
  /** why the request is refused, if it is */
  blocked: null | 'minute' | 'month';
  /** seconds until the refusal ends (window end); null when not blocked */
  retryAfter: number | null;
  /** the 80% notice, when due */
  warning: string | null;
}

/** The per-address budget of failed authentications. */
export interface AuthFailureState {
  limit: number;
  remaining: number;
  resetMs: number;
  windowMs: number;
  blocked: boolean;
  retryAfter: number | null;
  /** how long to hold this answer, ms: grows with the failures of the address and of the key prefix */
  delayMs: number;
}

export interface LimiterOptions {
  /** failed authentications one client address may make per window before 429 (default 20) */
  authFailuresPerMinute?: number;
  /**
   * length of the rolling rate window, ms (default 60 000, the plans' minute). Only tests
   * shorten it: the code path is the same, only the window's length changes.
   */
  windowMs?: number;
  now?: () => number;
}

/**
 * The delay of the `failures`-th failure in a window when the first `free` are not
 * delayed: 0, then 100 ms doubling with each failure, at most `AUTH_DELAY_CAP_MS`.
 */
export function authDelayMs(failures: number, free: number): number {
  if (failures <= free) return 0;
  return Math.min(AUTH_DELAY_CAP_MS, AUTH_DELAY_BASE_MS * 2 ** Math.min(16, failures - free - 1));
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Plans applied to requests: per-minute limits for every key, monthly quotas for live keys
 * (test keys are counted apart and never against the quota), hard stop for Free, overage
 * for paid plans, and a budget of failed authentications per client address.
 */
export class Limiter {
  readonly authFailuresPerMinute: number;
  readonly windowMs: number;
  readonly #now: () => number;

  constructor(
    readonly store: CounterStore,
    options: LimiterOptions = {},
  ) {
    this.authFailuresPerMinute = options.authFailuresPerMinute ?? 20;
    this.windowMs = options.windowMs ?? MINUTE_MS;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Counts one authenticated request against the key's minute and month: `cached` (a
   * response-cache hit) and `none` (a refused publishable call) do not use the quota.
   */
  async hit(key: ApiKeyRecord, options: { count: 'requests' | 'cached' | 'none' }): Promise<LimitState> {
    const now = this.#now();
    return this.#state(key, now, await this.store.hit(this.#input(key, now, options.count)));
  }

  /** `hit` without waiting, for stores that count in memory; null when the store must be awaited. */
  hitNow(key: ApiKeyRecord, options: { count: 'requests' | 'cached' | 'none' }): LimitState | null {
    if (!this.store.hitSync) return null;
    const now = this.#now();
    return this.#state(key, now, this.store.hitSync(this.#input(key, now, options.count)));
  }

  #input(key: ApiKeyRecord, now: number, count: 'requests' | 'cached' | 'none'): HitInput {
    const plan = PLANS[key.plan];
    return {
      keyId: key.id,
      limit: plan.perMinute,
      windowMs: this.windowMs,
      month: monthOf(now),
      monthTtlMs: MONTH_TTL_MS,
      field: count === 'none' ? null : count,
      cap: key.env === 'live' && key.plan === 'free' && count !== 'none' ? plan.monthly : null,
    };
  }

  #state(key: ApiKeyRecord, now: number, result: HitResult): LimitState {
    const plan = PLANS[key.plan];
    const live = key.env === 'live';
    const monthResetMs = msToMonthEnd(now);
    const used = live ? result.month.requests : 0;
    const retryAfter =
      result.blocked === 'minute'
        ? seconds(result.resetMs)
        : result.blocked === 'month'
          ? seconds(monthResetMs)
          : null;
    return {
      minute: {
        limit: plan.perMinute,
        remaining: Math.max(0, plan.perMinute - result.count),
        resetMs: result.resetMs,
        windowMs: this.windowMs,
      },
      month: {
        limit: plan.monthly,
        remaining: Math.max(0, plan.monthly - used),
        used,
        resetMs: monthResetMs,
      },
      blocked: result.blocked,
      retryAfter,
      warning: live ? quotaWarning(result.month, plan.monthly, key.plan === 'free') : null,
    };
  }

  /**
   * Counts one MCP protocol message of a key against its plan's separate budget
   * (`mcpMessagesPerMinute` in the rolling window); blocked past it.
   */
  async mcpMessage(
    key: ApiKeyRecord,
  ): Promise<{ limit: number; blocked: boolean; retryAfter: number | null }> {
    const limit = PLANS[key.plan].mcpMessagesPerMinute;
    const { count, resetMs } = await this.store.incrWindow(`mcp:${key.id}`, this.windowMs, limit + 1);
    const blocked = count > limit;
    return { limit, blocked, retryAfter: blocked ? seconds(resetMs) : null };
  }

  /** Records an error response of a key (reported by `shelf keys usage`). */
  async noteError(key: ApiKeyRecord): Promise<void> {
    await this.store.add(key.id, monthOf(this.#now()), 'errors', 1, MONTH_TTL_MS);
  }

  /**
   * Counts one failed authentication from `address` with the presented key (null: none);
   * blocked past the address's budget in the rolling window. The answer is to be held for
   * `delayMs`: past a quarter of the budget, each failure of the address waits twice as
   * long as the one before, and so does each failure of the same key prefix (its first 22
   * characters) past the whole budget, from any address, so guessing the rest of a partly
   * known key is slowed even when it is spread over many addresses.
   */
  async authFailure(address: string, presented: string | null = null): Promise<AuthFailureState> {
    const limit = this.authFailuresPerMinute;
    // the stored count stops just past the budget: a flood costs the same memory as one more failure
    const [byAddress, byPrefix] = await Promise.all([
      this.store.incrWindow(`authfail:${address}`, this.windowMs, limit + 1),
      presented && presented.length >= KEY_PREFIX_LENGTH
        ? this.store.incrWindow(
            `authprefix:${presented.slice(0, KEY_PREFIX_LENGTH)}`,
            this.windowMs,
            limit * 4,
          )
        : null,
    ]);
    const { count, resetMs } = byAddress;
    const blocked = count > limit;
    const delayMs = Math.max(
      authDelayMs(count, Math.ceil(limit / 4)),
      byPrefix ? authDelayMs(byPrefix.count, limit) : 0,
    );
    return {
      limit,
      remaining: Math.max(0, limit - count),
      resetMs,
      windowMs: this.windowMs,
      blocked,
      retryAfter: blocked ? seconds(resetMs) : null,
      delayMs,
    };
  }
}

function quotaWarning(month: UsageCounts, quota: number, hardStop: boolean): string | null {
  if (month.requests < quota * QUOTA_WARNING_SHARE) return null;
  const pct = Math.min(100, Math.floor((month.requests / quota) * 100));
  const used = `${month.requests} of ${quota} monthly requests used (${pct}%)`;
  if (month.requests < quota)
    return `${used}; ${hardStop ? 'requests stop at the quota' : 'requests past the quota are billed as overage'}`;
  return hardStop
    ? `${used}; the monthly quota is used up until the month ends`
    : `${used}; this month's requests past the quota are counted as overage`;
}

/** The policy of a state's limits (RateLimit-Policy), the same for every request of a plan: made once. */
let policyOf = { minute: -1, windowMs: -1, month: -1, text: '' };

/**
 * Header values of a limit state: the spec's five and the IETF draft's two, named in lower
 * case as they are sent (Fastify lowers every name it is given: a new string for each of
 * seven headers on every request otherwise).
 */
export function limitHeaders(
  state: Pick<LimitState, 'minute' | 'month'>,
  now: number = Date.now(),
): Record<string, string> {
  const { minute, month } = state;
  if (
    policyOf.minute !== minute.limit ||
    policyOf.windowMs !== minute.windowMs ||
    policyOf.month !== month.limit
  )
    policyOf = {
      minute: minute.limit,
      windowMs: minute.windowMs,
      month: month.limit,
      text: `"minute";q=${minute.limit};w=${Math.round(minute.windowMs / 1000)}, "month";q=${month.limit};w=${MONTH_WINDOW_S}`,
    };
  return {
    'x-ratelimit-limit': String(minute.limit),
    'x-ratelimit-remaining': String(minute.remaining),
    'x-ratelimit-reset': String(Math.ceil((now + minute.resetMs) / 1000)),
    'x-monthlyquota-limit': String(month.limit),
    'x-monthlyquota-remaining': String(month.remaining),
    'ratelimit-policy': policyOf.text,
    ratelimit: `"minute";r=${minute.remaining};t=${seconds(minute.resetMs)}, "month";r=${month.remaining};t=${seconds(month.resetMs)}`,
  };
}

/**
 * Headers of a 401 (named as limitHeaders'): there is no key, hence no plan. The rate headers describe the client
 * address's budget of failed authentications, and the monthly quota of "no key" is 0.
 */
export function authFailureHeaders(
  state: AuthFailureState,
  now: number = Date.now(),
): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(Math.ceil((now + state.resetMs) / 1000)),
    'x-monthlyquota-limit': '0',
    'x-monthlyquota-remaining': '0',
    'ratelimit-policy': `"auth-failures";q=${state.limit};w=${Math.round(state.windowMs / 1000)}`,
    ratelimit: `"auth-failures";r=${state.remaining};t=${seconds(state.resetMs)}`,
  };
}
