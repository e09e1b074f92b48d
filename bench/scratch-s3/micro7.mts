import { readFileSync } from 'node:fs';
import { currentSnapshotPath, openReadOnly, listProducts } from '/work/main/src/catalog/index.js';
import { keywordPlan, FTS_WEIGHTS } from '/work/main/src/search/index.js';
import { typeNamedBy } from '/work/main/src/search/understand.js';
const db = openReadOnly(currentSnapshotPath('/tmp/bench-demo3') as string);
const pool = (JSON.parse(readFileSync('/tmp/s3/pool.json', 'utf8')) as string[]).slice(0, 400);
const time = (name: string, f: (q: string) => unknown) => {
  for (const q of pool.slice(0, 20)) f(q);
  const t = process.hrtime.bigint();
  for (const q of pool) f(q);
  console.log(name.padEnd(28), (Number(process.hrtime.bigint() - t) / pool.length / 1000).toFixed(1), 'us');
};
time('listProducts docs', (q) => listProducts(db, { q, limit: 20, documents: true } as any));
time('keywordPlan', (q) => keywordPlan(db, q));
time('typeNamedBy', (q) => typeNamedBy(db, q));
const plans = new Map(pool.map((q) => [q, keywordPlan(db, q)]));
const rank = (extra: string) => db.prepare(`SELECT p.rowid FROM products_fts f JOIN products p ON p.rowid = f.rowid WHERE products_fts MATCH ? AND p.data_tier < 3 ORDER BY ${extra}${FTS_WEIGHTS}, p.id LIMIT 200`).pluck();
const r0 = rank('');
time('rank (no typed)', (q) => r0.all(plans.get(q)!.all));
const cnt = db.prepare(`SELECT count(*) FROM products_fts f JOIN products p ON p.rowid = f.rowid WHERE products_fts MATCH ? AND p.data_tier < 3`).pluck();
time('count', (q) => cnt.get(plans.get(q)!.all));
const cntFts = db.prepare(`SELECT count(*) FROM products_fts WHERE products_fts MATCH ?`).pluck();
time('count fts only', (q) => cntFts.get(plans.get(q)!.all));
let n = 0, big = 0; for (const q of pool) { const c = cnt.get(plans.get(q)!.all) as number; n += c; if (c >= 200) big++; }
console.log('avg matches', (n / pool.length).toFixed(0), '>=200:', big, 'of', pool.length);
const win = db.prepare(`SELECT p.rowid, count(*) OVER () FROM products_fts f JOIN products p ON p.rowid = f.rowid WHERE products_fts MATCH ? AND p.data_tier < 3 ORDER BY ${FTS_WEIGHTS}, p.id LIMIT 200`).raw();
time('rank+count window', (q) => win.all(plans.get(q)!.all));
