import { createWriteStream } from 'node:fs';
import { basename } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { changesHead, currentSnapshotPath, openReadOnly, productDocumentLines } from '../catalog/index.js';

export interface ExportResult {
  /** the snapshot exported (its file name) */
  snapshot: string;
  products: number;
  /** the change-feed position of that snapshot: `GET /v2/changes?since=` it to follow on */
  changesCursor: string | null;
}

/**
 * `shelf export --format jsonl`: every product of the published catalog, one document per
 * line, to a file or a stream (standard output). Streamed: the catalog is never held in memory.
 */
export async function exportCatalog(dataDir: string, out: string | Writable): Promise<ExportResult> {
  const path = currentSnapshotPath(dataDir);
  if (!path) throw new Error('No catalog has been published yet: run `shelf ingest` or `shelf demo` first.');
  const db = openReadOnly(path);
  try {
    const products = db.prepare('SELECT count(*) FROM products').pluck().get() as number;
    const source = Readable.from(productDocumentLines(db));
    if (typeof out === 'string') await pipeline(source, createWriteStream(out));
    // standard output stays open for whatever the process writes after
    else await pipeline(source, out, { end: false });
    return { snapshot: basename(path), products, changesCursor: changesHead(db) };
  } finally {
    db.close();
  }
}
