import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogMigrations, type Db, migrate, openWritable } from '../catalog/index.js';
import { startSearchIndex } from './build-index.js';

const NEEDS = [
  {
    product_type: 'dishwasher',
    needs: ['wash the dishes'],
    problems: ['dirty plates'],
    places: ['kitchen'],
    users: ['families'],
    words: ['rinse'],
  },
];

/** A small catalog: two types, two brands, products with text specs. */
function catalog(path: string): Db {
  const db = openWritable(path);
  migrate(db, catalogMigrations);
  db.exec(`
    INSERT INTO brands (id, slug, name, created_at) VALUES ('b1', 'acme', 'Acme', 'x'), ('b2', 'bosch', 'Bosch', 'x');
    INSERT INTO product_types (id, slug, name, path, schema_json) VALUES
      ('t1', 'dishwasher', 'Dishwasher', 'D', '{"synonyms":["dish washer"]}'), ('t2', 'refrigerator', 'Refrigerator', 'R', '{}');`);
  const add = db.prepare(
    `INSERT INTO products (id, slug, name, product_type_id, brand_id, model_number, specifications_json, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, '2026-01-01', '2026-01-01')`,
  );
  const finishes = ['stainless steel', 'black', 'white', 'panel ready'];
  for (let i = 0; i < 40; i++)
    add.run(
      `p${i}`,
      `p${i}`,
      `${i % 2 ? 'Quiet' : 'Compact'} ${i % 3 ? 'dishwasher' : 'fridge'} ${i}`,
      i % 3 ? 't1' : 't2',
      i % 2 ? 'b1' : 'b2',
      `DW${100 + i}X`,
      JSON.stringify({ finish: finishes[i % 4], decibels: 40 + i }),
    );
  return db;
}

const dump = (db: Db) =>
  Object.fromEntries(
    [
      'SELECT * FROM search_vocabulary ORDER BY term',
      'SELECT * FROM search_term_vectors ORDER BY term',
      'SELECT * FROM product_vectors ORDER BY product_rowid',
      'SELECT * FROM search_needs ORDER BY key',
      "SELECT value FROM meta WHERE key = 'search_embeddings'",
      'SELECT rowid, * FROM products_fts ORDER BY rowid',
    ].map((sql) => {
      // a digest per table: the need index holds megabytes of vectors
      const hash = createHash('sha256');
      for (const row of db.prepare(sql).raw().iterate() as Iterable<unknown[]>)
        for (const v of row) hash.update(Buffer.isBuffer(v) ? v : `${typeof v}:${String(v)}\u0000`);
      return [sql, hash.digest('hex')];
    }),
  );

describe('building the search index', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shelf-search-index-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the same rows whether the vectors are computed on a worker thread or on this one', async () => {
    const onWorker = catalog(join(dir, 'worker.db'));
    const here = catalog(join(dir, 'here.db'));
    // the worker's half overlaps work done on this thread between start and finish
    const pending = startSearchIndex(onWorker, NEEDS, { worker: true });
    expect(await startSearchIndex(here, NEEDS, { worker: false }).finish()).toEqual({ worker: false });
    expect(await pending.finish()).toEqual({ worker: true });
    const a = dump(onWorker);
    const b = dump(here);
    expect(a).toEqual(b);
    // and the index is there: every product has a vector and a keyword row, needs were written
    expect(onWorker.prepare('SELECT count(*) FROM product_vectors').pluck().get()).toBe(40);
    expect(
      onWorker.prepare("SELECT rowid FROM products_fts WHERE products_fts MATCH 'quiet'").all(),
    ).toHaveLength(20);
    expect(onWorker.prepare("SELECT count(*) FROM search_needs WHERE key = 'types'").pluck().get()).toBe(1);
    onWorker.close();
    here.close();
  }, 60_000);
});
