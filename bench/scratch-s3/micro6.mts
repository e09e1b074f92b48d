import Database from 'better-sqlite3';
import { currentSnapshotPath, openReadOnly, withKnowledgeMeta } from '/work/main/src/catalog/index.js';
const src = openReadOnly(currentSnapshotPath('/tmp/bench-demo3') as string);
const path = '/tmp/s3/docs-blob.db';
const w = new Database(path);
if (!w.prepare("SELECT name FROM sqlite_master WHERE name='d'").get()) {
  w.exec('CREATE TABLE d (id TEXT PRIMARY KEY, json TEXT, knowledge_json TEXT, etag TEXT); CREATE TABLE t (id TEXT PRIMARY KEY, json TEXT, knowledge_json TEXT, etag TEXT)');
  const rows = src.prepare('SELECT id, json, knowledge_json, etag FROM product_documents').raw().all() as any[];
  const ib = w.prepare('INSERT INTO d VALUES (?,?,?,?)'); const it = w.prepare('INSERT INTO t VALUES (?,?,?,?)');
  w.transaction(() => { for (const r of rows) { ib.run(r[0], Buffer.from(r[1]), r[2] === null ? null : Buffer.from(r[2]), r[3]); it.run(...r); } })();
}
w.close();
const db = new Database(path, { readonly: true }); db.pragma('locking_mode = EXCLUSIVE'); db.pragma('mmap_size = 2147418112');
const ids = src.prepare('SELECT id FROM products WHERE data_tier < 3 ORDER BY random()').pluck().all() as string[];
const meta = () => JSON.stringify({ requestId: 'req_abcdefghijkl', timestamp: new Date().toISOString(), responseTime: 0.12, version: '2.0.0', cached: false });
const st = db.prepare('SELECT json, knowledge_json, etag FROM t WHERE id = ?');
const sb = db.prepare('SELECT json, knowledge_json, etag FROM d WHERE id = ?');
const P = Buffer.from('{"success":true,"data":'), K = Buffer.from(',"_knowledge":'), M = Buffer.from('},"meta":'), E = Buffer.from('}'), C = Buffer.from('}');
let sink = 0;
const text = (id: string) => { const r = st.get(id) as any; const body = `{"success":true,"data":${withKnowledgeMeta(r.json, r.knowledge_json)},"meta":${meta()}}`; sink += Buffer.byteLength(body); sink += Buffer.from(body).length; };
const blob = (id: string) => { const r = sb.get(id) as any; const j: Buffer = r.json; const parts = r.knowledge_json ? [P, j.subarray(0, j.length - 1), K, r.knowledge_json, M, Buffer.from(meta()), E] : [P, j, Buffer.from(',"meta":'), Buffer.from(meta()), C]; sink += Buffer.concat(parts).length; };
for (let r = 0; r < 3; r++) for (const [n, f] of [['text', text], ['blob', blob]] as const) {
  const t = process.hrtime.bigint(); let k = 0;
  for (const id of ids) { f(id); k++; }
  if (r) console.log(n, (Number(process.hrtime.bigint() - t) / k / 1000).toFixed(2), 'us');
}
const all = new Map((db.prepare('SELECT id, json, knowledge_json FROM t').raw().all() as any[]).map((r) => [r[0], { json: withKnowledgeMeta(r[1], r[2]) }]));
const steps: [string, (id: string) => void][] = [
  ['get only', (id) => { st.get(id); }],
  ['get+meta', (id) => { const r = st.get(id) as any; sink += withKnowledgeMeta(r.json, r.knowledge_json).length + meta().length; }],
  ['meta only', () => { sink += meta().length; }],
  ['mem text', (id) => { const d = all.get(id)!; const body = `{"success":true,"data":${d.json},"meta":${meta()}}`; sink += Buffer.byteLength(body); sink += Buffer.from(body).length; }],
];
for (let r = 0; r < 3; r++) for (const [n, f] of steps) {
  const t = process.hrtime.bigint(); let k = 0;
  for (const id of ids) { f(id); k++; }
  if (r) console.log(n, (Number(process.hrtime.bigint() - t) / k / 1000).toFixed(2), 'us');
}
