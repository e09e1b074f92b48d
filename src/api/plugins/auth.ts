import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  type ApiKeyRecord,
  authFailureHeaders,
  type KeyDirectory,
  type Limiter,
  normalizeOrigin,
  publishableMayCall,
} from '../../access/index.js';
import { AppError } from '../errors.js';
import { sendError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKeyRecord | null;
  }
  interface FastifyContextConfig {
    /** routes that answer without a key (docs, health, CORS preflights) */
    public?: boolean;
    /** Cache-Control of the route's successful answers (default `private, max-age=…`) */
    cacheControl?: string;
  }
}

/** Response headers a browser script may read (CORS). */
export const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-MonthlyQuota-Limit',
  'X-MonthlyQuota-Remaining',
  'RateLimit-Policy',
  'RateLimit',
  'Retry-After',
  'X-Quota-Warning',
  'ETag',
  // the export's change-feed position: a browser syncing a copy must read it (docs/api.md)
  'Shelf-Changes-Cursor',
].join(', ');

const KEY_IN_TEXT = /\b((?:sk|pk)_shelf_(?:live|test)_)[0-9A-Za-z]+/g;
const API_KEY_PARAM = /([?&]api_key=)[^&#]*/gi;

/** A URL as logs may show it: the `api_key` parameter's value and anything shaped like a key hidden. */
export const redactUrl = (url: string): string =>
  url.replace(API_KEY_PARAM, '$1[REDACTED]').replace(KEY_IN_TEXT, '$1[REDACTED]');

/**
 * Logger settings that keep keys out of the logs: request URLs redacted (`?api_key=` of
 * legacy SSE clients), and the key headers censored should a serializer ever log headers.
 */
export const logRedaction = {
  serializers: {
    req: (req: {
      method?: string;
      url?: string;
      hostname?: string;
      ip?: string;
      socket?: { remotePort?: number };
    }) => ({
      method: req.method,
      url: redactUrl(req.url ?? ''),
      host: req.hostname,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    }),
  },
  redact: {
    paths: [
      'req.headers.authorization',
      'req.headers["x-api-key"]',
      'headers.authorization',
      'headers["x-api-key"]',
    ],
    censor: '[REDACTED]',
  },
};

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

/**
 * A publishable key may call the catalog's GET endpoints and the two search POSTs, and only
 * from a browser Origin listed on the key. Allowed browser calls get the CORS headers.
 */
function checkScope(request: FastifyRequest, reply: FastifyReply, key: ApiKeyRecord): AppError | null {
  if (key.type !== 'publishable') return null;
  const route = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
  if (!publishableMayCall(request.method, route))
    return new AppError('KEY_NOT_ALLOWED', `a publishable key may not call ${request.method} ${route}`, {
      keyType: 'publishable',
      reason: 'operation',
    });
  const sent = request.headers.origin;
  const origin = typeof sent === 'string' ? normalizeOrigin(sent) : null;
  if (!origin || !key.allowedOrigins.includes(origin))
    return new AppError(
      'KEY_NOT_ALLOWED',
      origin
        ? `this publishable key may not be used from ${origin}`
        : 'a publishable key must be used from a browser Origin listed on the key',
      { keyType: 'publishable', reason: 'origin', origin: origin ?? null },
    );
  reply.header('Access-Control-Allow-Origin', origin);
  reply.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  return null;
}

type Done = (error?: Error) => void;

/** Takes a request's key (a scope refusal is thrown after the request is counted). */
function accept(request: FastifyRequest, reply: FastifyReply, record: ApiKeyRecord): void {
  const refused = checkScope(request, reply, record);
  request.apiKey = record;
  if (refused) request.scopeRefusal = refused;
}

/**
 * Authenticates every request of its scope except routes marked `config.public`. Failed
 * authentications count against the client address's budget: past it, further bad or
 * missing keys from that address get 429 (valid keys are never affected). 401s and 429s of
 * this step carry that budget as their rate headers (see docs/api.md).
 */
export const authPlugin = fp<{ keys: KeyDirectory; limiter: Limiter }>(
  async (app, { keys, limiter }) => {
    app.decorateRequest('apiKey', null);
    app.decorateRequest('scopeRefusal', null);
    // a callback hook with no closure made per request on the common path (a known key)
    const refuse = (request: FastifyRequest, reply: FastifyReply, key: string | null, done: Done) =>
      void authFailure(
        request,
        reply,
        limiter,
        key,
        'in the X-API-Key header or as Authorization: Bearer <key>',
      ).then(done, done);
    app.addHook('onRequest', (request, reply, done) => {
      if (request.routeOptions.config?.public) return done();
      const vary = reply.getHeader('vary');
      reply.header('vary', vary ? `${vary}, Origin` : 'Origin');
      const key = presentedKey(request);
      const record = key ? keys.authenticate(key) : null;
      if (record) {
        accept(request, reply, record);
        return done();
      }
      // a key this server has not heard of yet (created elsewhere a moment ago): ask the store
      if (key && keys.resolve)
        return void keys.resolve(key).then(
          (late) => {
            if (!late) return refuse(request, reply, key, done);
            accept(request, reply, late);
            done();
          },
          () => refuse(request, reply, key, done),
        );
      refuse(request, reply, key, done);
    });

    // unknown paths of this scope pass the same hooks: 401 before 404, rate headers on both
    app.setNotFoundHandler((request, reply) =>
      sendError(
        request,
        reply,
        new AppError('ROUTE_NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`),
      ),
    );
  },
  { name: 'shelf-auth', dependencies: ['shelf-envelope', 'shelf-errors'] },
);

declare module 'fastify' {
  interface FastifyRequest {
    /** set when a publishable key is used outside its scope; thrown after it is counted */
    scopeRefusal: AppError | null;
  }
}

/**
 * The error for a request without a valid key, after counting it against the client
 * address's budget of failed authentications (429 once the budget is spent) and holding it
 * for the delay its address's and key prefix's failures have earned (see `Limiter.authFailure`).
 */
export async function authFailure(
  request: FastifyRequest,
  reply: FastifyReply,
  limiter: Limiter,
  key: string | null,
  where: string,
): Promise<AppError> {
  const budget = await limiter.authFailure(request.ip, key);
  reply.headers(authFailureHeaders(budget));
  // held, not refused faster: each further guess of this address or key prefix waits longer
  if (budget.delayMs > 0) await new Promise((done) => setTimeout(done, budget.delayMs));
  if (budget.blocked)
    return new AppError(
      'RATE_LIMITED',
      'too many requests with missing or invalid API keys from this address; wait before retrying',
      { limit: budget.limit, window: 'minute', scope: 'client address' },
      budget.retryAfter,
    );
  if (!key) return new AppError('AUTH_REQUIRED', `send your API key ${where}`);
  return new AppError('AUTH_INVALID', 'the API key is malformed, unknown or revoked');
}
