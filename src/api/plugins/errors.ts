import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CHANGE_RETENTION_PUBLISHES, ExpiredCursorError, InvalidCursorError } from '../../catalog/index.js';
import { describeAllowed } from '../../schemas/index.js';
import { AppError, invalidParam, validationError } from '../errors.js';
import { API_VERSION, meta, newRequestId } from './envelope.js';

interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
  /** the schema holding the failed keyword (Ajv's `verbose` option) */
  parentSchema?: { properties?: Record<string, unknown> } & Record<string, unknown>;
}

/** Keywords whose issue only repeats a union branch's failure; the union's own issue says it all. */
const BRANCH_KEYWORDS = new Set(['anyOf', 'oneOf']);

/**
 * `[{field, message}]` from Ajv's issues, one per field: the field is the query/param/body
 * property name and the message says what is allowed there (the values of an enum, the range
 * of a number, the form of a patterned string in words) — never a regular expression, and a
 * union of constants once, not once per constant.
 */
export function validationDetails(issues: ValidationIssue[], context: string | undefined) {
  const byField = new Map<string, { message: string; outer: boolean }>();
  const where = context === 'body' ? 'body' : (context ?? 'request');
  for (const issue of issues) {
    let field = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    const join = (name: string) => (field ? `${field}.${name}` : name);
    const params = issue.params ?? {};
    const parent = issue.parentSchema;
    let message: string;
    let outer = BRANCH_KEYWORDS.has(issue.keyword ?? '');
    if (typeof params.missingProperty === 'string') {
      field = join(params.missingProperty);
      const schema = parent?.properties?.[params.missingProperty];
      message = `is required${schema ? `: ${describeAllowed(schema)}` : ''}`;
      outer = true;
    } else if (typeof params.additionalProperty === 'string') {
      field = join(params.additionalProperty);
      const known = Object.keys(parent?.properties ?? {});
      message = `is not a ${context === 'body' ? 'field' : 'parameter'} of this endpoint${known.length ? `; allowed: ${known.join(', ')}` : ''}`;
      outer = true;
    } else if (Array.isArray(params.allowedValues)) {
      message = `must be one of: ${params.allowedValues.map(String).join(', ')}`;
    } else if (parent) {
      message = `must be ${describeAllowed(parent)}`;
    } else {
      message = issue.message ?? 'is invalid';
    }
    if (!field) field = where;
    const seen = byField.get(field);
    // the outermost schema (the union, not its branches) says what the field allows
    if (!seen || (outer && !seen.outer)) byField.set(field, { message, outer });
  }
  return [...byField].map(([field, { message }]) => ({ field, message }));
}

/** Converts any thrown error to an AppError; 5xx texts are never shown to clients. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof InvalidCursorError) return invalidParam(error.field, error.message);
  if (error instanceof ExpiredCursorError)
    return new AppError(
      'CURSOR_EXPIRED',
      `${error.field} ${error.message}; re-sync from GET /v2/exports/latest.jsonl.gz`,
      {
        field: error.field,
        reason: error.reason,
        retention_publishes: CHANGE_RETENTION_PUBLISHES,
        oldest_version: error.oldestVersion,
        resync: '/v2/exports/latest.jsonl.gz',
      },
    );
  const e = error as FastifyError & { validation?: ValidationIssue[]; validationContext?: string };
  if (e?.validation) {
    return validationError(validationDetails(e.validation, e.validationContext));
  }
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status === 413 || e?.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new AppError('PAYLOAD_TOO_LARGE', 'request body is too large');
  if (e?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'unsupported content type: send the body as application/json',
    );
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', e.message);
  if (status >= 400 && status < 500)
    return new AppError('VALIDATION_ERROR', e.message || 'bad request', [
      { field: 'request', message: e.message },
    ]);
  return new AppError('INTERNAL', 'internal error');
}

/** Sends the error envelope of spec §7 (with Retry-After on retryable errors that say when). */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  if (error.retryAfter !== null) reply.header('Retry-After', String(Math.ceil(error.retryAfter)));
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send({
      success: false,
      error: {
        code: error.code,
        message: error.message,
        userMessage: error.userMessage,
        details: error.details,
        retryable: error.retryable,
        retryAfter: error.retryAfter,
      },
      meta: meta(request),
    });
}

/**
 * Errors the router meets before any route or hook runs (Fastify's `frameworkErrors`): a
 * malformed `%` escape in the path (FST_ERR_BAD_URL) or a path segment over the router's
 * 500 characters (FST_ERR_MAX_PARAM_LENGTH). Same envelope and X-Request-Id as every error.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // no hook ran for this request: give it what the envelope plugin would have
  request.startedAt = performance.now();
  request.metaExtras = {};
  reply.header('X-Request-Id', request.id);
  const appError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError('VALIDATION_ERROR', 'path a path segment may be at most 500 characters', [
          { field: 'path', message: 'a path segment may be at most 500 characters' },
        ])
      : error.code === 'FST_ERR_BAD_URL'
        ? new AppError('VALIDATION_ERROR', 'path has a malformed percent-encoding', [
            { field: 'path', message: 'must be valid percent-encoded UTF-8' },
          ])
        : toAppError(error);
  return sendError(request, reply, appError);
}

/**
 * Requests Node's HTTP parser rejects (malformed request line or headers, headers too
 * large): answered with the same envelope, straight on the socket, as no request exists.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return void socket.destroy();
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const requestId = newRequestId();
  const message = tooLarge ? 'request headers are too large' : 'the request is not valid HTTP';
  const body = JSON.stringify({
    success: false,
    error: {
      code: 'VALIDATION_ERROR',
      message,
      userMessage: 'The request has an invalid parameter.',
      details: [{ field: tooLarge ? 'headers' : 'request', message }],
      retryable: false,
      retryAfter: null,
    },
    meta: {
      requestId,
      timestamp: new Date().toISOString(),
      responseTime: 0,
      version: API_VERSION,
      cached: false,
    },
  });
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** One error handler shapes every error; unknown routes get ROUTE_NOT_FOUND in the envelope. */
export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler((error, request, reply) => {
      const appError = toAppError(error);
      if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
      return sendError(request, reply, appError);
    });
    app.setNotFoundHandler((request, reply) =>
      sendError(
        request,
        reply,
        new AppError('ROUTE_NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`),
      ),
    );
  },
  { name: 'shelf-errors' },
);
