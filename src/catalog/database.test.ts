import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openReadOnly, openWritable, perConnection, STATEMENT_MEMO_MAX, stmt } from './database.js';

describe('openReadOnly', () => {
  it('holds its snapshot: a writer cannot change the file while it is served, readers still can read', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'shelf-db-')), 'snapshot.db');
    const builder = openWritable(path);
    builder.exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('published')");
    builder.close();

    const served = openReadOnly(path);
    expect(served.prepare('SELECT v FROM t').pluck().get()).toBe('published');
    const another = openReadOnly(path);
    expect(another.prepare('SELECT count(*) FROM t').pluck().get()).toBe(1);

    const stray = openWritable(path);
    stray.pragma('busy_timeout = 0');
    expect(() => stray.exec('DROP TABLE t')).toThrow(/locked|busy/i);
    expect(served.prepare('SELECT v FROM t').pluck().get()).toBe('published');
    stray.close();
    served.close();
    another.close();
  });
});

describe('perConnection', () => {
  it('remembers a value per connection and key; with max, forgets the least recently used', () => {
    const db = openWritable(':memory:');
    let computed = 0;
    const memo = perConnection<number>({ max: 2 });
    const compute = () => ++computed;
    expect([memo(db, 'a', compute), memo(db, 'a', compute), memo(db, 'b', compute)]).toEqual([1, 1, 2]);
    memo(db, 'c', compute); // a goes
    expect(memo(db, 'b', compute)).toBe(2);
    expect(memo(db, 'a', compute)).toBe(4);
    db.close();
  });

  it('prepared statements stay bounded however many distinct texts are prepared', () => {
    const db = openWritable(':memory:');
    const first = stmt(db, 'SELECT 0');
    for (let i = 1; i <= STATEMENT_MEMO_MAX; i++) stmt(db, `SELECT ${i}`);
    expect(stmt(db, 'SELECT 0')).not.toBe(first);
    expect(stmt(db, `SELECT ${STATEMENT_MEMO_MAX}`)).toBe(stmt(db, `SELECT ${STATEMENT_MEMO_MAX}`));
    db.close();
  });
});
