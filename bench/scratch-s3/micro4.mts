import Database from 'better-sqlite3';
import { currentSnapshotPath } from '/work/main/src/catalog/index.js';
const path = currentSnapshotPath('/tmp/bench-demo3') as string;
const variants: [string, () => any][] = [
  ['readonly', () => new Database(path, { readonly: true })],
  ['readonly+exclusive', () => { const d = new Database(path, { readonly: true }); d.pragma('locking_mode = EXCLUSIVE'); return d; }],
  ['immutable uri', () => new Database(`file:${path}?immutable=1`, { readonly: true })],
];
for (const [name, open] of variants) {
  let db;
  try { db = open(); } catch (e) { console.log(name, 'ERR', (e as Error).message); continue; }
  console.log(name, 'journal', db.pragma('journal_mode', { simple: true }));
  const s = db.prepare('SELECT rowid FROM product_documents WHERE rowid = ?').raw().pluck();
  for (let r = 0; r < 2; r++) {
    const t = process.hrtime.bigint();
    const N = 100000;
    for (let i = 0; i < N; i++) s.get(5);
    console.log(' ', (Number(process.hrtime.bigint() - t) / N / 1000).toFixed(2), 'us');
  }
  db.close();
}
