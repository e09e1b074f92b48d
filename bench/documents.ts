/**
 * The documents phase alone, on a copy of a built snapshot (not a test): clears its stored
 * product documents and their dictionaries, writes them again with this checkout's
 * `writeProductDocuments`, and reports the phase's CPU (every thread of the process), the
 * stored bytes a product and the decode time of a product document and a barcode result.
 *
 *   npx tsx bench/documents.ts path/to/catalog.db                 one run
 *   npx tsx bench/documents.ts path/to/catalog.db --dump out.tsv  also every decoded document
 *     (id, list-form JSON, _knowledge, barcode result, ETag), to compare two checkouts byte
 *     for byte (`cmp`)
 *   npx tsx bench/documents.ts path/to/catalog.db --keep copy.db  keep the rewritten copy
 *
 * Decode times are the median of 7 passes over every document held in memory (no SQLite).
 */
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWritable } from '../src/catalog/index.js';
import { documentReader } from '../src/catalog/product-documents.js';
import { writeProductDocuments } from '../src/ingest/build/product-documents.js';

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const source = argv[0];
if (!source || source.startsWith('--')) {
  process.stderr.write(
    'usage: npx tsx bench/documents.ts path/to/catalog.db [--dump out.tsv] [--keep copy.db]\n',
  );
  process.exit(1);
}
const copy = join(tmpdir(), `shelf-bench-documents-${process.pid}.db`);
copyFileSync(source, copy);
const db = openWritable(copy);
try {
  const DICTIONARIES = "name = 'documents' OR name LIKE 'documents/%'";
  db.exec(`DELETE FROM product_documents; DELETE FROM dictionaries WHERE ${DICTIONARIES}`);
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const products = db.transaction(() => writeProductDocuments(db))();
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - wall) / 1000;
  const bytes = db
    .prepare(
      'SELECT sum(length(json)) AS json, sum(length(knowledge_json)) AS knowledge, sum(length(barcode_json)) AS barcode FROM product_documents',
    )
    .get() as { json: number; knowledge: number; barcode: number };
  const dictionaries = db
    .prepare(`SELECT count(*) AS n, sum(length(bytes)) AS bytes FROM dictionaries WHERE ${DICTIONARIES}`)
    .get() as {
    n: number;
    bytes: number;
  };
  const stored = bytes.json + bytes.knowledge + bytes.barcode + dictionaries.bytes;
  console.log(
    `${products} products: documents phase ${((used.user + used.system) / 1e6).toFixed(2)} s CPU, ${seconds.toFixed(2)} s wall`,
  );
  console.log(
    `stored ${(stored / 1e6).toFixed(2)} MB, ${(stored / products).toFixed(0)} B a product (list form ${bytes.json}, _knowledge ${bytes.knowledge}, barcode ${bytes.barcode}, ${dictionaries.n} dictionaries ${dictionaries.bytes})`,
  );

  const read = documentReader(db);
  if (!read) throw new Error('no stored documents');
  const rows = db
    .prepare('SELECT id, json, knowledge_json, barcode_json, etag FROM product_documents ORDER BY id')
    .all() as {
    id: string;
    json: Uint8Array;
    knowledge_json: Uint8Array | null;
    barcode_json: Uint8Array;
    etag: string;
  }[];
  const perDocument = (decode: (row: (typeof rows)[number]) => void): number => {
    const passes: number[] = [];
    for (let pass = 0; pass < 7; pass++) {
      const start = process.cpuUsage();
      for (const row of rows) decode(row);
      const { user, system } = process.cpuUsage(start);
      passes.push((user + system) / rows.length);
    }
    return passes.sort((a, b) => a - b)[3] as number;
  };
  const product = perDocument((row) => {
    read(row.json);
    if (row.knowledge_json) read(row.knowledge_json);
  });
  const barcode = perDocument((row) => read(row.barcode_json));
  console.log(
    `decode: a product document ${product.toFixed(1)} µs, a barcode result ${barcode.toFixed(1)} µs`,
  );

  const dump = flag('--dump');
  if (dump)
    writeFileSync(
      dump,
      rows
        .map((r) =>
          [
            r.id,
            read(r.json),
            r.knowledge_json ? read(r.knowledge_json) : 'null',
            read(r.barcode_json),
            r.etag,
          ].join('\t'),
        )
        .join('\n'),
    );
} finally {
  db.close();
  const keep = flag('--keep');
  if (keep) copyFileSync(copy, keep);
  rmSync(copy);
}
