import { afterAll, beforeAll } from 'vitest';
import type { RunningServer } from '../../src/api/index.js';
import { startTestServer } from './access-server.js';
import { type FixtureCatalog, fixtureCatalog } from './fixture-catalog.js';

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
