import { COMPACT_VERSION, type Db, perConnection, schemaVersion, stmt } from '../catalog/index.js';
import { Vocabulary } from './typo.js';
import { blobDims, blobScale, copyInt8, fromBlob } from './vector-blob.js';

/**
 * All product vectors of a snapshot in one contiguous matrix (row i = product rowids[i]):
 * float32 components, or int8 ones with a scale per row (a quarter of the memory; the
 * built-in vectors of a snapshot since schema version 6). Read rows with vector-search.ts.
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

/** True when the snapshot stores its vectors as int8 (schema version 6 on). */
const int8Vectors = (db: Db): boolean => schemaVersion(db) >= COMPACT_VERSION;

function readVectors(db: Db): VectorMatrix {
  const rows = stmt(db, 'SELECT product_rowid, vector FROM product_vectors ORDER BY product_rowid')
    .raw()
    .all() as [number, Buffer][];
  const int8 = int8Vectors(db);
  const dims = rows.length > 0 ? blobDims(rows[0]![1], int8) : 0;
  const rowids = new Int32Array(rows.length);
  const maxRowid = rows.length > 0 ? rows.at(-1)![0] : 0;
  const rowOf = new Int32Array(maxRowid + 1).fill(-1);
  rows.forEach(([rowid], i) => {
    rowids[i] = rowid;
    rowOf[rowid] = i;
  });
  if (!int8) {
    const data = new Float32Array(rows.length * dims);
    rows.forEach(([, blob], i) => {
      data.set(fromBlob(blob, false), i * dims);
    });
    return { dims, rowids, rowOf, data, scales: null };
  }
  const data = new Int8Array(rows.length * dims);
  const scales = new Float32Array(rows.length);
  rows.forEach(([, blob], i) => {
    copyInt8(blob, data, i * dims);
    scales[i] = blobScale(blob);
  });
  return { dims, rowids, rowOf, data, scales };
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
