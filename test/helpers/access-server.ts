import { KeyStore, type PlanId, UsageRepo, type UsageRow } from '../../src/access/index.js';
import { type RunningServer, startServer } from '../../src/api/index.js';
import { loadConfig } from '../../src/config.js';

/** Starts the real server (startServer) on a free port over `dataDir`. */
export function startTestServer(dataDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', SHELF_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env }),
  );
}

/** Creates a key in `dataDir`'s access store and returns it with its id. */
export function createKey(
  dataDir: string,
  options: {
    plan?: PlanId;
    type?: 'secret' | 'publishable';
    env?: 'live' | 'test';
    origins?: string[];
  } = {},
): { key: string; id: string } {
  const store = new KeyStore(dataDir);
  try {
    const { key, record } = store.create({
      plan: options.plan ?? 'free',
      type: options.type ?? 'secret',
      env: options.env ?? 'live',
      allowedOrigins: options.origins,
    });
    return { key, id: record.id };
  } finally {
    store.close();
  }
}

/** Usage rows of `dataDir`'s access store (what `shelf keys usage` reports). */
export function usageRows(dataDir: string, keyId?: string): UsageRow[] {
  const store = new KeyStore(dataDir);
  try {
    return new UsageRepo(store.db).list({ keyId });
  } finally {
    store.close();
  }
}

/** Sets a key's usage of the current month (as if it had made that many requests). */
export function setUsage(dataDir: string, keyId: string, requests: number): void {
  const store = new KeyStore(dataDir);
  try {
    new UsageRepo(store.db).add([
      { keyId, month: new Date().toISOString().slice(0, 7), requests, cached: 0, errors: 0 },
    ]);
  } finally {
    store.close();
  }
}

/** The rate headers of a response, by name. */
export function rateHeaders(headers: Headers) {
  const names = [
    'x-ratelimit-limit',
    'x-ratelimit-remaining',
    'x-ratelimit-reset',
    'x-monthlyquota-limit',
    'x-monthlyquota-remaining',
    'ratelimit-policy',
    'ratelimit',
  ];
  return Object.fromEntries(names.map((n) => [n, headers.get(n)]));
}
