import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openReadOnly, openWritable } from './database.js';

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
