import { currentSnapshotPath, openReadOnly, priceIntelligence, offersFor } from '/work/main/src/catalog/index.js';
const a = openReadOnly(currentSnapshotPath('/tmp/bench-demo3') as string);
const b = openReadOnly('/tmp/s3/copy.db');
const ids = (a.prepare('SELECT id FROM products WHERE data_tier < 3 ORDER BY random()').pluck().all() as string[]).slice(0, 20000);
const time = (name: string, f: (id: string) => unknown) => {
  const t = process.hrtime.bigint();
  for (const id of ids) f(id);
  console.log(name.padEnd(28), (Number(process.hrtime.bigint() - t) / ids.length / 1000).toFixed(2), 'us');
};
for (let r = 0; r < 2; r++) {
  time('offersFor old', (id) => offersFor(a, [id]));
  time('offersFor covering', (id) => offersFor(b, [id]));
  time('priceIntel old', (id) => priceIntelligence(a, id, 30));
  time('priceIntel covering', (id) => priceIntelligence(b, id, 30));
}
console.log(b.prepare("EXPLAIN QUERY PLAN SELECT product_id, retailer_id, price, original_price, currency, in_stock, availability, retailer_url, last_seen_at FROM offers WHERE product_id = ?").all('x'));
