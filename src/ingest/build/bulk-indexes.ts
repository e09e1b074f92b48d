import type { Db } from '../../catalog/index.js';

/**
 * Drops the secondary indexes of `tables` for a bulk load and returns what creates them again.
 * Growing a dozen indexes row by row costs a random B-tree insert per row and index and
 * leaves half-empty pages; CREATE INDEX over the loaded table sorts once and writes full pages
 * in key order. The recreated indexes are the schema's own (their stored SQL), so the
 * published snapshot has exactly the indexes its migrations define. Indexes that enforce a
 * key (PRIMARY KEY, UNIQUE) have no SQL of their own and stay: the load relies on them.
 */
export function deferIndexes(db: Db, tables: readonly string[]): () => void {
  const indexes = db
    .prepare(
      `SELECT name, sql FROM sqlite_master
       WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (SELECT value FROM json_each(?))
       ORDER BY name`,
    )
    .all(JSON.stringify(tables)) as { name: string; sql: string }[];
  // names come from sqlite_master, not from input; quoted as identifiers all the same
  for (const { name } of indexes) db.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
  return () => {
    for (const { sql } of indexes) db.exec(sql);
  };
}
