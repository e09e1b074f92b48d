import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KeyStore, type PlanId } from '../../src/access/index.js';
import { loadContent } from '../../src/content/index.js';
import { type IngestReport, runIngest } from '../../src/ingest/index.js';

export const FIXTURES = resolve(import.meta.dirname, '../fixtures');
export const fixtureContent = () => loadContent(join(FIXTURES, 'content'));
export const fixtureFeeds = () => [
  { retailer: 'northgate', path: join(FIXTURES, 'feeds/northgate.tsv') },
  { retailer: 'voltmart', path: join(FIXTURES, 'feeds/voltmart.csv') },
];

export interface FixtureCatalog {
  dataDir: string;
  report: IngestReport;
  /** creates a key in this catalog's access store */
  key(plan?: PlanId, options?: { type?: 'secret' | 'publishable'; env?: 'live' | 'test' }): string;
  cleanup(): void;
}

/** A temporary data dir with the fixture feeds ingested into a published catalog. */
export async function fixtureCatalog(): Promise<FixtureCatalog> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shelf-test-'));
  const report = await runIngest({
    dataDir,
    feeds: fixtureFeeds(),
    content: fixtureContent(),
    day: '2026-11-20',
  });
  return {
    dataDir,
    report,
    key(plan = 'pro', options = {}) {
      const store = new KeyStore(dataDir);
      try {
        return store.create({ plan, type: options.type ?? 'secret', env: options.env ?? 'live' }).key;
      } finally {
        store.close();
      }
    },
    cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
