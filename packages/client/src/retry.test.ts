import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './rate-limit.js';
import { backoffMs, type RetryEvent, retryingFetch } from './retry.js';

const envelope = (status: number, code: string, retryable: boolean, retryAfter: number | null = null) =>
  new Response(
    JSON.stringify({
      success: false,
      error: { code, message: code.toLowerCase(), userMessage: code, details: null, retryable, retryAfter },
      meta: {},
    }),
    { status, headers: { 'content-type': 'application/json' } },
  );
const ok = () => new Response('{"success":true,"data":1,"meta":{}}', { status: 200 });

/** A transport answering from a script, recording what it was sent. */
function scripted(...answers: (() => Response | Promise<Response>)[]) {
  const sent: { method: string; body: string }[] = [];
  const fetch = async (request: Request) => {
    sent.push({ method: request.method, body: await request.text() });
    const next = answers.shift();
    if (!next) throw new Error('no more answers scripted');
    return next();
  };
  return { fetch, sent };
}

const run = (
  transport: (r: Request) => Promise<Response>,
  retry: Partial<{ retries: number; baseDelayMs: number; maxDelayMs: number }> = {},
  timeoutMs = 5_000,
) => {
  const events: RetryEvent[] = [];
  const fetch = retryingFetch(transport, {
    retry: { retries: 2, baseDelayMs: 10, maxDelayMs: 2_000, ...retry },
    timeoutMs,
    onRetry: (e) => events.push(e),
  });
  return { fetch, events };
};

describe('retryingFetch', () => {
  it('retries a retryable error after the wait the envelope names, then returns the success', async () => {
    const api = scripted(
      () => envelope(503, 'CATALOG_UNAVAILABLE', true, 0.05),
      () => ok(),
    );
    const { fetch, events } = run(api.fetch);
    const started = Date.now();
    const res = await fetch(new Request('http://api.test/v2/products'));
    expect(res.status).toBe(200);
    expect(api.sent).toHaveLength(2);
    expect(events).toEqual([{ attempt: 1, delayMs: 50, status: 503, reason: 'CATALOG_UNAVAILABLE' }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('honours Retry-After (seconds) on an answer without the envelope', async () => {
    const api = scripted(
      () => new Response('busy', { status: 429, headers: { 'retry-after': '1' } }),
      () => ok(),
    );
    const { fetch, events } = run(api.fetch);
    const started = Date.now();
    expect((await fetch(new Request('http://api.test/v2/x'))).status).toBe(200);
    expect(events[0]).toMatchObject({ delayMs: 1000, status: 429, reason: 'HTTP 429' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('does not retry what the envelope calls not retryable (400, 404)', async () => {
    const api = scripted(() => envelope(404, 'NOT_FOUND', false));
    const { fetch, events } = run(api.fetch);
    expect((await fetch(new Request('http://api.test/v2/products/x'))).status).toBe(404);
    expect(api.sent).toHaveLength(1);
    expect(events).toEqual([]);
  });

  it('returns at once when the server asks for a longer wait than maxDelayMs (a used-up quota)', async () => {
    const api = scripted(() => envelope(429, 'QUOTA_EXCEEDED', true, 86_400));
    const { fetch, events } = run(api.fetch);
    const res = await fetch(new Request('http://api.test/v2/products'));
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('QUOTA_EXCEEDED');
    expect(api.sent).toHaveLength(1);
    expect(events).toEqual([]);
  });

  it('gives up after `retries` further attempts and returns the last answer', async () => {
    const api = scripted(
      () => envelope(500, 'INTERNAL', true),
      () => envelope(500, 'INTERNAL', true),
      () => envelope(503, 'CATALOG_UNAVAILABLE', true),
    );
    const { fetch, events } = run(api.fetch);
    expect((await fetch(new Request('http://api.test/v2/x'))).status).toBe(503);
    expect(api.sent).toHaveLength(3);
    expect(events.map((e) => e.attempt)).toEqual([1, 2]);
  });

  it('sends a POST body again on each attempt (every Shelf endpoint is read-only)', async () => {
    const api = scripted(
      () => envelope(503, 'CATALOG_UNAVAILABLE', true, 0),
      () => ok(),
    );
    const { fetch } = run(api.fetch);
    const body = JSON.stringify({ query: 'quiet dishwasher' });
    await fetch(new Request('http://api.test/v2/products/search', { method: 'POST', body }));
    expect(api.sent).toEqual([
      { method: 'POST', body },
      { method: 'POST', body },
    ]);
  });

  it('retries a request that got no answer, then throws the last network error', async () => {
    const down = () => Promise.reject(new TypeError('fetch failed'));
    const api = scripted(down, down, down);
    const { fetch, events } = run(api.fetch);
    await expect(fetch(new Request('http://api.test/v2/x'))).rejects.toThrow('fetch failed');
    expect(events.map((e) => [e.attempt, e.status, e.reason])).toEqual([
      [1, 0, 'fetch failed'],
      [2, 0, 'fetch failed'],
    ]);
  });

  it('aborts an attempt that takes longer than timeoutMs', async () => {
    const hang = (request: Request) =>
      new Promise<Response>((_, reject) =>
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true }),
      );
    const { fetch } = run(hang, { retries: 0 }, 50);
    await expect(fetch(new Request('http://api.test/v2/x'))).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('backs off exponentially between half and the full delay', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (n, r) => {
          const full = 300 * 2 ** (n - 1);
          const d = backoffMs(n, 300, () => r);
          return d >= Math.floor(full / 2) && d <= full;
        },
      ),
    );
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    fc.assert(fc.property(fc.nat(10_000_000), (n) => parseRetryAfter(String(n)) === n));
    const now = Date.UTC(2026, 10, 24, 1, 0, 0);
    expect(parseRetryAfter('Tue, 24 Nov 2026 01:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Tue, 24 Nov 2026 00:59:00 GMT', now)).toBe(0);
    for (const bad of ['', ' ', '-5', '1.5e3', 'soon', null]) expect(parseRetryAfter(bad, now)).toBeNull();
  });
});
