import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogMigrations, migrate, openWritable } from '../../catalog/index.js';
import { HttpEmbeddings, httpProvider } from './http-provider.js';
import { embedCatalog, httpCatalogVectors } from './http-vectors.js';

/** A fake OpenAI-compatible server: 2-d vectors from word counts, answered out of order. */
function fakeFetch(calls: { url: string; body: { model: string; input: string[] }; auth: string | null }[]) {
  return (async (url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as { model: string; input: string[] };
    calls.push({ url, body, auth: new Headers(init.headers).get('authorization') });
    const data = body.input.map((text, index) => ({
      index,
      embedding: [text.split(' ').length * 3, 4],
    }));
    return new Response(JSON.stringify({ data: data.reverse() }), { status: 200 });
  }) as unknown as typeof fetch;
}

describe('OpenAI-compatible embeddings provider', () => {
  it('posts {model, input} to {base}/embeddings with the key and returns unit vectors in input order', async () => {
    const calls: Parameters<typeof fakeFetch>[0] = [];
    const client = new HttpEmbeddings({
      baseUrl: 'http://embed.test/v1/',
      model: 'nomic-embed-text',
      apiKey: 'k-1',
      fetch: fakeFetch(calls),
    });
    const [a, b] = await client.embed(['one', 'one two three']);
    expect(calls[0]).toMatchObject({
      url: 'http://embed.test/v1/embeddings',
      body: { model: 'nomic-embed-text', input: ['one', 'one two three'] },
      auth: 'Bearer k-1',
    });
    expect([...a!].map((x) => Math.round(x * 100) / 100)).toEqual([0.6, 0.8]);
    expect([...b!].map((x) => Math.round(x * 100) / 100)).toEqual([0.91, 0.41]);
    expect(httpProvider(client).id).toBe('http:nomic-embed-text');
  });

  it('fails loudly on an error status', async () => {
    const client = new HttpEmbeddings({
      baseUrl: 'http://embed.test',
      model: 'm',
      fetch: (async () => new Response('no', { status: 401 })) as unknown as typeof fetch,
    });
    await expect(client.embed(['x'])).rejects.toThrow('401');
  });

  it('embeds a snapshot once into a file beside it and serves the vectors from there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shelf-http-vec-'));
    try {
      const db = openWritable(join(dir, 'catalog.db'));
      migrate(db, catalogMigrations);
      const now = '2026-11-20T00:00:00Z';
      const insert = db.prepare(
        'INSERT INTO products (id, slug, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      );
      insert.run('a', 'a', 'Quiet Dishwasher', now, now);
      insert.run('b', 'b', 'Big Bright Television Set', now, now);
      const calls: Parameters<typeof fakeFetch>[0] = [];
      const client = new HttpEmbeddings({
        baseUrl: 'http://embed.test',
        model: 'm/1',
        fetch: fakeFetch(calls),
      });
      expect(httpCatalogVectors(db, client)).toBeNull(); // starts the background build
      await embedCatalog(db, client);
      const matrix = httpCatalogVectors(db, client);
      expect(matrix).toMatchObject({ dims: 2 });
      expect([...matrix!.rowids]).toEqual([1, 2]);
      expect(calls.some((c) => c.body.input.some((t) => t.startsWith('Quiet Dishwasher')))).toBe(true);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
