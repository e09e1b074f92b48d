import { currentSnapshotPath, openReadOnly } from '/work/main/src/catalog/index.js';
const db = openReadOnly(currentSnapshotPath('/tmp/bench-demo3') as string);
console.log('page_size', db.pragma('page_size', { simple: true }), 'mmap', db.pragma('mmap_size', { simple: true }));
const ids = db.prepare('SELECT id FROM products WHERE data_tier < 3 ORDER BY random()').pluck().all() as string[];
const qs: [string, string][] = [
  ['current', 'SELECT json, knowledge_json, etag FROM product_documents WHERE id = ?'],
  ['json only', 'SELECT json FROM product_documents WHERE id = ?'],
  ['length', 'SELECT length(json) FROM product_documents WHERE id = ?'],
  ['blob', 'SELECT CAST(json AS BLOB) FROM product_documents WHERE id = ?'],
  ['rowid', 'SELECT rowid FROM product_documents WHERE id = ?'],
];
for (let round = 0; round < 2; round++)
for (const [name, sql] of qs) {
  const s = db.prepare(sql).raw();
  const t = process.hrtime.bigint();
  let n = 0;
  for (let k = 0; k < 3; k++) for (const id of ids) { s.get(id); n++; }
  console.log(name, (Number(process.hrtime.bigint() - t) / n / 1000).toFixed(2), 'us');
}
const m = new Map<string, Buffer>();
const all = db.prepare('SELECT id, json FROM product_documents').raw().all() as [string, string][];
let bytes = 0;
for (const [id, j] of all) { const b = Buffer.from(j); m.set(id, b); bytes += b.length; }
console.log('docs', all.length, 'MB', (bytes / 1e6).toFixed(1), 'rss', (process.memoryUsage().rss / 1e6).toFixed(0));
const t = process.hrtime.bigint(); let n = 0;
for (let k = 0; k < 3; k++) for (const id of ids) { m.get(id); n++; }
console.log('map', (Number(process.hrtime.bigint() - t) / n / 1000).toFixed(2), 'us');
