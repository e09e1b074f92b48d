import { randomFillSync } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export const API_VERSION = '2.0.0';

export interface MetaExtras {
  cached?: boolean;
  warnings?: string[];
  interpretation?: Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** when the request arrived, `performance.now()` ms (a float: no BigInt made per request) */
    startedAt: number;
    metaExtras: MetaExtras;
  }
}

/** Random bytes drawn in bulk: one call per 512 request ids instead of one per request. */
const ID_BYTES = 9;
const pool = Buffer.alloc(ID_BYTES * 512);
let poolAt = pool.length;

export const newRequestId = (): string => {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += ID_BYTES;
  return `req_${pool.toString('base64url', poolAt - ID_BYTES, poolAt)}`;
};

/** The time now in ISO 8601, made once per millisecond (a burst of answers shares it). */
let isoAt = -1;
let iso = '';
function nowIso(): string {
  const now = Date.now();
  if (now !== isoAt) {
    isoAt = now;
    iso = new Date(now).toISOString();
  }
  return iso;
}

const responseTime = (request: FastifyRequest): number =>
  Math.round((performance.now() - request.startedAt) * 100) / 100;

/** The `meta` object of spec §2.1 for this request. */
export function meta(request: FastifyRequest) {
  return {
    requestId: request.id,
    timestamp: nowIso(),
    responseTime: responseTime(request),
    version: API_VERSION,
    cached: request.metaExtras.cached ?? false,
    ...(request.metaExtras.warnings?.length ? { warnings: request.metaExtras.warnings } : {}),
    ...(request.metaExtras.interpretation ? { interpretation: request.metaExtras.interpretation } : {}),
  };
}

/**
 * `JSON.stringify(meta(request))`, written directly in the common case (no warnings, no
 * interpretation): every stored-document answer and cache hit adds one, and the object and
 * its serialization were a few µs of each.
 */
export function metaJson(request: FastifyRequest): string {
  const extras = request.metaExtras;
  if (extras.warnings?.length || extras.interpretation) return JSON.stringify(meta(request));
  return `{"requestId":${JSON.stringify(request.id)},"timestamp":"${nowIso()}","responseTime":${responseTime(request)},"version":"${API_VERSION}","cached":${extras.cached === true}}`;
}

/** `{success: true, data, meta}`. */
export function ok<T>(request: FastifyRequest, data: T) {
  return { success: true as const, data, meta: meta(request) };
}

/**
 * The serialized `{success: true, data, meta}` around an already serialized `data` (a
 * stored product document): the same bytes as `ok` through the route's serializer.
 */
export function okSerialized(request: FastifyRequest, dataJson: string): string {
  return `{"success":true,"data":${dataJson},"meta":${metaJson(request)}}`;
}

/**
 * Answer bodies are cut from shared slabs, as Node's own pool does for Buffers under 4 KB: a
 * product answer is just past that, and a memory block of its own per answer (with the
 * external memory V8 then accounts for) was about 4 µs of it. A slab is never written again
 * once cut: it is freed when the last answer cut from it is.
 */
const SLAB_BYTES = 256 * 1024;
let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
let slabAt = 0;

function bodyBytes(length: number): Buffer {
  if (length > SLAB_BYTES / 8) return Buffer.allocUnsafe(length);
  if (slabAt + length > SLAB_BYTES) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabAt = 0;
  }
  const bytes = slab.subarray(slabAt, slabAt + length);
  // the next body starts on an 8-byte boundary, as the pool's do
  slabAt = (slabAt + length + 7) & ~7;
  return bytes;
}

const DATA_HEAD = '{"success":true,"data":';
const META_HEAD = ',"meta":';

/**
 * `okSerialized` written as the bytes sent, for a `data` given as the parts it is made of (a
 * stored document, as text or UTF-8 bytes, and its `_knowledge`: catalog `singleBodyParts`):
 * each part is written once
 * into one Buffer of the body's size. Joined as a string, the body was flattened, measured
 * and encoded again when sent (about 7 µs of a 4 KB product answer, against 1–2 µs).
 */
export function okSerializedBytes(request: FastifyRequest, dataParts: readonly (string | Buffer)[]): Buffer {
  const metaText = metaJson(request);
  let length = DATA_HEAD.length + META_HEAD.length + Buffer.byteLength(metaText) + 1;
  for (const part of dataParts) length += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  // every byte is written below
  const body = bodyBytes(length);
  let at = body.write(DATA_HEAD, 0, 'latin1');
  for (const part of dataParts) at += typeof part === 'string' ? body.write(part, at) : part.copy(body, at);
  at += body.write(META_HEAD, at, 'latin1');
  at += body.write(metaText, at);
  body[at] = 0x7d; // }
  return body;
}

/** `okSerialized` for a page of already serialized items: `{success, data: [...], meta, pagination}`. */
export function okPageSerialized<P>(
  request: FastifyRequest,
  itemsJson: readonly string[],
  pagination: P,
): string {
  return `{"success":true,"data":[${itemsJson.join(',')}],"meta":${metaJson(request)},"pagination":${JSON.stringify(pagination)}}`;
}

/** `{success: true, data, meta, pagination}` for cursor-paginated lists. */
export function okPage<T, P>(request: FastifyRequest, data: T, pagination: P) {
  return { success: true as const, data, meta: meta(request), pagination };
}

/** Timing, request id header and per-request meta extras. */
export const envelopePlugin = fp(
  async (app) => {
    app.decorateRequest('startedAt', 0);
    app.decorateRequest('metaExtras', null as unknown as MetaExtras);
    // the /v2 hooks are callbacks: none waits on the common path, and an async hook costs
    // a promise and a microtask turn per request (measured: about a fifth of a product read)
    app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
      request.startedAt = performance.now();
      request.metaExtras = {};
      // names in lower case, as sent: Fastify lowers any other spelling, a new string each time
      reply.header('x-request-id', request.id);
      done();
    });
  },
  { name: 'shelf-envelope' },
);
