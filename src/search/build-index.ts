import type { Db } from '../catalog/index.js';
import type { NeedsDef } from '../content/index.js';
import { modelKey } from '../identifiers/index.js';
import { embeddingTerms, embedTerms, type TermModelOptions, trainTermModel } from './embeddings/builtin.js';
import { buildNeedIndex } from './needs/index.js';
import { words } from './text.js';
import { toBlob } from './vector-blob.js';

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
 * uses; see needs/build.ts). Ingest calls this once; it is synchronous and runs inside
 * ingest's transaction.
 */
export function buildSearchIndex(db: Db, needs: NeedsDef[] = []): void {
  // model numbers and MPNs are indexed as written and by their key (no case, no separators),
  // so that SHPK-52Z95N-PR, shpk 52z95npr and SHPK52Z95NPR all find the product
  db.function('shelf_model_key', { deterministic: true }, (v: unknown) =>
    typeof v === 'string' ? modelKey(v).toLowerCase() : '',
  );
  db.exec(`
    INSERT INTO products_fts (rowid, name, brand, product_type, model, specs, description)
    SELECT p.rowid, p.name, COALESCE(b.name, ''),
           COALESCE(t.name, '') || ' ' || COALESCE((SELECT group_concat(value, ' ') FROM json_each(json_extract(t.schema_json, '$.synonyms'))), ''),
           trim(COALESCE(p.model_number, '') || ' ' || COALESCE(p.mpn, '') || ' ' ||
                shelf_model_key(p.model_number) || ' ' || shelf_model_key(p.mpn) || ' ' ||
                COALESCE((SELECT group_concat(g.gtin14, ' ') FROM product_gtins g WHERE g.product_id = p.id), '')),
           COALESCE((SELECT group_concat(value, ' ') FROM json_each(p.specifications_json)), ''),
           COALESCE(p.description, '')
    FROM products p
    LEFT JOIN brands b ON b.id = p.brand_id
    LEFT JOIN product_types t ON t.id = p.product_type_id;
    INSERT INTO products_fts(products_fts) VALUES ('optimize');
  `);

  buildEmbeddings(db);
  buildNeedIndex(db, needs);
}

/**
 * The vocabulary (typo candidates) and the built-in embeddings of a snapshot being built.
 * Separate from the keyword index so that the embeddings can be rebuilt alone.
 */
export function buildEmbeddings(db: Db, options: TermModelOptions = {}): void {
  db.exec('DELETE FROM search_vocabulary; DELETE FROM search_term_vectors; DELETE FROM product_vectors;');
  // The text a product is known by: name, brand, type and spec values. Descriptions are
  // left out of the vocabulary and the vectors: they are long and mostly marketing.
  const rows = db.prepare(PRODUCT_TEXT_SQL).all() as { rowid: number; text: string }[];

  const vocabulary = new Map<string, number>();
  for (const r of rows)
    for (const w of new Set(words(r.text))) vocabulary.set(w, (vocabulary.get(w) ?? 0) + 1);
  const insertWord = db.prepare('INSERT INTO search_vocabulary (term, df) VALUES (?, ?)');
  for (const [term, df] of vocabulary) insertWord.run(term, df);

  const documents = rows.map((r) => embeddingTerms(r.text));
  const model = trainTermModel(documents, options);
  const insertTerm = db.prepare('INSERT INTO search_term_vectors (term, df, vector) VALUES (?, ?, ?)');
  for (const [term, vector] of model.vectors) insertTerm.run(term, model.df.get(term) ?? 1, toBlob(vector));
  const known = new Map<string, { df: number; vector: Float32Array }>();
  for (const [term, vector] of model.vectors) known.set(term, { df: model.df.get(term) ?? 1, vector });
  const lookup = (t: string) => known.get(t);
  const insertVector = db.prepare('INSERT INTO product_vectors (product_rowid, vector) VALUES (?, ?)');
  rows.forEach((r, i) => {
    const v = embedTerms(documents[i]!, lookup, model.docs);
    if (v) insertVector.run(r.rowid, toBlob(v));
  });
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('search_embeddings', ?)").run(
    JSON.stringify({
      provider: 'builtin',
      dims: model.vectors.values().next().value?.length ?? 0,
      docs: model.docs,
    }),
  );
}
