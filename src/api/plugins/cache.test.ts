import fc from 'fast-check';
import Fastify from 'fastify';
import fp from 'fastify-plugin';
import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../access/index.js';
import { cachePlugin, etagMatches, normalizedQuery, splitAroundMeta } from './cache.js';
import { envelopePlugin, newRequestId, ok } from './envelope.js';

describe('response cache keys', () => {
  it('the same parameters in any order, with or without api_key, give one key', () => {
    const param = fc.tuple(
      fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== 'api_key'),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(param, { maxLength: 8 }), fc.string({ maxLength: 40 }), (params, apiKey) => {
        const qs = (ps: [string, string][]) => new URLSearchParams(ps).toString();
        const shuffled = [...params].reverse();
        const a = normalizedQuery(`/v2/products?${qs(params)}`);
        const b = normalizedQuery(`/v2/products?${qs([...shuffled, ['api_key', apiKey]])}`);
        expect(b).toBe(a);
        expect(a).not.toContain('api_key=');
      }),
    );
  });

  it('different values give different keys', () => {
    expect(normalizedQuery('/x?q=tv&limit=1')).not.toBe(normalizedQuery('/x?q=tv&limit=2'));
    expect(normalizedQuery('/x?q=a&q=b')).toBe(normalizedQuery('/x?q=b&q=a'));
    expect(normalizedQuery('/x')).toBe('');
  });

  it('If-None-Match compares weakly and accepts lists and *', () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"x", "abc"', '"abc"')).toBe(true);
    expect(etagMatches('*', '"abc"')).toBe(true);
    expect(etagMatches('"abd"', '"abc"')).toBe(false);
    expect(etagMatches(undefined, '"abc"')).toBe(false);
  });

  it('splits any body around its meta, whatever the data and meta hold', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.jsonValue(),
        fc.option(fc.jsonValue()),
        fc.stringMatching(/^req_[A-Za-z0-9_-]{12}$/),
        (data, interpretation, pagination, requestId) => {
          const meta = { requestId, timestamp: 't', cached: false, interpretation };
          const body = JSON.stringify({
            success: true,
            data,
            meta,
            ...(pagination === null ? {} : { pagination }),
          });
          const parts = splitAroundMeta(body, requestId);
          expect(parts).not.toBeNull();
          const [head, tail] = parts as [string, string];
          const expected = JSON.parse(body);
          expected.meta = { other: 1 };
          expect(JSON.parse(head + JSON.stringify({ other: 1 }) + tail)).toEqual(expected);
        },
      ),
    );
    expect(splitAroundMeta('{"success":true,"data":1}', 'req_x')).toBeNull();
  });
});

describe('cache hits', () => {
  /** The cache between the envelope and a route echoing `text`, for a Pro key. */
  async function cachedApp(options: { maxBytes?: number; maxEntries?: number } = {}) {
    const app = Fastify({ genReqId: newRequestId, requestIdHeader: false });
    await app.register(envelopePlugin);
    await app.register(
      fp(
        async (a) => {
          a.decorateRequest('apiKey', null);
          a.decorateRequest('scopeRefusal', null);
          a.addHook('onRequest', (request, _reply, done) => {
            request.apiKey = { plan: 'pro' } as ApiKeyRecord;
            done();
          });
        },
        { name: 'shelf-auth' },
      ),
    );
    await app.register(cachePlugin, { catalogVersion: () => 'v1', ...options });
    app.addHook('onSend', (_request, reply, payload, done) => {
      // whether the body came from the cache's bytes (a Buffer) or from the route
      reply.header('x-test-from-bytes', String(Buffer.isBuffer(payload)));
      done(null, payload);
    });
    app.get<{ Querystring: { text: string } }>('/echo', async (request) =>
      ok(request, { text: request.query.text }),
    );
    return app;
  }

  it('answer with the same bytes of data as the first response, for any text', async () => {
    const app = await cachedApp();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 200 }), async (text) => {
        // each run its own entry: generated texts repeat
        const url = `/echo?text=${encodeURIComponent(text)}&run=${run++}`;
        const first = await app.inject(url);
        const hit = await app.inject(url);
        expect(first.json().meta.cached).toBe(false);
        expect(hit.json().meta.cached).toBe(true);
        expect(hit.json().data).toEqual({ text });
        expect(hit.headers['content-type']).toBe(first.headers['content-type']);
        expect(Number(hit.headers['content-length'])).toBe(hit.rawPayload.length);
        expect(hit.headers.etag).toBe(first.headers.etag);
      }),
      { numRuns: 100 },
    );
    await app.close();
  });

  it('keep the bodies asked for often when a crawl of one-off requests passes through', async () => {
    // room for four entries of about 4 KB (a 2 KB body and its 2 KB key)
    const app = await cachedApp({ maxBytes: 18_000 });
    const popular = ['a', 'b', 'c'].map((q) => `/echo?text=${q.repeat(2000)}`);
    for (let round = 0; round < 3; round++) for (const url of popular) await app.inject(url);
    for (let n = 0; n < 50; n++) {
      const url = `/echo?text=${'x'.repeat(2000)}&page=${n}`;
      await app.inject(url);
      // a repeat is still a hit (not counted against the month), its body rebuilt by the route
      const repeat = await app.inject(url);
      expect(repeat.json().meta.cached).toBe(true);
    }
    for (const url of popular) {
      const hit = await app.inject(url);
      expect(hit.json().meta.cached).toBe(true);
      expect(hit.headers['x-test-from-bytes']).toBe('true');
    }
    await app.close();
  });

  it('answer the repeated bodies the plain budget has no room for from their packed copy, byte for byte', async () => {
    // the plain part holds the three popular bodies; the packed quarter holds a few pages more
    const app = await cachedApp({ maxBytes: 40_000 });
    const popular = ['a', 'b', 'c'].map((q) => `/echo?text=${q.repeat(4000)}`);
    for (let round = 0; round < 3; round++) for (const url of popular) await app.inject(url);
    const tail = `/echo?text=${encodeURIComponent('déjà vu '.repeat(400))}`;
    const first = await app.inject(tail);
    // asked once, it is not packed (a crawl's answers are asked once); asked again, it is
    const again = await app.inject(tail);
    expect(again.headers['x-test-from-bytes']).toBe('false');
    expect(again.json().meta.cached).toBe(true);
    const hit = await app.inject(tail);
    expect(hit.headers['x-test-from-bytes']).toBe('true');
    expect(hit.json().meta.cached).toBe(true);
    expect(hit.json().data).toEqual(first.json().data);
    expect(hit.headers.etag).toBe(first.headers.etag);
    const revalidated = await app.inject({
      url: tail,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    const strip = (body: string) => body.replace(/"meta":\{[^}]*\}/, '');
    expect(strip(hit.body)).toBe(strip(first.body));
    for (const url of popular) expect((await app.inject(url)).headers['x-test-from-bytes']).toBe('true');
    await app.close();
  });
});
