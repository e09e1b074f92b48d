import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ftsQuery } from './fts.js';

describe('ftsQuery', () => {
  it('quotes words and prefixes the last one', () => {
    expect(ftsQuery('Bosch dishwash')).toBe('"bosch" AND "dishwash"*');
  });

  it('returns null when nothing searchable is left', () => {
    expect(ftsQuery('"*:()-^')).toBeNull();
  });

  it('never produces an FTS5 syntax error, whatever the input', () => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(a); INSERT INTO t VALUES ('bosch 800 series dishwasher')");
    const search = db.prepare('SELECT count(*) AS n FROM t WHERE t MATCH ?');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const q = ftsQuery(text);
        if (q !== null) search.get(q);
      }),
      { numRuns: 500 },
    );
  });
});
