import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CATALOG_SCHEMA_VERSION, currentSnapshotPath } from '../src/catalog/index.js';
import { loadContent } from '../src/content/index.js';
import { generateDemo } from '../src/demo/index.js';
import { runIngest } from '../src/ingest/index.js';

/**
 * The full demo catalog in `dataDir`, built once (demo feeds → real ingest) and reused by
 * later runs while its snapshot schema is current. Returns the published snapshot's path.
 */
export async function demoCatalog(
  dataDir: string,
  products: number,
  log: (s: string) => void,
): Promise<string> {
  const existing = currentSnapshotPath(dataDir);
  if (existing && schemaVersion(existing) >= CATALOG_SCHEMA_VERSION) return existing;
  mkdirSync(dataDir, { recursive: true });
  const content = loadContent();
  const demo = await generateDemo({ outDir: join(dataDir, 'demo-feeds'), content, products, historyDays: 0 });
  log(`building the demo catalog: ${demo.products} products in ${demo.feeds.length} feeds…`);
  const started = Date.now();
  await runIngest({ dataDir, feeds: demo.feeds, content });
  const path = currentSnapshotPath(dataDir);
  if (!path || !existsSync(path)) throw new Error('demo ingest published nothing');
  log(`demo catalog built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return path;
}

function schemaVersion(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}
