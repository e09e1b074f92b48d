import { RETRYABLE_STATUSES } from './errors.js';
import { parseRetryAfter } from './rate-limit.js';

/** How the client retries (every Shelf endpoint is read-only, so POST searches retry too). */
export interface RetryOptions {
  /** further attempts after the first (default 2; 0 turns retrying off) */
  retries: number;
  /** first backoff delay when the answer says nothing about when, doubled per attempt, ms (default 300) */
  baseDelayMs: number;
  /**
   * longest wait the client accepts before one retry, ms (default 30 000). A `Retry-After`
   * beyond it (a used-up monthly quota says "next month") is not waited for: the error is
   * returned at once, so a caller never hangs on a retry that cannot succeed soon.
   */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { retries: 2, baseDelayMs: 300, maxDelayMs: 30_000 };

/** What happened before a retry, for logging (`onRetry`). */
export interface RetryEvent {
  /** 1 for the first retry */
  attempt: number;
  delayMs: number;
  /** the status that caused it; 0 for a request that got no answer */
  status: number;
  /** the envelope's error code, or the network error's message */
  reason: string;
}

export type FetchLike = (request: Request) => Promise<Response>;

interface Verdict {
  retry: boolean;
  /** ms the server asked to wait (Retry-After or the envelope's retryAfter), null when not said */
  waitMs: number | null;
  reason: string;
}

/**
 * Whether a failed response may be retried: the envelope's `retryable` decides when the body
 * is Shelf's, else the status (429, 502, 503, 504). The wait is the envelope's `retryAfter`
 * or the `Retry-After` header.
 */
async function verdictOf(response: Response): Promise<Verdict> {
  const header = parseRetryAfter(response.headers.get('retry-after'));
  let error: { code?: unknown; retryable?: unknown; retryAfter?: unknown } | undefined;
  try {
    error = ((await response.clone().json()) as { error?: typeof error } | null)?.error;
  } catch {
    error = undefined;
  }
  const seconds = typeof error?.retryAfter === 'number' ? error.retryAfter : header;
  return {
    retry: typeof error?.retryable === 'boolean' ? error.retryable : RETRYABLE_STATUSES.has(response.status),
    waitMs: seconds === null ? null : seconds * 1000,
    reason: typeof error?.code === 'string' ? error.code : `HTTP ${response.status}`,
  };
}

/** Exponential backoff with jitter (half to full delay), so clients that failed together spread out. */
export const backoffMs = (attempt: number, baseDelayMs: number, random: () => number = Math.random): number =>
  Math.round(baseDelayMs * 2 ** (attempt - 1) * (0.5 + random() / 2));

const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/**
 * `fetch` with a timeout per attempt and bounded retries: retryable error answers are tried
 * again after the wait the server names (or a backoff when it names none), requests that got
 * no answer after a backoff. The last answer, success or not, is returned; the last network
 * error is thrown.
 */
export function retryingFetch(
  fetchImpl: FetchLike,
  options: { retry: RetryOptions; timeoutMs: number; onRetry?: (event: RetryEvent) => void },
): FetchLike {
  const { retry, timeoutMs, onRetry } = options;
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const signal = AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]);
      let verdict: Verdict;
      let status = 0;
      try {
        const response = await fetchImpl(new Request(request.clone(), { signal }));
        if (response.ok || attempt >= retry.retries) return response;
        verdict = await verdictOf(response);
        if (!verdict.retry || (verdict.waitMs ?? 0) > retry.maxDelayMs) return response;
        status = response.status;
        await response.body?.cancel();
      } catch (error) {
        // the caller's own abort is final; a timeout or a network failure may be retried
        if (request.signal.aborted || attempt >= retry.retries) throw error;
        verdict = { retry: true, waitMs: null, reason: (error as Error).message };
      }
      const delayMs = verdict.waitMs ?? Math.min(retry.maxDelayMs, backoffMs(attempt + 1, retry.baseDelayMs));
      onRetry?.({ attempt: attempt + 1, delayMs, status, reason: verdict.reason });
      await sleep(delayMs, request.signal);
    }
  };
}
