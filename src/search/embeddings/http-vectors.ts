import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Db } from '../../catalog/index.js';
import { PRODUCT_TEXT_SQL } from '../build-index.js';
import type { VectorMatrix } from '../snapshot-state.js';

/** The slice of the HTTP client this file needs (kept narrow so the two files do not import each other). */
interface TextEmbedder {
  readonly model: string;
  embed(texts: string[]): Promise<Float32Array[]>;
}

const BATCH = 64;
// not perConnection: a snapshot's vectors are kept only once their file exists (until then, null each time)
const loaded = new WeakMap<Db, VectorMatrix>();
const building = new Set<string>();

/** `<snapshot>.<model>.vec` beside the snapshot file: the product vectors of one HTTP model. */
export const sidecarPath = (db: Db, model: string): string =>
  `${db.name}.${model.replace(/[^A-Za-z0-9._-]+/g, '_')}.vec`;

/**
 * Product vectors of an HTTP model for a snapshot. Ingest is synchronous and offline, so
 * these are computed by the serving process the first time they are needed (in the
 * background, in batches) and kept in a file beside the snapshot, which later processes and
 * replicas on the same files reuse. Returns null until the file exists.
 */
export function httpCatalogVectors(
  db: Db,
  client: TextEmbedder,
  onError?: (e: unknown) => void,
): VectorMatrix | null {
  const cached = loaded.get(db);
  if (cached) return cached;
  const path = sidecarPath(db, client.model);
  if (existsSync(path)) {
    const m = readSidecar(path);
    loaded.set(db, m);
    return m;
  }
  if (!building.has(path)) {
    building.add(path);
    embedCatalog(db, client, path)
      .catch((e) => onError?.(e))
      .finally(() => building.delete(path));
  }
  return null;
}

/** Embeds every product of a snapshot with an HTTP model and writes the sidecar file. */
export async function embedCatalog(
  db: Db,
  client: TextEmbedder,
  path = sidecarPath(db, client.model),
): Promise<void> {
  const rows = db.prepare(`${PRODUCT_TEXT_SQL} ORDER BY p.rowid`).all() as { rowid: number; text: string }[];
  const vectors: Float32Array[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    vectors.push(...(await client.embed(rows.slice(i, i + BATCH).map((r) => r.text.trim() || ' '))));
  }
  const dims = vectors[0]?.length ?? 0;
  const header = new Int32Array([rows.length, dims]);
  const rowids = Int32Array.from(rows.map((r) => r.rowid));
  const data = new Float32Array(rows.length * dims);
  for (const [i, v] of vectors.entries()) data.set(v, i * dims);
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(
    tmp,
    Buffer.concat([Buffer.from(header.buffer), Buffer.from(rowids.buffer), Buffer.from(data.buffer)]),
  );
  renameSync(tmp, path);
}

function readSidecar(path: string): VectorMatrix {
  const buf = readFileSync(path);
  const aligned = new Uint8Array(buf.length);
  aligned.set(buf);
  const [count, dims] = new Int32Array(aligned.buffer, 0, 2) as unknown as [number, number];
  const rowids = new Int32Array(aligned.buffer, 8, count);
  const data = new Float32Array(aligned.buffer, 8 + count * 4, count * dims);
  const maxRowid = count > 0 ? Math.max(...rowids) : 0;
  const rowOf = new Int32Array(maxRowid + 1).fill(-1);
  rowids.forEach((r, i) => {
    rowOf[r] = i;
  });
  return { dims, rowids, data, rowOf, scales: null };
}
