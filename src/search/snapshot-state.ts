import { type Db, stmt } from '../catalog/index.js';
import { Vocabulary } from './typo.js';
import { fromBlob } from './vector-blob.js';

/** All product vectors of a snapshot in one contiguous matrix (row i = product rowids[i]). */
export interface VectorMatrix {
  dims: number;
  rowids: Int32Array;
  data: Float32Array;
  /** rowid → row, -1 when the product has no vector */
  rowOf: Int32Array;
}

interface State {
  vocabulary?: Vocabulary;
  vectors?: VectorMatrix;
  docs?: number;
}

/**
 * Search data derived from one snapshot, loaded on first use and kept as long as the
 * connection lives (a new snapshot is a new connection, so nothing is ever stale).
 */
const states = new WeakMap<Db, State>();
const stateOf = (db: Db): State => {
  let s = states.get(db);
  if (!s) {
    s = {};
    states.set(db, s);
  }
  return s;
};

export function vocabularyOf(db: Db): Vocabulary {
  const s = stateOf(db);
  s.vocabulary ??= new Vocabulary(
    (stmt(db, 'SELECT term, df FROM search_vocabulary').raw().all() as [string, number][]).values(),
  );
  return s.vocabulary;
}

/** Number of documents the built-in term statistics were computed over. */
export function documentCount(db: Db): number {
  const s = stateOf(db);
  if (s.docs === undefined) {
    const meta = stmt(db, "SELECT value FROM meta WHERE key = 'search_embeddings'").pluck().get() as
      | string
      | undefined;
    s.docs = meta ? Number((JSON.parse(meta) as { docs?: number }).docs ?? 0) : 0;
  }
  return s.docs;
}

export function vectorsOf(db: Db): VectorMatrix {
  const s = stateOf(db);
  if (!s.vectors) {
    const rows = stmt(db, 'SELECT product_rowid, vector FROM product_vectors ORDER BY product_rowid')
      .raw()
      .all() as [number, Buffer][];
    const dims = rows.length > 0 ? rows[0]![1].length / 4 : 0;
    const data = new Float32Array(rows.length * dims);
    const rowids = new Int32Array(rows.length);
    const maxRowid = rows.length > 0 ? rows.at(-1)![0] : 0;
    const rowOf = new Int32Array(maxRowid + 1).fill(-1);
    rows.forEach(([rowid, blob], i) => {
      data.set(fromBlob(blob), i * dims);
      rowids[i] = rowid;
      rowOf[rowid] = i;
    });
    s.vectors = { dims, rowids, data, rowOf };
  }
  return s.vectors;
}

/** Learned vector and document frequency of one (folded) word, if the catalog has it. */
export function termVector(db: Db, term: string): { df: number; vector: Float32Array } | undefined {
  const row = stmt(db, 'SELECT df, vector FROM search_term_vectors WHERE term = ?').get(term) as
    | { df: number; vector: Buffer }
    | undefined;
  return row ? { df: row.df, vector: fromBlob(row.vector) } : undefined;
}
