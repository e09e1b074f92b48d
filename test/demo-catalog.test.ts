import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSnapshotPath, getGroup, offersFor, variantsOf } from '../src/catalog/index.js';
import { loadContent } from '../src/content/index.js';
import { type DemoResult, scoreAgainstTruth } from '../src/demo/index.js';
import type { IngestReport } from '../src/ingest/index.js';
import { ingestDemo } from './helpers/demo-catalog.js';

/** The rows of a demo feed as a retailer wrote them (TSV unquoted, CSV quoted). */
const feedRows = (path: string): Record<string, string>[] =>
  parse(readFileSync(path, 'utf8'), {
    columns: true,
    delimiter: path.endsWith('.csv') ? ',' : '\t',
    quote: path.endsWith('.csv') ? '"' : false,
    relax_column_count: true,
  });

/** The demo feeds through the real ingest: synthetic products that match the generator's ground truth. */
describe('demo catalog', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shelf-demo-catalog-'));
  let report: IngestReport;
  let db: Database.Database;
  let truthPath: string;
  let demo: DemoResult;
  const content = loadContent();

  beforeAll(async () => {
    ({ report, truthPath, demo } = await ingestDemo({
      feedsDir: join(dir, 'feeds'),
      dataDir: join(dir, 'data'),
      products: 1500,
      seed: 3,
      historyDays: 30,
    }));
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
    expect(scoreAgainstTruth(join(dir, 'data'), truthPath).f1).toBeGreaterThan(0.85);
  });

  it('writes every numeric spec inside its type range, read back from the feeds as a retailer wrote it (metric too)', () => {
    // canonical unit → metric unit and factor, as a metric retailer writes it (1 decimal)
    const metric: Record<string, [string, number]> = {
      in: ['cm', 2.54],
      lb: ['kg', 0.453592],
      'cu ft': ['L', 28.3168],
      gal: ['L', 3.78541],
      oz: ['g', 28.3495],
    };
    const typeByName = new Map(content.productTypes.map((t) => [t.name, t]));
    const key = (s: string) => s.replace(/[:,]/g, ' ');
    const outside: string[] = [];
    let checked = 0;
    let metricValues = 0;
    for (const feed of demo.feeds) {
      for (const row of feedRows(feed.path)) {
        const type = typeByName.get(row.product_type?.split(' > ').at(-1) ?? '');
        expect(type, row.product_type).toBeDefined();
        for (const entry of (row.product_detail ?? '').split(',').filter(Boolean)) {
          const [, name = '', value = ''] = entry.split(':');
          const spec = type!.specs.find(
            (s) => key(s.label) === name || s.aliases?.some((a) => key(a) === name),
          );
          if (spec?.type !== 'number' || !spec.range) continue;
          const m = /^(-?\d+(?:\.\d+)?)\s*(.*)$/.exec(value.trim());
          expect(m, `${type!.slug}.${spec.key} "${value}"`).not.toBeNull();
          let v = Number(m![1]);
          let tolerance = 1e-9;
          const conv = spec.unit ? metric[spec.unit] : undefined;
          if (conv && m![2] === conv[0]) {
            v /= conv[1];
            tolerance = 0.051 / conv[1];
            metricValues++;
          }
          checked++;
          const r = spec.range;
          if (v < r.min - tolerance || v > r.max + tolerance)
            outside.push(`${feed.retailer} ${type!.slug}.${spec.key}="${value}" not in [${r.min}, ${r.max}]`);
          else if (r.values && tolerance < 1e-6 && !r.values.includes(v))
            outside.push(
              `${feed.retailer} ${type!.slug}.${spec.key}="${value}" not one of ${r.values.join('/')}`,
            );
        }
      }
    }
    expect(checked).toBeGreaterThan(5000);
    expect(metricValues).toBeGreaterThan(100);
    expect(outside.slice(0, 20)).toEqual([]);
  });

  it('titles read like retailer titles: brand, type and model, no bare numbers left over', () => {
    for (const feed of demo.feeds) {
      for (const row of feedRows(feed.path)) {
        const title = row.title ?? '';
        // regression: "Refrigerator Water Filter NYR9RXD16 - 6", "IIR-2RXM41 3 Refrigerator Water Filter"
        expect(title, feed.retailer).not.toMatch(
          / - \d+$|\b(?=[A-Z0-9-]*[A-Z])(?=[A-Z0-9-]*\d)[A-Z0-9-]{5,} \d+ [A-Z][a-z]/,
        );
        expect(title).not.toMatch(/\s{2}|\s,|undefined|null|NaN/);
      }
    }
  });

  it('regression: types products by their title, not by a Google category sibling types share (robot vacuums typed wet-dry)', () => {
    expect(scoreAgainstTruth(join(dir, 'data'), truthPath).type_accuracy).toBeGreaterThanOrEqual(0.99);
  });

  it('regression: finds the brand in the title when no listing states one (79 products had brand null)', () => {
    const scores = scoreAgainstTruth(join(dir, 'data'), truthPath);
    expect(scores.products_without_stated_brand).toBeGreaterThan(0);
    expect(scores.brand_recall_from_titles).toBeGreaterThanOrEqual(0.995);
    expect(scores.brand_recall).toBeGreaterThanOrEqual(0.995);
  });

  it('regression: legacy (tier 3–4) products stay out of group products and variants unless include_legacy', () => {
    const groups = db
      .prepare(
        `SELECT DISTINCT p.product_group_id AS id FROM products p
          WHERE p.data_tier >= 3 AND p.product_group_id IS NOT NULL
            AND EXISTS (SELECT 1 FROM products q WHERE q.product_group_id = p.product_group_id AND q.data_tier < 3)`,
      )
      .pluck()
      .all() as string[];
    expect(groups.length).toBeGreaterThan(0);
    for (const id of groups.slice(0, 20)) {
      const shown = getGroup(db, id, { includeOffers: true })!.products!;
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.every((p) => p.data_tier < 3)).toBe(true);
      const all = getGroup(db, id, { includeLegacy: true })!.products!;
      expect(all.some((p) => p.data_tier >= 3)).toBe(true);
      const current = shown[0]!;
      expect(variantsOf(db, current).every((p) => p.data_tier < 3)).toBe(true);
      expect(variantsOf(db, current, true).some((p) => p.data_tier >= 3)).toBe(true);
    }
  });

  it('regression: an offer never has a null price (unpriced listings of discontinued products are not offers)', () => {
    const ids = db
      .prepare('SELECT DISTINCT product_id FROM offers WHERE price IS NULL')
      .pluck()
      .all() as string[];
    expect(ids.length).toBeGreaterThan(0);
    for (const offers of offersFor(db, ids).values())
      for (const o of offers) expect(typeof o.price).toBe('number');
  });
});
