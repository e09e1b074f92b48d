import { currentSnapshotPath, openReadOnly, priceIntelligence, offersFor } from '/work/main/src/catalog/index.js';
import { priceSeries } from '/work/main/src/catalog/price-queries.js';
const db = openReadOnly(currentSnapshotPath('/tmp/bench-demo3') as string);
const ids = (db.prepare('SELECT id FROM products WHERE data_tier < 3 ORDER BY random()').pluck().all() as string[]).slice(0, 20000);
const time = (name: string, f: (id: string) => unknown) => {
  const t = process.hrtime.bigint();
  for (const id of ids) f(id);
  console.log(name.padEnd(28), (Number(process.hrtime.bigint() - t) / ids.length / 1000).toFixed(2), 'us');
};
const p1 = db.prepare('SELECT id, name, current_best_price FROM products WHERE id = ?');
const p2 = db.prepare('SELECT id, name FROM products WHERE id = ?');
const docB = db.prepare('SELECT barcode_json FROM product_documents WHERE id = ?').pluck();
const docE = db.prepare('SELECT etag FROM product_documents WHERE id = ?').pluck();
for (let r = 0; r < 2; r++) {
  time('priceIntelligence 30', (id) => priceIntelligence(db, id, 30));
  time('JSON.stringify of it', (id) => JSON.stringify(priceIntelligence(db, id, 30)));
  time('product row w/ price', (id) => p1.get(id));
  time('product row w/o price', (id) => p2.get(id));
  time('offersFor', (id) => offersFor(db, [id]));
  time('priceSeries', (id) => priceSeries(db, id));
  time('doc barcode_json', (id) => docB.get(id));
  time('doc etag', (id) => docE.get(id));
}
console.log(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'offers'").pluck().get());
console.log(db.prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'offers' AND type = 'index'").pluck().all());
