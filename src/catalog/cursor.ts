/**
 * Opaque pagination cursors: base64url of a small JSON object. A keyset cursor holds the
 * last row's sort value and id; an offset cursor (relevance order, previous pages) holds an
 * offset. Anything that does not decode to one of these is rejected as a bad parameter.
 */
import type { Static } from 'typebox';
import type { Pagination } from '../schemas/index.js';

export type Cursor =
  | { kind: 'keyset'; value: string | number | null; id: string; offset: number }
  | { kind: 'offset'; offset: number };

export function encodeCursor(cursor: Cursor): string {
  const body =
    cursor.kind === 'keyset' ? { v: cursor.value, i: cursor.id, o: cursor.offset } : { o: cursor.offset };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** Decodes a cursor; returns null when it is not one of ours. */
export function decodeCursor(text: string): Cursor | null {
  if (text.length > 512 || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const { v, i, o } = body as Record<string, unknown>;
  if (typeof o !== 'number' || !Number.isInteger(o) || o < 0 || o > 1_000_000) return null;
  if (i === undefined) return { kind: 'offset', offset: o };
  if (typeof i !== 'string' || i.length > 64) return null;
  if (v !== null && typeof v !== 'string' && typeof v !== 'number') return null;
  return { kind: 'keyset', value: v, id: i, offset: o };
}

/** The `pagination` object of a list answer (its schema: schemas/envelope.ts). */
export type PageInfo = Static<typeof Pagination>;

/** The eight pagination fields of spec §2.1. */
export function pageInfo(args: {
  total: number;
  limit: number;
  offset: number;
  cursor: string | null;
  next: Cursor | null;
}): PageInfo {
  const { total, limit, offset, cursor, next } = args;
  const prevOffset = offset > 0 ? Math.max(0, offset - limit) : null;
  return {
    total,
    limit,
    offset,
    page: Math.floor(offset / limit) + 1,
    cursor,
    hasMore: next !== null,
    nextCursor: next ? encodeCursor(next) : null,
    prevCursor: prevOffset === null ? null : encodeCursor({ kind: 'offset', offset: prevOffset }),
  };
}
