import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSnapshotPath, getGroup, offersFor, variantsOf } from '../src/catalog/index.js';
import { scoreAgainstTruth } from '../src/demo/index.js';
import type { IngestReport } from '../src/ingest/index.js';

import { ingestDemo } from './helpers/demo-catalog.js';

/** The demo feeds through the real ingest: synthetic products that match the generator's ground truth. */

describe('demo catalog', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shelf-demo-catalog-'));
  let report: IngestReport;
  let db: Database.Database;
  let truthPath: string;

  beforeAll(async () => {
    ({ report, truthPath } = await ingestDemo({
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
