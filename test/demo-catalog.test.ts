import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSnapshotPath } from '../src/catalog/index.js';
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
});
