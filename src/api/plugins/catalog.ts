import fp from 'fastify-plugin';
import type { CatalogHandle, CatalogProvider } from '../../catalog/index.js';
import { AppError } from '../errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The published catalog snapshot; throws 503 CATALOG_UNAVAILABLE before the first publish. */
    catalog(): CatalogHandle;
  }
}

export const catalogPlugin = fp<{ provider: CatalogProvider }>(
  async (app, { provider }) => {
    app.decorate('catalog', () => {
      const handle = provider.current ?? (provider.refresh() ? provider.current : null);
      if (!handle)
        throw new AppError(
          'CATALOG_UNAVAILABLE',
          'no catalog has been published yet; run `shelf ingest` or `shelf demo`',
        );
      return handle;
    });
  },
  { name: 'shelf-catalog' },
);
