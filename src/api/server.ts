import type { FastifyInstance } from 'fastify';
import { type KeyDirectory, KeyStore, RedisKeyStore, type StoreLogger } from '../access/index.js';
import { CatalogProvider } from '../catalog/index.js';
import { type Config, isTTY } from '../config.js';
import { createSearchEngine, providerFromConfig } from '../search/index.js';
import { buildApp } from './app.js';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

const KEEP_ALIVE_TIMEOUT_MS = 72_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** How long a shutdown waits for requests in flight (a request is bounded by REQUEST_TIMEOUT_MS anyway). */
const SHUTDOWN_GRACE_MS = 10_000;

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
    search: createSearchEngine({ provider: providerFromConfig(config) }),
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
  // Longer than the idle timeout of the load balancers in front of us (AWS ALB: 60 s), so
  // that they, not we, close idle connections: otherwise a request can race our close and
  // fail with a reset.
  app.server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node requires headersTimeout > keepAliveTimeout, or a kept-alive socket can be cut while
  // a request's headers arrive; it also bounds how long a slow client may take to send them.
  app.server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  // Every route answers from a local snapshot in milliseconds (the slowest, a hybrid search
  // over the whole catalog, in tens of ms): a request still open after 30 s is a stuck or
  // hostile client, not work in progress.
  app.server.requestTimeout = REQUEST_TIMEOUT_MS;
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  const url = address.replace('[::1]', 'localhost').replace('127.0.0.1', 'localhost');
  const served = app;
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      // stop accepting, let requests in flight finish (idle kept-alive sockets close at once),
      // and cut whatever is still open after the grace period
      const cut = setTimeout(() => served.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      cut.unref();
      try {
        await served.close();
      } finally {
        clearTimeout(cut);
        provider.close();
        await keys.close();
      }
    })();
    return closing;
  };
  return { app: served, url, close };
}
