/** Every error code the API answers with, its HTTP status and whether retrying can help. */
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, retryable: false, userMessage: 'The request has an invalid parameter.' },
  AUTH_REQUIRED: { status: 401, retryable: false, userMessage: 'An API key is required.' },
  AUTH_INVALID: { status: 401, retryable: false, userMessage: 'The API key is not valid.' },
  PLAN_REQUIRED: { status: 403, retryable: false, userMessage: 'Your plan does not include this feature.' },
  KEY_NOT_ALLOWED: {
    status: 403,
    retryable: false,
    userMessage: 'This key may not be used for this request.',
  },
  NOT_FOUND: { status: 404, retryable: false, userMessage: 'Nothing was found.' },
  ROUTE_NOT_FOUND: { status: 404, retryable: false, userMessage: 'This endpoint does not exist.' },
  METHOD_NOT_ALLOWED: { status: 405, retryable: false, userMessage: 'This method is not allowed here.' },
  NOT_ACCEPTABLE: { status: 406, retryable: false, userMessage: 'The requested format is not available.' },
  CURSOR_EXPIRED: {
    status: 410,
    retryable: false,
    userMessage:
      'This change feed position is no longer kept; re-sync from the export, then follow the feed.',
  },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false, userMessage: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    retryable: false,
    userMessage: 'Send the request body as application/json.',
  },
  RATE_LIMITED: { status: 429, retryable: true, userMessage: 'Too many requests; slow down.' },
  QUOTA_EXCEEDED: { status: 429, retryable: true, userMessage: 'The monthly quota of your plan is used up.' },
  INTERNAL: { status: 500, retryable: true, userMessage: 'Something went wrong on our side.' },
  CATALOG_UNAVAILABLE: {
    status: 503,
    retryable: true,
    userMessage: 'The catalog is not available yet; try again shortly.',
  },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** An error that becomes the error envelope of spec §7. */
export class AppError extends Error {
  readonly status: number;
  readonly retryable: boolean;
  readonly userMessage: string;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: unknown = null,
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    const def = ERROR_CODES[code];
    this.status = def.status;
    this.retryable = def.retryable;
    this.userMessage = def.userMessage;
  }
}

export const notFound = (what: string, id: string): AppError =>
  new AppError('NOT_FOUND', `${what} '${id}' was not found`, { resource: what, id });

/** One invalid field of a 400: its name, what is allowed, and sometimes more (`unknown`, `allowed`). */
export interface FieldProblem {
  field: string;
  message: string;
  [more: string]: unknown;
}

/** At most this many fields are listed (a body can hold thousands of bad array items). */
export const MAX_FIELD_PROBLEMS = 100;

/**
 * The 400 for every invalid field of a request, one `details` entry each (docs/api.md); the
 * message names the first and counts the others.
 */
export function validationError(problems: readonly FieldProblem[]): AppError {
  const details = problems.slice(0, MAX_FIELD_PROBLEMS);
  const [first, ...rest] = details;
  if (!first) return new AppError('VALIDATION_ERROR', 'invalid request', []);
  const more = rest.length
    ? ` (and ${problems.length - 1} more invalid: ${rest.map((p) => p.field).join(', ')})`
    : '';
  return new AppError('VALIDATION_ERROR', `${first.field} ${first.message}${more}`, details);
}

export const invalidParam = (field: string, message: string): AppError =>
  validationError([{ field, message }]);

/**
 * Runs every check of a request and throws one 400 with each field they found invalid,
 * instead of stopping at the first; returns what the checks return. Other errors pass.
 */
export function checkAll<T extends unknown[]>(...checks: { [K in keyof T]: () => T[K] }): T {
  const problems: FieldProblem[] = [];
  const results = checks.map((check) => {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'VALIDATION_ERROR' || !Array.isArray(error.details))
        throw error;
      problems.push(...(error.details as FieldProblem[]));
      return undefined;
    }
  });
  if (problems.length) throw validationError(problems);
  return results as T;
}
