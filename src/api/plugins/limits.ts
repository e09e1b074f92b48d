import fp from 'fastify-plugin';
import { type Limiter, limitHeaders } from '../../access/index.js';
import { AppError } from '../errors.js';

/**
 * Plans applied to every keyed request: per-minute limit (429 RATE_LIMITED), monthly quota
 * (Free: 429 QUOTA_EXCEEDED; paid: served, counted as overage), the 80% warning, and the
 * rate headers on every response, errors included. Cache hits (see cache.ts) count against
 * the minute but not the month. Runs after auth and the cache lookup.
 */
export const limitsPlugin = fp<{ limiter: Limiter }>(
  async (app, { limiter }) => {
    app.addHook('onRequest', async (request, reply) => {
      const key = request.apiKey;
      if (!key) return;
      const refusal = request.scopeRefusal;
      const state = await limiter.hit(key, {
        count: refusal ? 'none' : request.cacheEntry ? 'cached' : 'requests',
      });
      reply.headers(limitHeaders(state));
      if (state.warning) {
        reply.header('X-Quota-Warning', state.warning);
        request.metaExtras.warnings = [...(request.metaExtras.warnings ?? []), state.warning];
      }
      if (state.blocked === 'minute')
        throw new AppError(
          'RATE_LIMITED',
          `the ${key.plan} plan allows ${state.minute.limit} requests per minute; retry in ${state.retryAfter} s`,
          { limit: state.minute.limit, window: 'minute', plan: key.plan },
          state.retryAfter,
        );
      if (state.blocked === 'month')
        throw new AppError(
          'QUOTA_EXCEEDED',
          `the monthly quota of ${state.month.limit} requests of the ${key.plan} plan is used up; it renews at the start of next month (UTC)`,
          { limit: state.month.limit, window: 'month', plan: key.plan, upgrade: 'starter' },
          state.retryAfter,
        );
      if (refusal) throw refusal;
    });

    // error responses are reported per key by `shelf keys usage`
    app.addHook('onResponse', async (request, reply) => {
      if (request.apiKey && reply.statusCode >= 400) {
        try {
          await limiter.noteError(request.apiKey);
        } catch (error) {
          request.log.warn({ err: error }, 'could not count an error response');
        }
      }
    });
  },
  { name: 'shelf-limits', dependencies: ['shelf-auth', 'shelf-cache'] },
);
