import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type ApiKeyRecord, type Limiter, type LimitState, limitHeaders } from '../../access/index.js';
import { AppError } from '../errors.js';

/**
 * Plans applied to every keyed request: per-minute limit (429 RATE_LIMITED), monthly quota
 * (Free: 429 QUOTA_EXCEEDED; paid: served, counted as overage), the 80% warning, and the
 * rate headers on every response, errors included. Cache hits (see cache.ts) count against
 * the minute but not the month. Runs after auth and the cache lookup.
 */
export const limitsPlugin = fp<{ limiter: Limiter }>(
  async (app, { limiter }) => {
    /** Headers and the 80% warning of a counted request; the error that refuses it, if any. */
    const apply = (request: FastifyRequest, reply: FastifyReply, state: LimitState): AppError | undefined => {
      const key = request.apiKey as ApiKeyRecord;
      reply.headers(limitHeaders(state));
      if (state.warning) {
        reply.header('X-Quota-Warning', state.warning);
        request.metaExtras.warnings = [...(request.metaExtras.warnings ?? []), state.warning];
      }
      if (state.blocked === 'minute')
        return new AppError(
          'RATE_LIMITED',
          `the ${key.plan} plan allows ${state.minute.limit} requests per minute; retry in ${state.retryAfter} s`,
          { limit: state.minute.limit, window: 'minute', plan: key.plan },
          state.retryAfter,
        );
      if (state.blocked === 'month')
        return new AppError(
          'QUOTA_EXCEEDED',
          `the monthly quota of ${state.month.limit} requests of the ${key.plan} plan is used up; it renews at the start of next month (UTC)`,
          { limit: state.month.limit, window: 'month', plan: key.plan, upgrade: 'starter' },
          state.retryAfter,
        );
      return request.scopeRefusal ?? undefined;
    };

    // a callback hook: counters in memory answer at once, only Redis makes it wait
    app.addHook('onRequest', (request, reply, done) => {
      const key = request.apiKey;
      if (!key) return done();
      const count = request.scopeRefusal ? 'none' : request.cacheEntry ? 'cached' : 'requests';
      const state = limiter.hitNow(key, { count });
      if (state) return done(apply(request, reply, state));
      limiter.hit(key, { count }).then((later) => done(apply(request, reply, later)), done);
    });

    // error responses are reported per key by `shelf keys usage` (a callback hook: most
    // responses are not errors, and an async hook costs a promise on every one)
    app.addHook('onResponse', (request, reply, done) => {
      if (request.apiKey && reply.statusCode >= 400)
        limiter.noteError(request.apiKey).catch((error: unknown) => {
          request.log.warn({ err: error }, 'could not count an error response');
        });
      done();
    });
  },
  { name: 'shelf-limits', dependencies: ['shelf-auth', 'shelf-cache'] },
);
