import type { RateLimit } from './rate-limit.js';

/** The error body of every Shelf failure (`{success: false, error, meta}`). */
export interface ErrorBody {
  code: string;
  message: string;
  userMessage?: string;
  details?: unknown;
  retryable?: boolean;
  /** seconds */
  retryAfter?: number | null;
}

/**
 * A failed call: the API's error envelope (code, message, retryable, retryAfter, details) with
 * the HTTP status, request id and rate-limit headers, or a request that got no answer
 * (`UNREACHABLE`, `TIMEOUT`: status 0, the underlying error as `cause`).
 */
export class ShelfError extends Error {
  override readonly name = 'ShelfError';
  /** the envelope's error code (NOT_FOUND, RATE_LIMITED, VALIDATION_ERROR, …; docs/api.md lists them) */
  readonly code: string;
  /** HTTP status; 0 when no response arrived */
  readonly status: number;
  /** whether the same request may succeed later */
  readonly retryable: boolean;
  /** seconds to wait before retrying, from the envelope or Retry-After; null when not said */
  readonly retryAfter: number | null;
  readonly userMessage: string;
  readonly details: unknown;
  /** X-Request-Id of the failed response (quote it in support requests) */
  readonly requestId: string | null;
  readonly rateLimit: RateLimit | null;

  constructor(
    body: ErrorBody,
    init: { status: number; requestId?: string | null; rateLimit?: RateLimit | null; cause?: unknown },
  ) {
    super(body.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = body.code;
    this.status = init.status;
    this.retryable = body.retryable ?? false;
    this.retryAfter = body.retryAfter ?? null;
    this.userMessage = body.userMessage ?? body.message;
    this.details = body.details ?? null;
    this.requestId = init.requestId ?? null;
    this.rateLimit = init.rateLimit ?? null;
  }
}

/** The code of an error response without Shelf's envelope (a proxy's 429 or 502, say). */
export function codeForStatus(status: number): string {
  if (status === 429) return 'RATE_LIMITED';
  if (status === 401) return 'AUTH_INVALID';
  if (status === 404) return 'ROUTE_NOT_FOUND';
  if (status === 400 || status === 422) return 'VALIDATION_ERROR';
  if (status === 503) return 'CATALOG_UNAVAILABLE';
  return 'INTERNAL';
}

/** Statuses worth retrying when the body does not say (gateways and overload). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
