import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { KeyStore } from '../access/index.js';
import type { CatalogProvider } from '../catalog/index.js';
import { authPlugin } from './plugins/auth.js';
import { catalogPlugin } from './plugins/catalog.js';
import { envelopePlugin, newRequestId } from './plugins/envelope.js';
import { errorsPlugin } from './plugins/errors.js';
import { mcpPlugin } from './plugins/mcp.js';
import { directoryRoutes } from './routes/v2/directory.js';
import { productRoutes } from './routes/v2/products.js';

export interface AppOptions {
  catalog: CatalogProvider;
  keys: KeyStore;
  /** Fastify logger option (default: no logging) */
  logger?: FastifyServerOptions['logger'];
}

/**
 * Builds the REST API from its parts. `serve`, the tests and the benchmarks all call this;
 * only `server.ts` listens on a port.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: newRequestId,
    requestIdHeader: false,
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ajv: {
      customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true, allErrors: false },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(envelopePlugin);
  await app.register(errorsPlugin);
  await app.register(catalogPlugin, { provider: options.catalog });

  app.get('/health', { config: { public: true } }, async () => {
    let catalog: string | null = null;
    try {
      catalog = app.catalog().version;
    } catch {
      catalog = null;
    }
    return { status: catalog ? 'ok' : 'no_catalog', catalog };
  });

  await app.register(
    async (v2) => {
      await v2.register(authPlugin, { keys: options.keys });
      await v2.register(productRoutes);
      await v2.register(directoryRoutes);
    },
    { prefix: '/v2' },
  );
  await app.register(mcpPlugin, { keys: options.keys });
  return app;
}
