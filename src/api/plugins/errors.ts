import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { InvalidCursorError } from '../../catalog/index.js';
import { AppError, invalidParam } from '../errors.js';
import { meta } from './envelope.js';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** `[{field, message}]` from Ajv's issues: the field is the query/param/body property name. */
function validationDetails(issues: ValidationIssue[], context: string | undefined) {
  return issues.map((issue) => {
    let field = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    if (issue.params && typeof issue.params.missingProperty === 'string')
      field = field ? `${field}.${issue.params.missingProperty}` : issue.params.missingProperty;
    if (issue.params && typeof issue.params.additionalProperty === 'string')
      field = field ? `${field}.${issue.params.additionalProperty}` : issue.params.additionalProperty;
    if (!field) field = context === 'body' ? 'body' : (context ?? 'request');
    let message = issue.message ?? 'is invalid';
    if (issue.params && Array.isArray(issue.params.allowedValues))
      message = `must be one of: ${issue.params.allowedValues.join(', ')}`;
    return { field, message };
  });
}

/** Converts any thrown error to an AppError; 5xx texts are never shown to clients. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof InvalidCursorError) return invalidParam(error.field, error.message);
  const e = error as FastifyError & { validation?: ValidationIssue[]; validationContext?: string };
  if (e?.validation) {
    const details = validationDetails(e.validation, e.validationContext);
    const first = details[0];
    return new AppError(
      'VALIDATION_ERROR',
      first ? `${first.field} ${first.message}` : 'invalid request',
      details,
    );
  }
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status === 413 || e?.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new AppError('PAYLOAD_TOO_LARGE', 'request body is too large');
  if (e?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'unsupported content type');
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
