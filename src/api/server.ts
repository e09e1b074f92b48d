import type { FastifyInstance } from 'fastify';
import { type KeyDirectory, KeyStore, RedisKeyStore, type StoreLogger } from '../access/index.js';
import { CatalogProvider } from '../catalog/index.js';
import { type Config, isTTY } from '../config.js';
import { buildApp } from './app.js';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** Starts the REST API on the configured host and port, with logging and graceful shutdown. */
export async function startServer(config: Config): Promise<RunningServer> {
  let app: FastifyInstance | null = null;
  // the app's logger does not exist yet while the keys are first read
  const log: StoreLogger = {
    info: (obj, msg) => app?.log.info(obj, msg),
    warn: (obj, msg) => app?.log.warn(obj, msg),
  };
  // with Redis, keys live there (shared by every replica); else in access.db
  const keys: KeyDirectory & { close(): unknown } = config.REDIS_URL
    ? await RedisKeyStore.open(config.REDIS_URL, { follow: true, log })
    : new KeyStore(config.dataDir);
  const logger =
    config.LOG_LEVEL === 'silent'
      ? false
      : {
          level: config.LOG_LEVEL,
          ...(isTTY()
            ? {
                transport: {
                  target: 'pino-pretty',
                  options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
                },
              }
            : {}),
        };
  const provider = new CatalogProvider({
    dataDir: config.dataDir,
    documentCacheBytes: config.SHELF_DOCUMENT_CACHE_MB * 1024 * 1024,
    onSwap: (handle) => app?.log.info({ catalog: handle.version }, 'serving catalog snapshot'),
    onError: (error) => app?.log.error({ err: error }, 'could not open the published catalog'),
  });
  app = await buildApp({
    catalog: provider,
    keys,
    logger,
    access: {
      redisUrl: config.REDIS_URL,
      authFailuresPerMinute: config.SHELF_AUTH_FAILURES_PER_MINUTE,
      rateWindowMs: config.SHELF_RATE_WINDOW_MS,
      mcpIdleMs: config.SHELF_MCP_IDLE_S * 1000,
      cache: {
        maxEntries: config.SHELF_CACHE_MAX_ENTRIES,
        maxBytes: config.SHELF_CACHE_MAX_MB * 1024 * 1024,
        maxAge: config.SHELF_CACHE_MAX_AGE,
      },
    },
  });
  provider.start();
  app.server.keepAliveTimeout = 72_000;
  app.server.requestTimeout = 30_000;
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  const url = address.replace('[::1]', 'localhost').replace('127.0.0.1', 'localhost');
  const served = app;
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      await served.close();
      provider.close();
      await keys.close();
    })();
    return closing;
  };
  return { app: served, url, close };
}
