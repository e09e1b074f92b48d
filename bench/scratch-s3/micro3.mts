import Database from 'better-sqlite3';
import { currentSnapshotPath, openReadOnly } from '/work/main/src/catalog/index.js';
const db = openReadOnly(currentSnapshotPath('/tmp/bench-demo3') as string);
const mem = new Database(':memory:');
for (const [name, d, sql, arg] of [['select 1', db, 'SELECT 1', undefined], ['select ? mem', mem, 'SELECT ?', 5], ['select ? snap', db, 'SELECT ?', 5], ['rowid 5', db, 'SELECT rowid FROM product_documents WHERE rowid = ?', 5]] as const) {
  const s = (d as any).prepare(sql).raw().pluck();
  for (let r = 0; r < 2; r++) {
    const t = process.hrtime.bigint();
    const N = 200000;
    for (let i = 0; i < N; i++) arg === undefined ? s.get() : s.get(arg);
    console.log(name, (Number(process.hrtime.bigint() - t) / N / 1000).toFixed(2), 'us');
  }
}
