import { createWriteStream, renameSync, rmSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { type Db, openReadOnly } from './database.js';
import { productDocument } from './product-documents.js';

/** Products read per query while exporting (ids, then each stored document). */
const CHUNK = 500;

/**
 * Every product of a snapshot as JSON lines, in id order: each line is the stored default
 * body of `GET /v2/products/{id}` (catalog/product-documents.ts), byte for byte, so an
 * export and the API never disagree. Every data tier is included (legacy products too, as
 * the product endpoint serves them). Yields one chunk of lines per {@link CHUNK} products.
 */
export function* productDocumentLines(db: Db): Generator<string> {
  const ids = db.prepare('SELECT id FROM products WHERE id > ? ORDER BY id LIMIT ?').pluck();
  for (let after = ''; ; ) {
    const page = ids.all(after, CHUNK) as string[];
    const last = page.at(-1);
    if (last === undefined) return;
    after = last;
    let chunk = '';
    for (const id of page) {
      const document = productDocument(db, id);
      if (!document) throw new Error(`product ${id} has no stored document: the snapshot predates them`);
      chunk += `${document.json}\n`;
    }
    yield chunk;
  }
}

/** Where a snapshot's gzipped export is kept: beside it, so it is pruned with it. */
export const exportFilePath = (snapshotPath: string): string => `${snapshotPath}.products.jsonl.gz`;

/**
 * The gzipped JSON lines of the snapshot at `snapshotPath` as a stream, read through its own
 * read-only connection (closed when the stream ends or is destroyed), so a snapshot swap
 * during a long download does not cut it short. Never holds the catalog in memory.
 */
export function gzippedExport(snapshotPath: string): Readable {
  const db = openReadOnly(snapshotPath);
  const gzip = createGzip();
  const lines = Readable.from(productDocumentLines(db));
  lines.once('close', () => db.close());
  lines.once('error', (error) => gzip.destroy(error));
  gzip.once('close', () => lines.destroy());
  return lines.pipe(gzip);
}

const building = new Map<string, Promise<{ path: string; size: number }>>();

/**
 * The gzipped JSON-lines export of the snapshot at `snapshotPath`, built on first use and
 * then served from disk (a snapshot never changes, so neither does its export): returns its
 * path and size. Concurrent callers share one build. It is written under a temporary name
 * (`.tmp-<pid>`, swept if the process dies) and renamed when complete.
 */
export function ensureExportFile(snapshotPath: string): Promise<{ path: string; size: number }> {
  const path = exportFilePath(snapshotPath);
  try {
    return Promise.resolve({ path, size: statSync(path).size });
  } catch {
    // not built yet
  }
  const pending = building.get(path);
  if (pending) return pending;
  const build = (async () => {
    const tmp = `${path}.tmp-${process.pid}`;
    try {
      await pipeline(gzippedExport(snapshotPath), createWriteStream(tmp));
      renameSync(tmp, path);
      return { path, size: statSync(path).size };
    } catch (error) {
      rmSync(tmp, { force: true });
      throw error;
    }
  })().finally(() => building.delete(path));
  building.set(path, build);
  return build;
}
