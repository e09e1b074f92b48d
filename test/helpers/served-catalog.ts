import { basename } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { RunningServer } from '../../src/api/index.js';
import { currentSnapshotPath } from '../../src/catalog/index.js';
import { startTestServer } from './access-server.js';
import { type FixtureCatalog, fixtureCatalog } from './fixture-catalog.js';
import { get } from './http.js';

export interface ServedCatalog {
  catalog: FixtureCatalog;
  server: RunningServer;
}

/**
 * The fixture catalog served by the real server on a free port, for the tests of the
 * enclosing describe block: registers the hooks that build it before them and remove it after.
 * The fields are set once the block's beforeAll hooks have run; `env` adds configuration.
 */
export function servedFixtureCatalog(env: Record<string, string> = {}): ServedCatalog {
  const served = {} as ServedCatalog;
  beforeAll(async () => {
    served.catalog = await fixtureCatalog();
    served.server = await startTestServer(served.catalog.dataDir, env);
  });
  afterAll(async () => {
    await served.server?.close();
    served.catalog?.cleanup();
  });
  return served;
}

/** Waits until `server` serves the snapshot the last ingest into `dataDir` published. */
export async function waitUntilServed(server: RunningServer, dataDir: string): Promise<void> {
  const want = basename(currentSnapshotPath(dataDir) ?? '');
  for (let i = 0; i < 200; i++) {
    const health = await get(server.url, '/health');
    if ((health.body as { catalog?: string }).catalog === want) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the server did not swap to ${want}`);
}
