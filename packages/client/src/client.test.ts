import { describe, expect, it } from 'vitest';
import { createShelfClient } from './client.js';
import { ShelfError } from './errors.js';

/** A client whose transport answers `answer` and records the requests it was sent. */
function clientAnswering(answer: (request: Request) => Response | Promise<Response>, retries = 0) {
  const sent: Request[] = [];
  const client = createShelfClient({
    baseUrl: 'http://api.test/',
    apiKey: 'sk_shelf_test_abc',
    retry: { retries, baseDelayMs: 1 },
    fetch: async (request) => {
      sent.push(request);
      return answer(request);
    },
  });
  return { client, sent };
}

const failure = (error: unknown) => error as ShelfError;

describe('ShelfClient', () => {
  it('sends the key and Accept on every request, with path and query parameters filled in', async () => {
    const { client, sent } = clientAnswering(
      () =>
        new Response('{"success":true,"data":{"current":{}},"meta":{"requestId":"req_1"}}', { status: 200 }),
    );
    const res = await client.get('/v2/products/{id}/prices', {
      params: { path: { id: 'a b' }, query: { days: 7 } },
    });
    expect(sent[0]?.url).toBe('http://api.test/v2/products/a%20b/prices?days=7');
    expect(sent[0]?.headers.get('x-api-key')).toBe('sk_shelf_test_abc');
    expect(sent[0]?.headers.get('accept')).toBe('application/json');
    expect(res.requestId).toBe('req_1');
    expect(res.rateLimit).toMatchObject({ remaining: null, monthRemaining: null });
  });

  it('gives an answer without the envelope a code from its status, retryable for gateway errors', async () => {
    const { client, sent } = clientAnswering(
      () => new Response('<html>bad gateway</html>', { status: 502, headers: { 'x-request-id': 'edge-7' } }),
      1,
    );
    const error = failure(await client.get('/v2/brands').catch((e: unknown) => e));
    expect(error).toBeInstanceOf(ShelfError);
    expect(error).toMatchObject({ code: 'INTERNAL', status: 502, retryable: true, requestId: 'edge-7' });
    expect(sent).toHaveLength(2);
  });

  it('a request without an answer is UNREACHABLE with status 0 and the cause', async () => {
    const { client } = clientAnswering(() => Promise.reject(new TypeError('fetch failed')));
    const error = failure(await client.get('/v2/brands').catch((e: unknown) => e));
    expect(error).toMatchObject({ code: 'UNREACHABLE', status: 0, retryable: true });
    expect(error.message).toContain('http://api.test/');
    expect((error.cause as Error).message).toBe('fetch failed');
  });

  it('a 2xx that is not JSON or not an envelope is an INTERNAL ShelfError, not a crash', async () => {
    const html = clientAnswering(() => new Response('<svg/>', { status: 200 }));
    expect(failure(await html.client.get('/v2/brands').catch((e: unknown) => e))).toMatchObject({
      code: 'INTERNAL',
      retryable: false,
    });
    const bare = clientAnswering(() => new Response('{"items":[]}', { status: 200 }));
    expect(failure(await bare.client.get('/v2/brands').catch((e: unknown) => e))).toMatchObject({
      code: 'INTERNAL',
      message: 'the answer is not a Shelf envelope',
    });
  });

  it('walks the change feed with its own cursor parameter, since', async () => {
    const pages = [
      { data: [{ kind: 'added' }], pagination: { hasMore: true, nextCursor: 'c1' } },
      { data: [{ kind: 'removed' }], pagination: { hasMore: false, nextCursor: 'c2' } },
    ];
    const { client, sent } = clientAnswering(
      () => new Response(JSON.stringify({ success: true, meta: {}, ...pages.shift() }), { status: 200 }),
    );
    const seen: unknown[] = [];
    for await (const change of client.items('/v2/changes', { params: { query: { since: 'c0' } } }))
      seen.push(change);
    expect(seen).toHaveLength(2);
    expect(sent.map((r) => new URL(r.url).searchParams.get('since'))).toEqual(['c0', 'c1']);
    expect(sent.every((r) => !new URL(r.url).searchParams.has('cursor'))).toBe(true);
  });

  it('stops paginating when the server repeats a cursor instead of looping forever', async () => {
    const { client, sent } = clientAnswering(
      () =>
        new Response(
          JSON.stringify({
            success: true,
            data: [{}],
            meta: {},
            pagination: { hasMore: true, nextCursor: 'same' },
          }),
          { status: 200 },
        ),
    );
    let pages = 0;
    for await (const _ of client.paginate('/v2/brands')) pages++;
    expect(pages).toBe(2);
    expect(new URL(sent[1]?.url ?? '').searchParams.get('cursor')).toBe('same');
  });
});
