import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEY_PATTERN, KeyStore } from '../access/index.js';
import { currentSnapshotPath } from '../catalog/index.js';
import { loadContent } from '../content/index.js';
import { generateDemo } from '../demo/index.js';
import { runIngest } from '../ingest/index.js';
import { progressPrinter } from './progress.js';

/** Builds the demo catalog when no catalog has been published yet. Returns true if it did. */
export async function ensureDemoCatalog(dataDir: string, log: (line: string) => void): Promise<boolean> {
  if (currentSnapshotPath(dataDir)) return false;
  log('No catalog yet: generating the demo catalog (first run only)…');
  const content = loadContent();
  const demo = await generateDemo({ outDir: join(dataDir, 'demo-feeds'), content });
  log(
    `Wrote ${demo.feeds.length} demo retailer feeds (${demo.listings} listings of ${demo.products} products); ingesting…`,
  );
  const report = await runIngest({ dataDir, feeds: demo.feeds, content, onProgress: progressPrinter() });
  log(
    `Demo catalog published: ${report.products} products, ${report.offers} offers in ${(report.duration_ms / 1000).toFixed(1)} s.`,
  );
  return true;
}

/**
 * The demo key: a secret test key on the Pro plan, kept in plain text in
 * `<dataDir>/demo-key.txt` only so that `npm start` can print it on every start. Other keys
 * are never written anywhere but as hashes.
 */
export function ensureDemoKey(dataDir: string): string {
  const file = join(dataDir, 'demo-key.txt');
  const keys = new KeyStore(dataDir);
  try {
    if (existsSync(file)) {
      const key = readFileSync(file, 'utf8').trim();
      if (KEY_PATTERN.test(key) && keys.authenticate(key)) return key;
    }
    const { key } = keys.create({ type: 'secret', env: 'test', plan: 'pro', name: 'demo' });
    writeFileSync(file, `${key}\n`, { mode: 0o600 });
    return key;
  } finally {
    keys.close();
  }
}
