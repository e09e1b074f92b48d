import type { Db } from '../../catalog/index.js';
import { httpCatalogVectors } from './http-vectors.js';
import type { EmbeddingProvider } from './provider.js';

export interface HttpEmbeddingsOptions {
  /** base URL of an OpenAI-compatible API, e.g. https://api.openai.com/v1 or http://localhost:11434/v1 */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** request timeout, ms (default 10000) */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * Embeddings from any OpenAI-compatible `POST {base}/embeddings` endpoint (OpenAI, Ollama,
 * vLLM, Hugging Face TEI). Vectors are L2-normalized so cosine is a dot product.
 */
export class HttpEmbeddings {
  readonly #options: HttpEmbeddingsOptions;

  constructor(options: HttpEmbeddingsOptions) {
    this.#options = options;
  }

  get model(): string {
    return this.#options.model;
  }

  /** Embeds a batch of texts, in order. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const doFetch = this.#options.fetch ?? fetch;
    const response = await doFetch(`${this.#options.baseUrl.replace(/\/+$/, '')}/embeddings`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.#options.apiKey ? { authorization: `Bearer ${this.#options.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: this.#options.model, input: texts }),
      signal: AbortSignal.timeout(this.#options.timeoutMs ?? 10_000),
    });
    if (!response.ok) throw new Error(`embeddings endpoint answered ${response.status}`);
    const body = (await response.json()) as { data?: { index?: number; embedding?: number[] }[] };
    const data = body.data ?? [];
    if (data.length !== texts.length)
      throw new Error('embeddings endpoint returned a different number of vectors');
    const out = new Array<Float32Array>(texts.length);
    data.forEach((d, i) => {
      const v = Float32Array.from(d.embedding ?? []);
      let n = 0;
      for (const x of v) n += x * x;
      if (n > 0) for (let j = 0; j < v.length; j++) v[j]! /= Math.sqrt(n);
      out[d.index ?? i] = v;
    });
    return out;
  }
}

/**
 * A provider over an HTTP embeddings endpoint: queries are embedded per request, product
 * vectors once per snapshot (see http-vectors.ts).
 */
export function httpProvider(client: HttpEmbeddings, onError?: (e: unknown) => void): EmbeddingProvider {
  return {
    id: `http:${client.model}`,
    catalogVectors: (db) => httpCatalogVectors(db, client, onError),
    embedQuery: async (_db: Db, text: string) => {
      if (!text.trim()) return null;
      const [v] = await client.embed([text]);
      return v ?? null;
    },
  };
}
