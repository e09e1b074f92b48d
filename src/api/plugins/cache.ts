import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { FrequencySketch } from '../../util/index.js';
import { compressible, varyOnEncoding } from './compression.js';
import {
  COMPRESSION_THRESHOLD,
  type Coding,
  type CompressedPrefix,
  compressPrefix,
  finishEncoded,
} from './encoded-body.js';
import { metaJson } from './envelope.js';

/**
 * A cached success response: its body split around `meta`, so each hit gets fresh meta, or
 * no body when the route rebuilds it from stored data as cheaply as a copy (cacheByReference).
 * The parts are kept as UTF-8 bytes: a hit copies them into one Buffer, where a string
 * would be measured and encoded again on every send (a 63 KB search page: 3–6 µs against
 * 45–90 µs), and they take half the memory of a string with any character past U+00FF.
 */
export interface CacheEntry {
  etag: string;
  contentType: string;
  head?: Buffer;
  tail?: Buffer;
  /** meta.interpretation of the original response (semantic search), kept on hits */
  interpretation?: Record<string, unknown>;
  /** a body without an envelope (an SVG chart): `head` is all of it, sent as it is */
  raw?: boolean;
  /** remembered without a body, which the route sends again on every hit (cacheByReference) */
  byReference?: boolean;
  /**
   * `head` compressed once per coding, made on the first response in that coding; a
   * response appends its meta and `tail` uncompressed (encoded-body.ts)
   */
  encoded?: Partial<Record<Coding, CompressedPrefix>>;
}

/** Weak: the body's meta differs on every response and its coding by Accept-Encoding. */
const weak = (etag: string): string => (etag.startsWith('W/') ? etag : `W/${etag}`);

declare module 'fastify' {
  interface FastifyRequest {
    /** the cached response this request will be answered with (set before limits run) */
    cacheEntry: CacheEntry | null;
    /** where this request's response is stored when it is cacheable */
    cacheKey: string | null;
    /** set by cacheByReference: the ETag of a body the route rebuilds on every hit */
    cacheReference: string | null;
    /** true when cacheEntry is a packed body's (inflated once limits have passed) */
    cachePacked: boolean;
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * Caches this response without its body: a hit still says `meta.cached: true`, is not
 * counted against the month and answers If-None-Match, but the route sends the body again.
 * For bodies read whole from the snapshot (stored product documents), where keeping a copy
 * in memory would cost more than reading it again; `etag` comes with the stored body.
 */
export function cacheByReference(request: FastifyRequest, etag: string): void {
  request.cacheReference = etag;
}

export interface CacheOptions {
  /** most cached responses (default 50,000; the byte budget is the usual limit) */
  maxEntries?: number;
  /** most bytes of cached bodies (default 64 MiB) */
  maxBytes?: number;
  /** Cache-Control max-age of successful GETs, seconds (default 3600) */
  maxAge?: number;
}

/**
 * Splits a serialized success body around its `meta` object, found by this request's id
 * (random, so it cannot occur elsewhere in the body): `[head, tail]`, or null when absent.
 * A scan of the short meta object replaces a parse and re-serialization of the whole body.
 */
export function splitAroundMeta(payload: string, requestId: string): [string, string] | null {
  const start = payload.indexOf(`"meta":{"requestId":${JSON.stringify(requestId)}`);
  if (start < 0) return null;
  const open = start + 7;
  const end = objectEnd(payload, open);
  return end < 0 ? null : [payload.slice(0, open), payload.slice(end)];
}

/** The index just past the JSON object opening at `open`, or -1 when it does not close. */
function objectEnd(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // a backslash escapes the next character
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1;
  }
  return -1;
}

/** What a cached body counts against the byte budget: its parts, its key and some overhead. */
const entrySize = (headBytes: number, tailBytes: number, key: string): number =>
  headBytes + tailBytes + key.length + 64;

/**
 * A cached body kept deflated (head and tail in one stream), for the answers the plain bodies
 * have no room for: a hit inflates it (a 72 KB search page: about 0.2 ms) instead of
 * answering the question again (a search miss: about 1.5 ms).
 */
interface PackedBody {
  entry: CacheEntry;
  packed: Buffer;
  /** bytes of the head; the rest of the inflated stream is the tail */
  headBytes: number;
}

/**
 * The share of the byte budget kept for packed bodies. A search page packs to about a tenth
 * of its bytes, so a quarter of the budget packed holds about three times as many pages as
 * the rest holds plain: under the Zipf law of search logs, the long tail that no longer fits
 * plain (a tenth of the searches with 48 MB on the demo) is then answered by an inflate.
 */
const PACKED_SHARE = 0.25;
/** deflate's level for packed bodies: packed once, inflated on every hit */
const PACK_LEVEL = 6;
/** A page of JSON packs to about this fraction of its bytes (to judge admission before packing it). */
const PACKED_RATIO = 0.15;

/**
 * `bytes` in memory of its own size: zlib answers a short output with a view of its 16 KB
 * output chunk, which would keep the whole chunk alive and past the byte budget's count.
 */
function exact(bytes: Buffer): Buffer {
  if (bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.byteLength);
  bytes.copy(own);
  return own;
}

/** Bytes of the compressed variants kept with a cached body. */
const encodedSize = (entry: CacheEntry): number =>
  (entry.encoded?.br?.bytes.length ?? 0) + (entry.encoded?.gzip?.bytes.length ?? 0);

/** Query string with the key removed and parameters sorted: equal questions share an entry. */
export function normalizedQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return '';
  const params = [...new URLSearchParams(url.slice(at + 1))].filter(([name]) => name !== 'api_key');
  params.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return new URLSearchParams(params).toString();
}

/** True when an If-None-Match header names `etag` (weak comparison, `*` included). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

/**
 * The response cache (the spec's "edge cache") for GETs: keyed by method, catalog snapshot,
 * plan, Accept, path and normalized query, so plan-gated bodies never reach a lower plan and a
 * new snapshot starts an empty cache. Hits say `meta.cached: true` and are counted against
 * the minute, not the month (limits.ts). Every successful GET gets an ETag and Cache-Control;
 * If-None-Match answers 304.
 */
export const cachePlugin = fp<CacheOptions & { catalogVersion: () => string | null }>(
  async (app, options) => {
    const maxAge = options.maxAge ?? 3600;
    const privateCacheControl = `private, max-age=${maxAge}`;
    const cacheControlOf = (request: FastifyRequest) =>
      request.routeOptions.config?.cacheControl ?? privateCacheControl;
    const enabled = options.maxEntries !== 0;
    const maxEntries = Math.max(1, options.maxEntries ?? 50_000);
    const budget = options.maxBytes ?? 64 * 1024 * 1024;
    const packedBytes = Math.floor(budget * PACKED_SHARE);
    const maxBytes = budget - packedBytes;
    // Every cacheable answer is remembered without its body (ETag, a few hundred bytes), so a
    // repeat is a hit; bodies are kept in a byte budget, admitted by how often they are asked
    // for. A crawl over every product then cannot push out the searches people repeat.
    const references = new LRUCache<string, CacheEntry>({ max: maxEntries });
    const bodies = new LRUCache<string, CacheEntry>({
      max: maxEntries,
      maxSize: maxBytes,
      sizeCalculation: (e, key) => entrySize(e.head?.length ?? 0, e.tail?.length ?? 0, key) + encodedSize(e),
    });
    const packedBodies = new LRUCache<string, PackedBody>({
      max: maxEntries,
      maxSize: Math.max(1, packedBytes),
      sizeCalculation: (b, key) => entrySize(b.packed.length, 0, key),
    });
    const asked = new FrequencySketch(maxEntries);
    /** True when a body of `size` bytes for `key` should be kept: room, or asked for more than the one it evicts. */
    const admit = (key: string, size: number): boolean =>
      asked.admits(bodies, { maxSize: maxBytes, maxEntries }, key, size);
    /**
     * Keeps a body the plain ones had no room for deflated, when the packed ones admit it and
     * it is asked for a second time: a crawl's one-off answers (every barcode, every price
     * history in turn) would each cost a deflate and never be asked for again.
     */
    const keepPacked = (key: string, entry: CacheEntry, head: string, tail: string): void => {
      if (packedBytes <= 0 || asked.frequency(key) < 2) return;
      const limits = { maxSize: packedBytes, maxEntries };
      const estimate = entrySize(Math.ceil((head.length + tail.length) * PACKED_RATIO), 0, key);
      if (!asked.admits(packedBodies, limits, key, estimate)) return;
      const raw = Buffer.from(head + tail);
      const headBytes = Buffer.byteLength(head);
      packedBodies.set(key, { entry, packed: exact(deflateRawSync(raw, { level: PACK_LEVEL })), headBytes });
    };
    /**
     * The entry of a packed body with its head and tail inflated, or null when none is kept.
     * A body now asked for more often than the plain one it would push out moves there.
     */
    const unpacked = (key: string): CacheEntry | null => {
      const kept = packedBodies.get(key);
      if (!kept) return null;
      const raw = exact(inflateRawSync(kept.packed));
      // views of the one inflated buffer, which they exactly cover
      const head = raw.subarray(0, kept.headBytes);
      const tail = raw.subarray(kept.headBytes);
      const entry: CacheEntry = { ...kept.entry, head, tail };
      if (admit(key, entrySize(head.length, tail.length, key))) {
        packedBodies.delete(key);
        bodies.set(key, entry);
      }
      return entry;
    };
    let version: string | null = null;

    /**
     * The coding this request's body of `length` bytes is sent in: identity when the client
     * asked for none, the type is not worth compressing or the body is too small to gain.
     */
    const codingFor = (request: FastifyRequest, contentType: string, length: number): Coding | null =>
      request.contentCoding !== 'identity' && length >= COMPRESSION_THRESHOLD && compressible(contentType)
        ? request.contentCoding
        : null;

    /** The entry's head compressed in `coding`: made once and kept with the body. */
    const prefixOf = (key: string, entry: CacheEntry, head: Buffer, coding: Coding): CompressedPrefix => {
      const kept = entry.encoded?.[coding];
      if (kept) return kept;
      const prefix = compressPrefix(coding, head);
      // a new object: the LRU measures a value again only when it changes, and the byte
      // budget must count the variant (the entry may then be dropped if it no longer fits)
      if (bodies.peek(key) === entry)
        bodies.set(key, { ...entry, encoded: { ...entry.encoded, [coding]: prefix } });
      return prefix;
    };

    /** Sends `head`, `middle` and `tail`, compressed from the kept prefix when the client takes a coding. */
    const sendParts = (
      request: FastifyRequest,
      reply: FastifyReply,
      entry: CacheEntry,
      parts: { head: Buffer; middle: Buffer; tail: Buffer },
    ) => {
      const { head, middle, tail } = parts;
      reply.type(entry.contentType);
      if (compressible(entry.contentType)) varyOnEncoding(reply);
      const coding = codingFor(request, entry.contentType, head.length + middle.length + tail.length);
      const key = request.cacheKey;
      if (!coding || !key) return Buffer.concat([head, middle, tail]);
      reply.header('Content-Encoding', coding);
      return finishEncoded(coding, prefixOf(key, entry, head, coding), [middle, tail]);
    };

    const keyOf = (request: FastifyRequest): string | null => {
      if (!enabled || (request.method !== 'GET' && request.method !== 'HEAD') || !request.apiKey) return null;
      let current: string | null;
      try {
        current = options.catalogVersion();
      } catch {
        return null;
      }
      if (!current) return null;
      if (current !== version) {
        // a new snapshot was published: nothing cached before may be served again
        references.clear();
        bodies.clear();
        packedBodies.clear();
        version = current;
      }
      const url = request.url;
      const at = url.indexOf('?');
      const path = at < 0 ? url : url.slice(0, at);
      // HEAD is answered from GET's entry (same headers, no body)
      return `GET\n${current}\n${request.apiKey.plan}\n${request.headers.accept ?? ''}\n${path}\n${at < 0 ? '' : normalizedQuery(url)}`;
    };

    app.decorateRequest('cacheEntry', null);
    app.decorateRequest('cacheKey', null);
    app.decorateRequest('cacheReference', null);
    app.decorateRequest('cachePacked', false);

    // callback hooks: they never wait, and an async hook costs a promise on every request
    app.addHook('onRequest', (request, _reply, done) => {
      if (!request.scopeRefusal) {
        const key = keyOf(request);
        request.cacheKey = key;
        if (key) {
          asked.increment(key);
          // an answer the route rebuilds (a product read) is never kept with its body: the
          // entry remembered is all there is, found with one lookup instead of three
          const remembered = references.get(key);
          if (remembered?.byReference) request.cacheEntry = remembered;
          else {
            // a packed body is inflated only once limits and If-None-Match have passed (below)
            const kept = bodies.get(key) ?? packedBodies.get(key)?.entry;
            request.cachePacked = kept !== undefined && kept.head === undefined;
            request.cacheEntry = kept ?? remembered ?? null;
          }
        }
      }
      done();
    });

    // after limits passed: answer from the cache, with this request's own meta
    app.addHook('preValidation', (request, reply, done) => {
      const entry = request.cacheEntry;
      if (!entry) return done();
      reply.header('etag', entry.etag).header('cache-control', cacheControlOf(request));
      if (etagMatches(request.headers['if-none-match'], entry.etag)) {
        if (compressible(entry.contentType)) varyOnEncoding(reply);
        return reply.code(304).send();
      }
      request.metaExtras.cached = true;
      if (entry.interpretation) request.metaExtras.interpretation = entry.interpretation;
      // an entry without a body: its packed copy, else the route answers (cacheByReference);
      // a remembered answer (references) had no packed copy when it was looked up above
      const body =
        entry.head !== undefined ? entry : request.cachePacked ? unpacked(request.cacheKey as string) : null;
      if (body?.head === undefined || body.tail === undefined) return done();
      const middle = body.raw ? EMPTY : Buffer.from(metaJson(request));
      reply.send(sendParts(request, reply, body, { head: body.head, middle, tail: body.tail }));
    });

    app.addHook('onSend', (request, reply, payload, done) => {
      done(null, store(request, reply, payload));
    });

    /** Stores a cacheable success body; the payload to send (compressed when it was kept). */
    const store = (request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown => {
      if (reply.statusCode !== 200 || !request.cacheKey) {
        if (reply.statusCode >= 400 && !reply.hasHeader('Cache-Control'))
          reply.header('Cache-Control', 'no-store');
        return payload;
      }
      // a repeat of a body the route rebuilds anyway
      if (request.cacheEntry && request.cacheReference) return payload;
      const contentType = String(reply.getHeader('content-type') ?? '');
      const key = request.cacheKey;
      let etag: string;
      /** the kept body and the parts of this payload around its meta, when the cache took it */
      let kept: { entry: CacheEntry; head: Buffer; middle: Buffer; tail: Buffer } | null = null;
      if (request.cacheReference && contentType.includes('json')) {
        // remembered without its body, which may be a string or bytes (a stored document)
        etag = weak(request.cacheReference);
        references.set(key, { etag, contentType, byReference: true });
      } else if (typeof payload !== 'string') {
        // answered from a kept body (a Buffer)
        return payload;
      } else if (!contentType.includes('json')) {
        // no meta to refresh: the body is kept whole
        etag = weak(`"${createHash('sha1').update(payload).digest('base64url')}"`);
        const entry: CacheEntry = { etag, contentType, raw: true };
        references.set(key, entry);
        if (admit(key, entrySize(payload.length, 0, key))) {
          const body = { ...entry, head: Buffer.from(payload), tail: EMPTY };
          bodies.set(key, body);
          kept = { entry: body, head: body.head, middle: EMPTY, tail: EMPTY };
        }
      } else {
        const parts = splitAroundMeta(payload, request.id);
        if (!parts) return payload;
        const [head, tail] = parts;
        const interpretation = request.metaExtras.interpretation;
        etag = weak(`"${createHash('sha1').update(head).update(tail).digest('base64url')}"`);
        const entry: CacheEntry = { etag, contentType, ...(interpretation ? { interpretation } : {}) };
        references.set(key, entry);
        // bytes are made only for a body the cache takes (its length in characters is close)
        if (admit(key, entrySize(head.length, tail.length, key))) {
          const body = { ...entry, head: Buffer.from(head), tail: Buffer.from(tail) };
          bodies.set(key, body);
          const middle = Buffer.from(payload.slice(head.length, payload.length - tail.length));
          kept = { entry: body, head: body.head, middle, tail: body.tail };
        } else keepPacked(key, entry, head, tail);
      }
      // names in lower case, as sent (Fastify lowers any other spelling, a new string each time)
      reply.header('etag', etag).header('cache-control', cacheControlOf(request));
      if (etagMatches(request.headers['if-none-match'], etag)) {
        reply.code(304);
        return '';
      }
      // a kept body is compressed here, once, and the variant kept for the hits that follow
      return kept ? sendParts(request, reply, kept.entry, kept) : payload;
    };
  },
  { name: 'shelf-cache', dependencies: ['shelf-auth', 'shelf-envelope'] },
);
