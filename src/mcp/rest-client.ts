import { createShelfClient, type FetchLike, type RetryOptions, type ShelfClient } from '@shelf/client';

/**
 * The MCP server's only way to the data: the public REST API through the TypeScript client
 * (packages/client), called with the caller's key, so every tool call counts against the
 * caller's plan like any other request. Failures arrive as `ShelfError` (code, status,
 * retryAfter, details), which tool-errors.ts turns into tool errors.
 */

/**
 * How a tool call retries: at most two more attempts, and never a wait longer than 2 s. A
 * longer Retry-After (a used-up minute or month) goes back to the agent at once as
 * RATE_LIMITED / QUOTA_EXCEEDED with the seconds, which it can relay or wait out itself.
 */
export const MCP_RETRY: RetryOptions = { retries: 2, baseDelayMs: 200, maxDelayMs: 2_000 };

/** Time limit of one REST request made for a tool call, ms. */
export const MCP_REQUEST_TIMEOUT_MS = 15_000;

/**
 * The client the tools use. `fetch` decides where requests go: the global fetch for the stdio
 * server (a remote API), `app.inject` for the HTTP mount (src/api/plugins/mcp.ts).
 */
export function restClient(baseUrl: string, apiKey: string, fetch?: FetchLike): ShelfClient {
  return createShelfClient({
    baseUrl,
    apiKey,
    retry: MCP_RETRY,
    timeoutMs: MCP_REQUEST_TIMEOUT_MS,
    ...(fetch ? { fetch } : {}),
  });
}

/** How requests travel: a `fetch` (Request in, Response out); the HTTP mount passes `app.inject`. */
export type ApiFetcher = FetchLike;

/** The caller's remaining requests, from the rate-limit headers (null when the API sends none). */
export interface Quota {
  minuteRemaining: number | null;
  monthRemaining: number | null;
}

/** The quota an answer's headers announce. */
export const quotaFrom = (r: {
  rateLimit: { remaining: number | null; monthRemaining: number | null };
}): Quota => ({
  minuteRemaining: r.rateLimit.remaining,
  monthRemaining: r.rateLimit.monthRemaining,
});
