import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiKeyRecord, KeyStore } from '../../access/index.js';
import { AppError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKeyRecord | null;
  }
  interface FastifyContextConfig {
    /** routes that answer without a key (docs, health) */
    public?: boolean;
  }
}

/** The key a request presents: `X-API-Key`, `Authorization: Bearer`, or `?api_key=` (MCP SSE clients). */
export function presentedKey(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  const auth = request.headers.authorization;
  if (typeof auth === 'string') {
    const match = auth.match(/^Bearer\s+(\S+)\s*$/i);
    if (match?.[1]) return match[1];
  }
  const query = request.query as Record<string, unknown> | undefined;
  if (query && typeof query.api_key === 'string' && query.api_key) return query.api_key;
  return null;
}

/** Authenticates every request except routes marked `config.public`. */
export const authPlugin = fp<{ keys: KeyStore }>(
  async (app, { keys }) => {
    app.decorateRequest('apiKey', null);
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config?.public || request.is404) return;
      const key = presentedKey(request);
      if (!key)
        throw new AppError(
          'AUTH_REQUIRED',
          'send your API key in the X-API-Key header or as Authorization: Bearer <key>',
        );
      const record = keys.authenticate(key);
      if (!record) throw new AppError('AUTH_INVALID', 'the API key is malformed, unknown or revoked');
      request.apiKey = record;
    });
  },
  { name: 'shelf-auth', dependencies: ['shelf-envelope'] },
);
