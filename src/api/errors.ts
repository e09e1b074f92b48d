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

export const invalidParam = (field: string, message: string): AppError =>
  new AppError('VALIDATION_ERROR', `${field} ${message}`, [{ field, message }]);
