/**
 * Snapshot size by table: the bytes each table and its indexes take in a published catalog
 * (SQLite's dbstat, pages actually used), and the total per product. Not a test.
 *
 *   npm run bench:size                          the catalog of SHELF_DATA_DIR (default .shelf)
 *   npm run bench:size -- path/to/catalog.sqlite
 *   npm run bench:size -- --json
 */
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { currentSnapshotPath } from '../src/catalog/index.js';
import { loadConfig } from '../src/config.js';

const argv = process.argv.slice(2);
const json = argv.includes('--json');
const path = argv.find((a) => !a.startsWith('--')) ?? currentSnapshotPath(loadConfig().dataDir);
if (!path) {
  process.stderr.write('no published catalog: ingest first or pass a snapshot path\n');
  process.exit(1);
}
const db = new Database(path, { readonly: true, fileMustExist: true });
const products = (db.prepare('SELECT count(*) FROM products').pluck().get() as number) || 1;
// an index counts towards its table, FTS5 shadow tables towards their FTS table
const objects = new Map(
  (
    db
      .prepare("SELECT name, tbl_name, type FROM sqlite_master WHERE type IN ('table', 'index')")
      .raw()
      .all() as [string, string, string][]
  ).map(([name, table, type]) => [name, { table, index: type === 'index' }]),
);
const tableOf = (name: string): string => {
  const table = objects.get(name)?.table ?? name;
  const shadow = /^(.*)_(data|idx|content|docsize|config)$/.exec(table);
  return shadow && objects.has(shadow[1]!) ? shadow[1]! : table;
};
const byTable = new Map<string, { bytes: number; indexBytes: number }>();
for (const [name, bytes] of db.prepare('SELECT name, sum(pgsize) FROM dbstat GROUP BY name').raw().all() as [
  string,
  number,
][]) {
  const table = tableOf(name);
  const t = byTable.get(table) ?? { bytes: 0, indexBytes: 0 };
  if (objects.get(name)?.index) t.indexBytes += bytes;
  else t.bytes += bytes;
  byTable.set(table, t);
}
const file = statSync(path).size;
const rows = [...byTable].sort((a, b) => b[1].bytes + b[1].indexBytes - (a[1].bytes + a[1].indexBytes));
if (json) {
  process.stdout.write(
    `${JSON.stringify({ path, products, fileBytes: file, perProduct: Math.round(file / products), tables: Object.fromEntries(rows) })}\n`,
  );
} else {
  const mb = (n: number) => (n / 1e6).toFixed(1).padStart(8);
  process.stdout.write(
    `${path}\n${products} products, ${mb(file)} MB, ${(file / products / 1024).toFixed(1)} KB per product\n`,
  );
  process.stdout.write(`${'table'.padEnd(28)}     data  indexes    total\n`);
  for (const [name, t] of rows)
    process.stdout.write(
      `${name.padEnd(28)} ${mb(t.bytes)} ${mb(t.indexBytes)} ${mb(t.bytes + t.indexBytes)}\n`,
    );
}
db.close();
