import { type TSchema, Type } from 'typebox';
import { namedObject } from './common.js';

export const Meta = namedObject('Meta', {
  requestId: Type.String(),
  timestamp: Type.String(),
  responseTime: Type.Number({ description: 'milliseconds spent serving the request' }),
  version: Type.String(),
  cached: Type.Boolean(),
  warnings: Type.Optional(Type.Array(Type.String())),
  interpretation: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export const Pagination = namedObject('Pagination', {
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
  page: Type.Integer(),
  cursor: Type.Union([Type.String(), Type.Null()]),
  hasMore: Type.Boolean(),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
  prevCursor: Type.Union([Type.String(), Type.Null()]),
});

export const ErrorBody = namedObject('ErrorBody', {
  code: Type.String(),
  message: Type.String(),
  userMessage: Type.String(),
  details: Type.Unknown(),
  retryable: Type.Boolean(),
  retryAfter: Type.Union([Type.Number(), Type.Null()], { description: 'seconds' }),
});

export const ErrorEnvelope = namedObject('ErrorEnvelope', {
  success: Type.Literal(false),
  error: ErrorBody,
  meta: Meta,
});

/** `{success, data, meta}` around one resource. */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({ success: Type.Literal(true), data, meta: Meta });

/** `{success, data: [...], meta, pagination}` around a cursor-paginated list. */
export const ListEnvelope = <T extends TSchema>(item: T) =>
  Type.Object({ success: Type.Literal(true), data: Type.Array(item), meta: Meta, pagination: Pagination });
