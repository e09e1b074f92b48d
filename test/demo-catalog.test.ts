import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSnapshotPath } from '../src/catalog/index.js';
import { loadContent } from '../src/content/index.js';
import { generateDemo } from '../src/demo/index.js';
import { type IngestReport, runIngest } from '../src/ingest/index.js';

/** The demo feeds through the real ingest: synthetic products that match the generator's ground truth. */
describe('demo catalog', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shelf-demo-catalog-'));
  let report: IngestReport;
  let db: Database.Database;
  let truthPath: string;

  beforeAll(async () => {
    const content = loadContent();
    const demo = await generateDemo({
      outDir: join(dir, 'feeds'),
      content,
      products: 1500,
      seed: 3,
      endDay: '2026-11-20',
      historyDays: 30,
    });
    truthPath = demo.truthPath;
    report = await runIngest({ dataDir: join(dir, 'data'), feeds: demo.feeds, content, day: '2026-11-20' });
    db = new Database(currentSnapshotPath(join(dir, 'data'))!, { readonly: true });
  }, 240_000);
  afterAll(() => {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('marks every demo product synthetic', () => {
    expect(report.published).toBe(true);
    const kinds = db.prepare('SELECT source_type, count(*) AS n FROM products GROUP BY source_type').all();
    expect(kinds).toEqual([{ source_type: 'synthetic', n: report.products }]);
  });

  it('resolves the listings of one product at several retailers into one product (pairwise F1 against the ground truth)', () => {
    const truth = new Map<string, string>();
    for (const line of readFileSync(truthPath, 'utf8').trim().split('\n').slice(1)) {
      const [retailer, item, product] = line.split(',');
      truth.set(`${retailer}:${item}`, product!);
    }
    const predicted = new Map<string, string>();
    for (const row of db
      .prepare(
        'SELECT r.slug, o.retailer_item_id, o.product_id FROM offers o JOIN retailers r ON r.id = o.retailer_id',
      )
      .iterate() as Iterable<{ slug: string; retailer_item_id: string; product_id: string }>) {
      predicted.set(`${row.slug}:${row.retailer_item_id}`, row.product_id);
    }
    const pairs = (byKey: Map<string, string>) => {
      const groups = new Map<string, string[]>();
      for (const [key, cluster] of byKey) groups.set(cluster, [...(groups.get(cluster) ?? []), key]);
      const out = new Set<string>();
      for (const members of groups.values())
        for (const a of members) for (const b of members) if (a < b) out.add(`${a}|${b}`);
      return out;
    };
    const truePairs = pairs(truth);
    const predictedPairs = pairs(predicted);
    const hits = [...predictedPairs].filter((p) => truePairs.has(p)).length;
    const precision = hits / predictedPairs.size;
    const recall = hits / truePairs.size;
    const f1 = (2 * precision * recall) / (precision + recall);
    expect(f1).toBeGreaterThan(0.85);
  });
});
