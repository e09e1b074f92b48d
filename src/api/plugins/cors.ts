import fp from 'fastify-plugin';
import { type KeyDirectory, normalizeOrigin } from '../../access/index.js';

/** How long the Origins listed on publishable keys are remembered between preflights, ms. */
const ORIGINS_TTL_MS = 5000;

/**
 * CORS preflights (`OPTIONS`) for browser calls with publishable keys. A preflight carries
 * no key, so it is allowed when its Origin is listed on any active publishable key; the
 * actual request is then checked against its own key's Origins (auth.ts), which also adds
 * `Access-Control-Allow-Origin` to allowed responses. Secret keys get no CORS headers:
 * browsers cannot read their responses.
 */
export const corsPlugin = fp<{ keys: KeyDirectory }>(
  async (app, { keys }) => {
    let origins: Set<string> = new Set();
    let loadedAt = 0;
    const allowed = (origin: string) => {
      if (Date.now() - loadedAt > ORIGINS_TTL_MS) {
        origins = keys.publishableOrigins();
        loadedAt = Date.now();
      }
      return origins.has(origin);
    };

    app.options('/*', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      reply.header('Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
      const sent = request.headers.origin;
      const origin = typeof sent === 'string' ? normalizeOrigin(sent) : null;
      if (origin && allowed(origin)) {
        reply
          .header('Access-Control-Allow-Origin', origin)
          .header('Access-Control-Allow-Methods', 'GET, HEAD, POST')
          .header('Access-Control-Allow-Headers', 'X-API-Key, Authorization, Content-Type, If-None-Match')
          .header('Access-Control-Max-Age', '600');
      }
      return reply.code(204).send();
    });
  },
  { name: 'shelf-cors' },
);
