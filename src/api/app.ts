import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { createCounterStore, type KeyDirectory, Limiter } from '../access/index.js';
import type { CatalogProvider } from '../catalog/index.js';
import { explorePlugin } from '../explore/index.js';
import { createSearchEngine, type SearchEngine } from '../search/index.js';
import { authPlugin, logRedaction, redactUrl } from './plugins/auth.js';
import { type CacheOptions, cachePlugin } from './plugins/cache.js';
import { catalogPlugin } from './plugins/catalog.js';
import { compressionPlugin } from './plugins/compression.js';
import { corsPlugin } from './plugins/cors.js';
import { envelopePlugin, newRequestId } from './plugins/envelope.js';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from './plugins/errors.js';
import { limitsPlugin } from './plugins/limits.js';
import { mcpPlugin } from './plugins/mcp.js';
import { swaggerPlugin } from './plugins/swagger.js';
import { catalogTreeRoutes } from './routes/v2/catalog-tree.js';
import { changeRoutes } from './routes/v2/changes.js';
import { directoryRoutes } from './routes/v2/directory.js';
import { knowledgeRoutes } from './routes/v2/knowledge.js';
import { priceChartRoutes } from './routes/v2/price-chart.js';
import { productDetailRoutes } from './routes/v2/product-details.js';
import { productRoutes } from './routes/v2/products.js';
import { searchRoutes } from './routes/v2/search.js';

export interface AppOptions {
  catalog: CatalogProvider;
  /** API keys: access.db (`KeyStore`) or Redis (`RedisKeyStore`) */
  keys: KeyDirectory;
  /** counters, limits and the response cache (defaults: local counters, cache on) */
  access?: AccessOptions;
  /** Fastify logger option (default: no logging) */
  logger?: FastifyServerOptions['logger'];
  /**
   * the search engine, with its embeddings provider (default: built-in embeddings). `serve`
   * passes the one its configuration chose (SHELF_EMBEDDINGS_*); nothing under api/ reads
   * the configuration itself
   */
  search?: SearchEngine;
}

export interface AccessOptions {
  /** share counters through Redis (falls back to local counters while it is away) */
  redisUrl?: string;
  /** how often usage is written to access.db, ms (default 2000) */
  usageFlushMs?: number;
  /** failed authentications per client address and minute before 429 (default 20) */
  authFailuresPerMinute?: number;
  /** length of the rolling rate window, ms (default 60 000; only tests shorten it) */
  rateWindowMs?: number;
  /** remote MCP sessions without a message this long are closed, ms (default 5 minutes) */
  mcpIdleMs?: number;
  cache?: CacheOptions;
}

/**
 * Builds the REST API from its parts. `serve`, the tests and the benchmarks all call this;
 * only `server.ts` listens on a port.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // keys never reach the logs (`?api_key=`, X-API-Key, Authorization)
    logger: options.logger ? { ...(options.logger === true ? {} : options.logger), ...logRedaction } : false,
    // one log line per request (the onResponse hook below), not Fastify's two
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors,
    clientErrorHandler,
    genReqId: newRequestId,
    requestIdHeader: false,
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ajv: {
      // verbose: issues carry their schema, so a 400 can say what is allowed (plugins/errors.ts);
      // allErrors: a 400 names every invalid field of the request, not only the first
      customOptions: {
        coerceTypes: 'array',
        removeAdditional: false,
        useDefaults: true,
        allErrors: true,
        verbose: true,
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // bodies are JSON only: a text/plain body is 415 UNSUPPORTED_MEDIA_TYPE, not a 400 about its shape
  app.removeContentTypeParser('text/plain');
  // without a logger there is no line to write: no hook (a hook runs on every response, and
  // an async one costs a promise and a microtask turn each time)
  if (options.logger)
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        {
          method: request.method,
          url: redactUrl(request.url),
          statusCode: reply.statusCode,
          responseTime: Math.round(reply.elapsedTime * 100) / 100,
        },
        'request',
      );
      done();
    });

  // first: it negotiates the coding and must see every route as it is added
  await app.register(compressionPlugin);
  await app.register(envelopePlugin);
  await app.register(errorsPlugin);
  await app.register(catalogPlugin, { provider: options.catalog });
  await app.register(swaggerPlugin);
  await app.register(explorePlugin);

  app.get(
    '/health',
    {
      config: { public: true },
      schema: { hide: true },
    },
    async () => {
      let catalog: string | null = null;
      try {
        catalog = app.catalog().version;
      } catch {
        catalog = null;
      }
      return { status: catalog ? 'ok' : 'no_catalog', catalog };
    },
  );

  const access = options.access ?? {};
  const counters = createCounterStore({
    sink: options.keys.usageSink(),
    redisUrl: access.redisUrl,
    flushMs: access.usageFlushMs,
    log: app.log,
  });
  app.addHook('onClose', () => counters.close());
  const limiter = new Limiter(counters, {
    authFailuresPerMinute: access.authFailuresPerMinute,
    windowMs: access.rateWindowMs,
  });
  const catalogVersion = () => app.catalog().version;

  await app.register(
    async (v2) => {
      // order matters: preflight, key and scope, cache lookup, limits (then the cache answers)
      await v2.register(corsPlugin, { keys: options.keys });
      await v2.register(authPlugin, { keys: options.keys, limiter });
      await v2.register(cachePlugin, { ...access.cache, catalogVersion });
      await v2.register(limitsPlugin, { limiter });
      await v2.register(searchRoutes, { engine: options.search ?? createSearchEngine() });
      await v2.register(productRoutes);
      await v2.register(directoryRoutes);
      await v2.register(productDetailRoutes);
      await v2.register(catalogTreeRoutes);
      await v2.register(knowledgeRoutes);
      await v2.register(priceChartRoutes);
      await v2.register(changeRoutes);
    },
    { prefix: '/v2' },
  );
  await app.register(mcpPlugin, { keys: options.keys, limiter, idleMs: access.mcpIdleMs });
  return app;
}
