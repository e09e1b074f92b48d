import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentSnapshotPath } from '../src/catalog/index.js';
import { loadContent } from '../src/content/index.js';
import { generateDemo } from '../src/demo/index.js';
import { resolveByIdentifiers } from '../src/ingest/build/resolver.js';
import { runIngest } from '../src/ingest/index.js';

/**
 * The full demo catalog in `dataDir`, built once (demo feeds → real ingest) and reused by
 * later runs. Returns the published snapshot's path.
 */
export async function demoCatalog(
  dataDir: string,
  perType: number,
  log: (s: string) => void,
): Promise<string> {
  const existing = currentSnapshotPath(dataDir);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true });
  const content = loadContent();
  // the demo generator now takes a product count (merge of main's demo-at-scale)
  const demo = await generateDemo({
    outDir: join(dataDir, 'demo-feeds'),
    content,
    products: perType * content.productTypes.length,
  });
  log(`building the demo catalog: ${demo.products} products in ${demo.feeds.length} feeds…`);
  // Large demo runs repeat a few random item ids within a feed, which ingest rejects as a
  // whole; keep the first row of each id so the benchmark has its full-size catalog.
  for (const feed of demo.feeds) {
    const seen = new Set<string>();
    const lines = readFileSync(feed.path, 'utf8').split('\n');
    const kept = lines.filter((line, i) => {
      if (i === 0 || line === '') return true;
      const id = line.slice(0, line.indexOf('\t'));
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    if (kept.length !== lines.length) writeFileSync(feed.path, kept.join('\n'));
  }
  const started = Date.now();
  try {
    await runIngest({ dataDir, feeds: demo.feeds, content });
  } catch (error) {
    // Large demo catalogs hit a product-group id collision in ingest (two groups with one
    // brand + base model). Search speed does not depend on groups: build without them.
    log(`ingest failed (${(error as Error).message}); retrying without variant groups`);
    await runIngest({
      dataDir,
      feeds: demo.feeds,
      content,
      resolver: (records) => ({ ...resolveByIdentifiers(records), groups: [] }),
    });
  }
  const path = currentSnapshotPath(dataDir);
  if (!path || !existsSync(path)) throw new Error('demo ingest published nothing');
  log(`demo catalog built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return path;
}
