import autocannon from 'autocannon';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { KeyStore } from '/work/main/src/access/index.js';
import { currentSnapshotPath, openReadOnly } from '/work/main/src/catalog/index.js';
const [mode, port, secs = '8'] = process.argv.slice(2);
const dir = '/tmp/bench-demo3';
let keys: string[];
if (existsSync('/tmp/s3/keys.json')) keys = JSON.parse(readFileSync('/tmp/s3/keys.json', 'utf8'));
else {
  const store = new KeyStore(dir);
  keys = Array.from({ length: 500 }, (_, n) => store.create({ plan: 'enterprise', type: 'secret', env: 'test', name: `p-${n}` }).key);
  store.close();
  writeFileSync('/tmp/s3/keys.json', JSON.stringify(keys));
}
if (mode === 'keys') process.exit(0);
const db = openReadOnly(currentSnapshotPath(dir) as string);
const ids = db.prepare('SELECT id FROM products WHERE data_tier < 3 ORDER BY random()').pluck().all() as string[];
const gtins = db.prepare('SELECT gtin FROM products WHERE gtin IS NOT NULL ORDER BY random()').pluck().all() as string[];
const types = db.prepare('SELECT lower(name) FROM product_types').pluck().all() as string[];
db.close();
const paths = mode === 'id' ? ids.map((i) => `/v2/products/${i}`)
  : mode === 'barcode' ? gtins.map((g) => `/v2/products/barcode/${g}`)
  : mode === 'prices' ? ids.map((i) => `/v2/products/${i}/prices`)
  : mode === 'search' ? types.map((t) => `/v2/products?q=${encodeURIComponent(t)}`)
  : mode === 'zipf' ? (JSON.parse(readFileSync('/tmp/s3/pool.json', 'utf8')) as string[]).map((t) => `/v2/products?q=${encodeURIComponent(t)}`)
  : mode === 'barerot' ? ids.map((i) => `/bare/${i}`) : ['/bare'];
let i = 0;
const pid = Number(readFileSync('/tmp/s3/server.pid', 'utf8'));
const cpu = () => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8'); const x = f.slice(f.lastIndexOf(')') + 2).split(' '); return (Number(x[11]) + Number(x[12])) * 10; };
const c0 = cpu(); const u0 = process.cpuUsage();
const r = await autocannon({ url: `http://127.0.0.1:${port}`, connections: 50, duration: Number(secs), requests: [{ setupRequest: (req) => { const n = i++; req.path = paths[n % paths.length]!; if (mode !== 'bare') req.headers = { ...req.headers, 'x-api-key': keys[n % keys.length]! }; return req; } }] });
const c1 = cpu(); const u1 = process.cpuUsage(u0);
console.log(`${mode}: ${r.requests.average.toFixed(0)} req/s p50 ${r.latency.p50} p99 ${r.latency.p99} non2xx ${r.non2xx} cpu ${(((c1 - c0) * 1000) / r.requests.total).toFixed(1)} us/req client ${((u1.user + u1.system) / r.requests.total).toFixed(1)} us/req`);
