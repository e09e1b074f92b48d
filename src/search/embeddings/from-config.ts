import type { Config } from '../../config.js';
import { builtinProvider } from './builtin-provider.js';
import { HttpEmbeddings, httpProvider } from './http-provider.js';
import type { EmbeddingProvider } from './provider.js';

/** The built-in provider, or the HTTP one when SHELF_EMBEDDINGS_URL is set. */
export function providerFromConfig(config: Config): EmbeddingProvider {
  if (!config.SHELF_EMBEDDINGS_URL) return builtinProvider;
  return httpProvider(
    new HttpEmbeddings({
      baseUrl: config.SHELF_EMBEDDINGS_URL,
      model: config.SHELF_EMBEDDINGS_MODEL,
      ...(config.SHELF_EMBEDDINGS_API_KEY ? { apiKey: config.SHELF_EMBEDDINGS_API_KEY } : {}),
    }),
  );
}
