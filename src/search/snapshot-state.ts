import { COMPACT_VERSION, type Db, perConnection, schemaVersion, stmt } from '../catalog/index.js';
import { Vocabulary } from './typo.js';
import { blobDims, blobScale, copyInt8, fromBlob } from './vector-blob.js';

/**
 * All product vectors of a snapshot in one contiguous matrix (row i = product rowids[i]):
 * float32 components, or int8 ones with a scale per row (a quarter of the memory; the
 * built-in vectors of a snapshot since schema version 7). Read rows with vector-search.ts.
 */
export type VectorMatrix = {
  dims: number;
  rowids: Int32Array;
  /** rowid → row, -1 when the product has no vector */
  rowOf: Int32Array;
} & ({ data: Float32Array; scales: null } | { data: Int8Array; scales: Float32Array });

/**
 * Search data derived from one snapshot, loaded on first use and kept as long as the
 * connection lives (a new snapshot is a new connection, so nothing is ever stale).
 */
const vocabularies = perConnection<Vocabulary>();
const documentCounts = perConnection<number>();
const matrices = perConnection<VectorMatrix>();

const readVocabulary = (db: Db) =>
  new Vocabulary(
    (stmt(db, 'SELECT term, df FROM search_vocabulary').raw().all() as [string, number][]).values(),
  );

export function vocabularyOf(db: Db): Vocabulary {
  return vocabularies(db, '', readVocabulary);
}

function readDocumentCount(db: Db): number {
  const meta = stmt(db, "SELECT value FROM meta WHERE key = 'search_embeddings'").pluck().get() as
    | string
    | undefined;
  return meta ? Number((JSON.parse(meta) as { docs?: number }).docs ?? 0) : 0;
}

/** Number of documents the built-in term statistics were computed over. */
export function documentCount(db: Db): number {
  return documentCounts(db, '', readDocumentCount);
}

/** True when the snapshot stores its vectors as int8 (schema version 7 on). */
const int8Vectors = (db: Db): boolean => schemaVersion(db) >= COMPACT_VERSION;

function readVectors(db: Db): VectorMatrix {
  // rows are streamed into the matrix: reading them all at once first held every row's
  // buffer besides the matrix, 150 MB more at its peak on the 35k demo, which the process
  // then kept
  const [count, maxRowid, bytes] = stmt(
    db,
    'SELECT count(*), COALESCE(max(product_rowid), 0), COALESCE(max(length(vector)), 0) FROM product_vectors',
  )
    .raw()
    .get() as [number, number, number];
  const int8 = int8Vectors(db);
  const dims = count > 0 ? blobDims(bytes, int8) : 0;
  const rowids = new Int32Array(count);
  const rowOf = new Int32Array(maxRowid + 1).fill(-1);
  const data = int8 ? new Int8Array(count * dims) : new Float32Array(count * dims);
  const scales = int8 ? new Float32Array(count) : null;
  let i = 0;
  for (const [rowid, blob] of stmt(
    db,
    'SELECT product_rowid, vector FROM product_vectors ORDER BY product_rowid',
  )
    .raw()
    .iterate() as Iterable<[number, Buffer]>) {
    rowids[i] = rowid;
    rowOf[rowid] = i;
    if (scales) {
      copyInt8(blob, data as Int8Array, i * dims);
      scales[i] = blobScale(blob);
    } else (data as Float32Array).set(fromBlob(blob, false), i * dims);
    i++;
  }
  return scales
    ? { dims, rowids, rowOf, data: data as Int8Array, scales }
    : { dims, rowids, rowOf, data: data as Float32Array, scales: null };
}

export function vectorsOf(db: Db): VectorMatrix {
  return matrices(db, '', readVectors);
}

/** Learned vector and document frequency of one (folded) word, if the catalog has it. */
export function termVector(db: Db, term: string): { df: number; vector: Float32Array } | undefined {
  const row = stmt(db, 'SELECT df, vector FROM search_term_vectors WHERE term = ?').get(term) as
    | { df: number; vector: Buffer }
    | undefined;
  return row ? { df: row.df, vector: fromBlob(row.vector, int8Vectors(db)) } : undefined;
}
