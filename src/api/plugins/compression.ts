import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { BROTLI_QUALITY, CODINGS, COMPRESSION_THRESHOLD, type Coding, GZIP_LEVEL } from './encoded-body.js';

export type ContentCoding = Coding | 'identity';

declare module 'fastify' {
  interface FastifyRequest {
    /** the content coding of this request's response, negotiated once from Accept-Encoding */
    contentCoding: ContentCoding;
  }
}

/** Bodies up to this size (a page of 100 products with offers fits) are compressed in one call. */
const SYNC_COMPRESSION_MAX = 1024 * 1024;

const Q_VALUE = /^q\s*=\s*(0(\.\d{0,3})?|1(\.0{0,3})?)$/i;

/**
 * Each coding an Accept-Encoding header names with its weight (RFC 9110 §12.5.3), lower-case;
 * `x-gzip` counts as `gzip`. An element with a malformed weight is left out, as if not sent.
 */
export function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const element of header.split(',')) {
    const [name = '', ...params] = element.split(';').map((s) => s.trim());
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/i.test(name)) continue;
    let q = 1;
    let valid = true;
    for (const param of params) {
      const m = Q_VALUE.exec(param);
      if (m) q = Number(m[1]);
      else if (/^q\s*=/i.test(param)) valid = false;
    }
    if (!valid) continue;
    const coding = name.toLowerCase() === 'x-gzip' ? 'gzip' : name.toLowerCase();
    // the first mention of a coding counts, as with any repeated field
    if (!weights.has(coding)) weights.set(coding, q);
  }
  return weights;
}

/**
 * The coding to answer with: the highest weight among br, gzip and identity, ties going to
 * br, then gzip, then identity. A coding the header does not name takes the weight of `*`;
 * identity, unnamed and without `*`, takes the lowest weight named (as the `negotiator`
 * package does), so `gzip;q=0.5` still means gzip. No header means identity (a client that
 * says nothing gets plain bytes), and so does a header that refuses everything (no 406).
 */
export function negotiateEncoding(header: string | undefined): ContentCoding {
  if (header === undefined) return 'identity';
  const known = negotiated.get(header);
  if (known !== undefined) return known;
  const coding = negotiate(header);
  // clients send a handful of distinct headers (each browser and HTTP library its own): the
  // parse was a few µs of every request; a flood of distinct or long ones is not kept
  if (negotiated.size < 256 && header.length <= 256) negotiated.set(header, coding);
  return coding;
}

const negotiated = new Map<string, ContentCoding>();

function negotiate(header: string): ContentCoding {
  const weights = parseAcceptEncoding(header);
  const star = weights.get('*');
  const lowest = weights.size ? Math.min(...weights.values()) : 1;
  const weightOf = (coding: ContentCoding) =>
    weights.get(coding) ?? star ?? (coding === 'identity' ? lowest : 0);
  let best: ContentCoding = 'identity';
  let bestWeight = 0;
  for (const coding of [...CODINGS, 'identity'] as const) {
    const weight = weightOf(coding);
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

/**
 * Content types worth compressing: JSON (also `+json`, NDJSON), JavaScript, XML and SVG, and
 * text other than `text/event-stream` (SSE must reach the client as each event is written).
 * Anything else (images, archives such as an export already gzipped) is sent as it is.
 */
export function compressible(contentType: string): boolean {
  const known = compressibleTypes.get(contentType);
  if (known !== undefined) return known;
  const type = (contentType.split(';', 1)[0] ?? '').trim().toLowerCase();
  const result =
    type !== 'text/event-stream' &&
    /^text\/|[/+](json|xml)$|^application\/(javascript|(x-)?ndjson)$/.test(type);
  // the routes send a handful of types, asked about on every response (a few µs of each)
  if (compressibleTypes.size < 256) compressibleTypes.set(contentType, result);
  return result;
}

const compressibleTypes = new Map<string, boolean>();

/** Adds `Accept-Encoding` to the reply's Vary (once, beside what is there, such as Origin). */
export function varyOnEncoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  // most answers have no Vary yet, or one of a few (Origin: auth.ts), asked on every response
  if (current === undefined || typeof current === 'string') {
    const before = current ?? '';
    let after = varyWithEncoding.get(before);
    if (after === undefined) {
      after = withEncoding([before].filter((v) => v !== ''));
      if (varyWithEncoding.size < 64) varyWithEncoding.set(before, after);
    }
    if (after !== current) reply.header('vary', after);
    return;
  }
  const values = Array.isArray(current) ? current : [String(current)];
  if (!namesEncoding(values)) reply.header('vary', withEncoding(values));
}

const namesEncoding = (values: readonly string[]): boolean =>
  values.some((v) => /(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(v));

/** Vary values with `accept-encoding`, or as they are when they name it (or `*`) already. */
function withEncoding(values: readonly string[]): string {
  if (namesEncoding(values)) return values.join(', ');
  // lower case: @fastify/compress looks for this exact spelling before adding its own
  return [...values, 'accept-encoding'].join(', ');
}

const varyWithEncoding = new Map<string, string>();

/**
 * gzip and brotli responses by Accept-Encoding (`@fastify/compress`) for every route that
 * sends through `reply.send`. The MCP transports write to the raw response (hijacked) and are
 * never compressed, so SSE events are not held back. The response cache (cache.ts) sends its
 * own compressed bodies, kept compressed, which the plugin passes through.
 */
export const compressionPlugin = fp(
  async (app) => {
    app.decorateRequest('contentCoding', 'identity');
    app.addHook('onRequest', (request, _reply, done) => {
      const coding =
        request.headers['x-no-compression'] === undefined
          ? negotiateEncoding(request.headers['accept-encoding'])
          : 'identity';
      request.contentCoding = coding;
      // @fastify/compress negotiates again from this header, and differently (it reads `*` as
      // gzip even after `gzip;q=0`): it is given the decision, so cached and fresh answers agree
      request.headers['accept-encoding'] = coding;
      done();
    });
    await app.register(fastifyCompress, {
      global: true,
      encodings: [...CODINGS],
      threshold: COMPRESSION_THRESHOLD,
      customTypes: compressible,
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
      zlibOptions: { level: GZIP_LEVEL },
      // bodies are in memory already; compressing them in one synchronous call took a
      // quarter (brotli) to a half (gzip) of the CPU of the threadpool stream the plugin
      // uses past its default of 8 KB on two cores (a 78 KB page: 0.9 against 3.5 and 2.0 ms)
      syncThreshold: SYNC_COMPRESSION_MAX,
      // no decompression of request bodies: bodies are small JSON (64 KiB limit)
      globalDecompression: false,
    });
    // responses that could be compressed vary by Accept-Encoding, whether or not this one was
    app.addHook('onSend', (_request, reply, payload, done) => {
      const type = reply.getHeader('Content-Type');
      if (payload != null && typeof type === 'string' && compressible(type)) varyOnEncoding(reply);
      done(null, payload);
    });
  },
  { name: 'shelf-compression' },
);
