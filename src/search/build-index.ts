import { availableParallelism } from 'node:os';
import type { Db } from '../catalog/index.js';
import type { NeedsDef } from '../content/index.js';
import { modelKey } from '../identifiers/index.js';
import { startWorker } from '../util/index.js';
import { readNeedTypes, writeNeedIndex } from './needs/build.js';
import { computeSearchVectors, type SearchVectors, type SearchVectorsInput } from './search-vectors.js';
import { blobBytes } from './vector-blob.js';

/** The text a product is embedded by: name, brand, type and text spec values. */
export const PRODUCT_TEXT_SQL = `SELECT p.rowid AS rowid, p.name || ' ' || COALESCE(b.name, '') || ' ' || COALESCE(t.name, '') || ' ' ||
       COALESCE((SELECT group_concat(value, ' ') FROM json_each(p.specifications_json) WHERE json_each.type = 'text'), '') AS text
  FROM products p
  LEFT JOIN brands b ON b.id = p.brand_id
  LEFT JOIN product_types t ON t.id = p.product_type_id`;

/**
 * Fills the search side of a snapshot being built, after every product is written:
 * the keyword index (products_fts, rowid = products.rowid), the vocabulary that typo
 * tolerance draws from, and the built-in embeddings (word vectors learned from this
 * catalog's text, one vector per product), then what need understanding reads (the authored
 * need text of each product type with the pretrained word vectors and WordNet relations it
 * uses; see needs/build.ts). Ingest calls this once, inside its transaction.
 */
export async function buildSearchIndex(db: Db, needs: readonly NeedsDef[] = []): Promise<void> {
  await startSearchIndex(db, needs).finish();
}

/** A search index being built: {@link startSearchIndex}. */
export interface PendingSearchIndex {
  /**
   * Builds the keyword index on this thread, then writes everything; resolves once written,
   * saying whether the vectors came from a worker thread.
   */
  finish(): Promise<{ worker: boolean }>;
}

/**
 * {@link buildSearchIndex} in two steps, so that the caller can do other work on this thread
 * in between: the vectors (search-vectors.ts, the CPU-bound half: embeddings and need index)
 * are computed on a worker thread from the product texts read here, while this thread goes
 * on, then `finish` builds the keyword index and writes the vectors once they are ready.
 * Nothing may change the products' text, brands or types in between. `worker` defaults to
 * whether the machine has a second core; without one, or where the worker does not start or
 * fails, the vectors are computed in `finish`. The rows written are the same either way.
 */
export function startSearchIndex(
  db: Db,
  needs: readonly NeedsDef[] = [],
  options: { worker?: boolean } = {},
): PendingSearchIndex {
  // The text a product is known by: name, brand, type and spec values. Descriptions are
  // left out of the vocabulary and the vectors: they are long and mostly marketing.
  const rows = db.prepare(PRODUCT_TEXT_SQL).raw().all() as [number, string][];
  const input: SearchVectorsInput = { texts: rows.map((r) => r[1]), types: readNeedTypes(db), needs };
  const onWorker = (options.worker ?? availableParallelism() > 1) ? vectorsOnWorker(input) : null;
  // a failed worker is not reported: it costs only its share of the time, computed here
  onWorker?.catch(() => null);
  // the texts and the worker's vectors, let go once written: a caller may hold this object
  // through later phases (ingest does: the documents phase comes after the search index)
  let held: {
    rows: [number, string][];
    input: SearchVectorsInput;
    onWorker: Promise<SearchVectors> | null;
  } | null = { rows, input, onWorker };
  return {
    async finish() {
      if (!held) throw new Error('search index: finish() was called already');
      const { rows, input, onWorker } = held;
      held = null;
      buildKeywordIndex(db);
      const fromWorker = (await onWorker?.catch(() => null)) ?? null;
      writeSearchVectors(
        db,
        rows.map((r) => r[0]),
        fromWorker ?? computeSearchVectors(input),
      );
      return { worker: fromWorker !== null };
    },
  };
}

/** The keyword index: one products_fts row per product. */
function buildKeywordIndex(db: Db): void {
  // model numbers and MPNs are indexed as written and by their key (no case, no separators),
  // so that SHPK-52Z95N-PR, shpk 52z95npr and SHPK52Z95NPR all find the product
  db.function('shelf_model_key', { deterministic: true }, (v: unknown) =>
    typeof v === 'string' ? modelKey(v).toLowerCase() : '',
  );
  // a type's name and synonyms once per type (materialized), not once per product: extracting
  // the synonyms parses the type's whole schema (2.5 KB on average), a third of this insert's
  // CPU at 35k products (1.38 -> 0.98 s with the optimize, the same rows and index)
  db.exec(`
    WITH type_text AS MATERIALIZED (
      SELECT id, COALESCE(name, '') || ' ' || COALESCE((SELECT group_concat(value, ' ') FROM json_each(json_extract(schema_json, '$.synonyms'))), '') AS text
      FROM product_types)
    INSERT INTO products_fts (rowid, name, brand, product_type, model, specs, description)
    SELECT p.rowid, p.name, COALESCE(b.name, ''),
           COALESCE(t.text, ' '),
           trim(COALESCE(p.model_number, '') || ' ' || COALESCE(p.mpn, '') || ' ' ||
                shelf_model_key(p.model_number) || ' ' || shelf_model_key(p.mpn) || ' ' ||
                COALESCE((SELECT group_concat(g.gtin14, ' ') FROM product_gtins g WHERE g.product_id = p.id), '')),
           COALESCE((SELECT group_concat(value, ' ') FROM json_each(p.specifications_json)), ''),
           COALESCE(p.description, '')
    FROM products p
    LEFT JOIN brands b ON b.id = p.brand_id
    LEFT JOIN type_text t ON t.id = p.product_type_id;
    INSERT INTO products_fts(products_fts) VALUES ('optimize');
  `);
}

/** The search vectors computed on a worker thread (search-vectors-worker.ts); null if none starts. */
function vectorsOnWorker(input: SearchVectorsInput): Promise<SearchVectors> | null {
  try {
    const worker = startWorker(import.meta.url, 'search-vectors-worker', input);
    return new Promise((resolve, reject) => {
      worker.once('message', (m: { result: SearchVectors } | { error: string }) =>
        'result' in m ? resolve(m.result) : reject(new Error(m.error)),
      );
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the search index worker stopped (exit code ${code})`)));
    });
  } catch {
    return null;
  }
}

/**
 * Writes the vocabulary, the term and product vectors, the embeddings' meta row and the
 * need index; `rowids` are the products of `input.texts`, in the same order.
 */
function writeSearchVectors(db: Db, rowids: readonly number[], vectors: SearchVectors): void {
  const e = vectors.embeddings;
  db.exec('DELETE FROM search_vocabulary; DELETE FROM search_term_vectors; DELETE FROM product_vectors;');
  const insertWord = db.prepare('INSERT INTO search_vocabulary (term, df) VALUES (?, ?)');
  for (const [term, df] of e.vocabulary) insertWord.run(term, df);
  const bytes = blobBytes(e.dims);
  const blob = (all: Uint8Array, i: number) => Buffer.from(all.buffer, all.byteOffset + i * bytes, bytes);
  const insertTerm = db.prepare('INSERT INTO search_term_vectors (term, df, vector) VALUES (?, ?, ?)');
  for (const [i, term] of e.terms.entries()) insertTerm.run(term, e.termDf[i], blob(e.termBlobs, i));
  const insertVector = db.prepare('INSERT INTO product_vectors (product_rowid, vector) VALUES (?, ?)');
  for (const [i, row] of e.productIndex.entries()) insertVector.run(rowids[row], blob(e.productBlobs, i));
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('search_embeddings', ?)").run(
    JSON.stringify({ provider: 'builtin', dims: e.dims, docs: e.docs }),
  );
  writeNeedIndex(db, vectors.needs);
}
