import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { currentSnapshotPath } from '/work/main/src/catalog/index.js';
import { keywordPlan, FTS_WEIGHTS } from '/work/main/src/search/index.js';
const db = new Database(currentSnapshotPath('/tmp/bench-demo3') as string, { readonly: true });
db.pragma('mmap_size = 2147418112'); db.pragma('locking_mode = EXCLUSIVE'); db.pragma('cache_size = -65536');
db.exec('CREATE TEMP TABLE pr (rid INTEGER PRIMARY KEY, data_tier INTEGER, product_type_id TEXT, id TEXT)');
db.exec('INSERT INTO temp.pr SELECT rowid, data_tier, product_type_id, id FROM main.products');
const pool = (JSON.parse(readFileSync('/tmp/s3/pool.json', 'utf8')) as string[]).slice(0, 400);
const time = (name: string, f: (q: string) => unknown) => {
  for (const q of pool.slice(0, 20)) f(q);
  const t = process.hrtime.bigint();
  for (const q of pool) f(q);
  console.log(name.padEnd(28), (Number(process.hrtime.bigint() - t) / pool.length / 1000).toFixed(1), 'us');
};
const plans = new Map(pool.map((q) => [q, keywordPlan(db as any, q)]));
const a = db.prepare(`SELECT p.rowid FROM products_fts f JOIN main.products p ON p.rowid = f.rowid WHERE products_fts MATCH ? AND p.data_tier < 3 ORDER BY CASE WHEN p.product_type_id = ? THEN 0 ELSE 1 END, ${FTS_WEIGHTS}, p.id LIMIT 200`).pluck();
const b = db.prepare(`SELECT p.rid FROM products_fts f JOIN temp.pr p ON p.rid = f.rowid WHERE products_fts MATCH ? AND p.data_tier < 3 ORDER BY CASE WHEN p.product_type_id = ? THEN 0 ELSE 1 END, ${FTS_WEIGHTS}, p.id LIMIT 200`).pluck();
const c = db.prepare(`SELECT count(*) FROM products_fts f JOIN temp.pr p ON p.rid = f.rowid WHERE products_fts MATCH ? AND p.data_tier < 3`).pluck();
for (let r = 0; r < 2; r++) {
time('rank typed products', (q) => a.all(plans.get(q)!.all, plans.get(q)!.typeId ?? ''));
time('rank typed narrow', (q) => b.all(plans.get(q)!.all, plans.get(q)!.typeId ?? ''));
time('count narrow', (q) => c.get(plans.get(q)!.all));
}
