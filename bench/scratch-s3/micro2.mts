import { currentSnapshotPath, openReadOnly } from '/work/main/src/catalog/index.js';
const db = openReadOnly(currentSnapshotPath('/tmp/bench-demo3') as string);
const rows = db.prepare('SELECT id, rowid FROM product_documents').raw().all() as [string, number][];
const map = new Map(rows);
const ids = db.prepare('SELECT id FROM products WHERE data_tier < 3 ORDER BY random()').pluck().all() as string[];
const qs: [string, string][] = [
  ['by id json', 'SELECT json FROM product_documents WHERE id = ?'],
  ['by rowid json', 'SELECT json FROM product_documents WHERE rowid = ?'],
  ['by rowid json,k,etag', 'SELECT json, knowledge_json, etag FROM product_documents WHERE rowid = ?'],
  ['by rowid blob', 'SELECT CAST(json AS BLOB) FROM product_documents WHERE rowid = ?'],
  ['by rowid only', 'SELECT rowid FROM product_documents WHERE rowid = ?'],
];
for (let round = 0; round < 2; round++)
for (const [name, sql] of qs) {
  const s = db.prepare(sql).raw();
  const byRow = sql.includes('rowid = ?');
  const t = process.hrtime.bigint();
  let n = 0;
  for (let k = 0; k < 3; k++) for (const id of ids) { s.get(byRow ? map.get(id) : id); n++; }
  console.log(name, (Number(process.hrtime.bigint() - t) / n / 1000).toFixed(2), 'us');
}
