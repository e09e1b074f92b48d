import type { FastifyInstance } from 'fastify';
import { KeyStore } from '../../src/access/index.js';
import { buildApp } from '../../src/api/index.js';
import { CatalogProvider, type Db } from '../../src/catalog/index.js';

export interface InjectedApp {
  app: FastifyInstance;
  /** a Pro key of the app's access store */
  key: string;
  /** the published snapshot the app serves */
  db: Db;
  close(): Promise<void>;
}

/** The app built over `dataDir`'s published catalog, for `app.inject()` without a port. */
export async function injectedApp(dataDir: string): Promise<InjectedApp> {
  const keys = new KeyStore(dataDir);
  const key = keys.create({ plan: 'pro', type: 'secret', env: 'live' }).key;
  const provider = new CatalogProvider({ dataDir });
  provider.refresh();
  const app = await buildApp({ catalog: provider, keys });
  const db = provider.current?.db;
  if (!db) throw new Error(`no catalog is published in ${dataDir}`);
  return {
    app,
    key,
    db,
    async close() {
      await app.close();
      provider.close();
      keys.close();
    },
  };
}
