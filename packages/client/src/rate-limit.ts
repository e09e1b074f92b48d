/**
 * What the rate-limit and quota headers of a response say. Shelf sends them on every answer
 * to a keyed request, successes and errors alike (docs/api.md "Rate limits"): the five
 * `X-RateLimit-*` / `X-MonthlyQuota-*` headers and the IETF draft's `RateLimit` /
 * `RateLimit-Policy`. Fields are null when the response did not carry the header (public
 * endpoints, a proxy's own error page).
 */
export interface RateLimit {
  /** requests allowed per minute window (`X-RateLimit-Limit`) */
  limit: number | null;
  /** requests left in the current window (`X-RateLimit-Remaining`) */
  remaining: number | null;
  /** when the window resets, Unix seconds (`X-RateLimit-Reset`) */
  reset: number | null;
  /** requests allowed this month (`X-MonthlyQuota-Limit`) */
  monthLimit: number | null;
  /** requests left this month (`X-MonthlyQuota-Remaining`) */
  monthRemaining: number | null;
  /** seconds to wait, from `Retry-After` (seconds or an HTTP date) on 429 and 503 */
  retryAfter: number | null;
  /** the raw IETF draft headers, for clients that parse them themselves */
  policy: string | null;
  raw: string | null;
}

const count = (headers: Headers, name: string): number | null => {
  const v = headers.get(name);
  if (v === null || v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : null;
};

/** Seconds from a `Retry-After` value: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // an HTTP date names its month ("Tue, 24 Nov 2026 01:00:30 GMT"); Date.parse alone takes "-5" as a year
  if (!/[A-Za-z]{3}/.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The rate-limit state a response's headers announce. */
export function rateLimitOf(headers: Headers, now: number = Date.now()): RateLimit {
  return {
    limit: count(headers, 'x-ratelimit-limit'),
    remaining: count(headers, 'x-ratelimit-remaining'),
    reset: count(headers, 'x-ratelimit-reset'),
    monthLimit: count(headers, 'x-monthlyquota-limit'),
    monthRemaining: count(headers, 'x-monthlyquota-remaining'),
    retryAfter: parseRetryAfter(headers.get('retry-after'), now),
    policy: headers.get('ratelimit-policy'),
    raw: headers.get('ratelimit'),
  };
}
