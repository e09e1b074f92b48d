import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from './keys.js';
import { authDelayMs, Limiter, limitHeaders } from './limiter.js';
import { LocalStore } from './stores/local-store.js';
import { emptyUsage, type UsageRow } from './usage.js';

/** An in-memory stand-in for access.db. */
function memorySink(initial: Record<string, number> = {}) {
  const rows = new Map<string, UsageRow>();
  for (const [id, requests] of Object.entries(initial))
    rows.set(`${id}|2026-11`, { keyId: id, month: '2026-11', ...emptyUsage(), requests });
  return {
    rows,
    get: (keyId: string, month: string) => {
      const r = rows.get(`${keyId}|${month}`);
      return r ? { requests: r.requests, cached: r.cached, errors: r.errors } : emptyUsage();
    },
    add: (add: readonly UsageRow[]) => {
      for (const a of add) {
        const r = rows.get(`${a.keyId}|${a.month}`) ?? { ...a, ...emptyUsage() };
        rows.set(`${a.keyId}|${a.month}`, {
          ...r,
          requests: r.requests + a.requests,
          cached: r.cached + a.cached,
          errors: r.errors + a.errors,
        });
      }
    },
    mirror: () => {},
  };
}

const key = (over: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: 'k1',
  prefix: 'sk_shelf_live_',
  last4: 'abcd',
  type: 'secret',
  env: 'live',
  plan: 'free',
  name: null,
  allowedOrigins: [],
  createdAt: '',
  revokedAt: null,
  ...over,
});

describe('Limiter over LocalStore (fake clock)', () => {
  const start = Date.UTC(2026, 10, 21, 10, 0, 0, 250);

  it('Retry-After never points before the end of the window', async () => {
    let now = start;
    const limiter = new Limiter(new LocalStore(memorySink(), { flushMs: 0, now: () => now }), {
      now: () => now,
    });
    for (let i = 0; i < 10; i++) {
      now = start + i * 1000;
      expect((await limiter.hit(key(), { count: 'requests' })).blocked).toBeNull();
    }
    now = start + 12_345;
    const refused = await limiter.hit(key(), { count: 'requests' });
    expect(refused.blocked).toBe('minute');
    const windowEnd = start + 60_000;
    expect(now + refused.retryAfter! * 1000).toBeGreaterThanOrEqual(windowEnd);
    expect(now + (refused.retryAfter! - 1) * 1000).toBeLessThan(windowEnd);
    const headers = limitHeaders(refused, now);
    expect(Number(headers['x-ratelimit-reset']) * 1000).toBeGreaterThanOrEqual(windowEnd);
    now = windowEnd - 1;
    expect((await limiter.hit(key(), { count: 'requests' })).blocked).toBe('minute');
    now = windowEnd;
    expect((await limiter.hit(key(), { count: 'requests' })).blocked).toBeNull();
  });

  it('Free stops at the quota, paid plans go on; test keys and cache hits never use the quota', async () => {
    const now = start;
    const sink = memorySink({ free: 4999, paid: 49_999, test: 9999 });
    const limiter = new Limiter(new LocalStore(sink, { flushMs: 0, now: () => now }), { now: () => now });
    const free = key({ id: 'free' });
    expect((await limiter.hit(free, { count: 'requests' })).month.remaining).toBe(0);
    expect((await limiter.hit(free, { count: 'requests' })).blocked).toBe('month');
    expect((await limiter.hit(free, { count: 'cached' })).blocked).toBe('month');
    const paid = key({ id: 'paid', plan: 'starter' });
    for (let i = 0; i < 3; i++) expect((await limiter.hit(paid, { count: 'requests' })).blocked).toBeNull();
    const test = key({ id: 'test', env: 'test' });
    const t = await limiter.hit(test, { count: 'requests' });
    expect(t).toMatchObject({ blocked: null, warning: null, month: { remaining: 5000 } });
    const cached = await limiter.hit(key({ id: 'other' }), { count: 'cached' });
    expect(cached.month.used).toBe(0);
    await limiter.store.flush();
    expect(sink.get('free', '2026-11').requests).toBe(5000);
    expect(sink.get('paid', '2026-11').requests).toBe(50_002);
    expect(sink.get('test', '2026-11').requests).toBe(10_000);
    expect(sink.get('other', '2026-11')).toEqual({ requests: 0, cached: 1, errors: 0 });
  });

  it('a restart continues the month where access.db left it', async () => {
    const sink = memorySink();
    const first = new Limiter(new LocalStore(sink, { flushMs: 0 }));
    for (let i = 0; i < 4; i++) await first.hit(key({ plan: 'pro' }), { count: 'requests' });
    await first.store.close();
    const second = new Limiter(new LocalStore(sink, { flushMs: 0 }));
    expect((await second.hit(key({ plan: 'pro' }), { count: 'requests' })).month.used).toBe(5);
  });

  it('a Free key gets 10, not 19, in 3.7 s across the turn of a minute (fixed windows let 19 through)', async () => {
    let now = start + 58_000;
    const limiter = new Limiter(new LocalStore(memorySink(), { flushMs: 0, now: () => now }), {
      now: () => now,
    });
    let served = 0;
    for (let i = 0; i < 38; i++) {
      now = start + 58_000 + i * 100;
      if (!(await limiter.hit(key({ id: 'boundary' }), { count: 'requests' })).blocked) served++;
    }
    expect(served).toBe(10);
  });

  it('no rolling window ever holds more than the limit, and Retry-After is never early (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 120 }),
        fc.constantFrom(3, 10),
        async (gaps, perMinute) => {
          let now = start;
          const store = new LocalStore(memorySink(), { flushMs: 0, now: () => now });
          const accepted: number[] = [];
          for (const gap of gaps) {
            now += gap;
            const state = await store.hit({
              keyId: 'p',
              limit: perMinute,
              windowMs: 60_000,
              month: '2026-11',
              monthTtlMs: 1,
              field: 'requests',
              cap: null,
            });
            if (!state.blocked) accepted.push(now);
            else {
              // at the moment Retry-After names, a request is allowed again: the oldest left
              const allowedAt = now + Math.ceil(state.resetMs / 1000) * 1000;
              const inWindowThen = accepted.filter((t) => t > allowedAt - 60_000).length;
              expect(inWindowThen).toBeLessThan(perMinute);
            }
          }
          for (const t of accepted)
            expect(accepted.filter((u) => u >= t && u < t + 60_000).length).toBeLessThanOrEqual(perMinute);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('failed authentications are delayed progressively per address and per key prefix', async () => {
    let now = start;
    const limiter = new Limiter(new LocalStore(memorySink(), { flushMs: 0, now: () => now }), {
      now: () => now,
      authFailuresPerMinute: 20,
    });
    const delays: number[] = [];
    for (let i = 0; i < 10; i++) delays.push((await limiter.authFailure('10.0.0.1', null)).delayMs);
    expect(delays).toEqual([0, 0, 0, 0, 0, 100, 200, 400, 800, 1600]);
    // one key prefix from many addresses: delayed past the budget, whatever the address
    const prefixDelays: number[] = [];
    for (let i = 0; i < 23; i++)
      prefixDelays.push(
        (await limiter.authFailure(`10.1.0.${i}`, `sk_shelf_live_Ab12Cd34${String(i).padStart(24, 'x')}`))
          .delayMs,
      );
    expect(prefixDelays.slice(0, 20).every((d) => d === 0)).toBe(true);
    expect(prefixDelays.slice(20)).toEqual([100, 200, 400]);
    expect(authDelayMs(1000, 5)).toBe(5000);
    now += 60_000;
    expect((await limiter.authFailure('10.0.0.1', null)).delayMs).toBe(0);
  });
});
