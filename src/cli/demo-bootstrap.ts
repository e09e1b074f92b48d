import { fork } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEY_PATTERN, KeyStore } from '../access/index.js';
import { currentSnapshotPath } from '../catalog/index.js';
import { loadContent } from '../content/index.js';
import { generateDemo } from '../demo/index.js';
import { runIngest } from '../ingest/index.js';
import { progressPrinter } from './progress.js';

/**
 * Builds the demo catalog (of `products` products, default the demo's size) in `dataDir` when no
 * catalog has been published there yet, telling `log` how it goes. Returns true if it built one.
 */
type DemoBuild = (dataDir: string, log: (line: string) => void, products?: number) => Promise<boolean>;

/** A DemoBuild in this process. */
export const ensureDemoCatalog: DemoBuild = async (dataDir, log, products) => {
  if (currentSnapshotPath(dataDir)) return false;
  log('No catalog yet: generating the demo catalog (first run only)…');
  const content = loadContent();
  const demo = await generateDemo({ outDir: join(dataDir, 'demo-feeds'), content, products });
  log(
    `Wrote ${demo.feeds.length} demo retailer feeds (${demo.listings} listings of ${demo.products} products); ingesting…`,
  );
  const report = await runIngest({
    dataDir,
    feeds: demo.feeds,
    content,
    history: demo.historyPath ? [demo.historyPath] : [],
    onProgress: progressPrinter(),
  });
  log(
    `Demo catalog published: ${report.products} products, ${report.offers} offers in ${(report.duration_ms / 1000).toFixed(1)} s.`,
  );
  return true;
};

/**
 * A DemoBuild in a child process (see `demo-child.ts`): the server keeps none of the ingest's
 * memory.
 */
export const buildDemoInChild: DemoBuild = async (dataDir, log, products) => {
  if (currentSnapshotPath(dataDir)) return false;
  const source = import.meta.url.endsWith('.ts');
  const args = products === undefined ? [dataDir] : [dataDir, String(products)];
  const parentArgv = process.execArgv.filter((a) => !a.startsWith('--max-old-space-size'));
  const child = fork(new URL(`./demo-child.${source ? 'ts' : 'js'}`, import.meta.url), args, {
    stdio: 'inherit',
    // from TypeScript sources the child needs tsx too, however the parent loaded it; the
    // serving heap limit (`npm start`, docs/operations.md) is not the ingest's
    execArgv: source ? [...parentArgv, '--import', import.meta.resolve('tsx')] : parentArgv,
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`building the demo catalog failed (exit code ${code})`);
  log('Demo catalog built in a separate process; its memory is released.');
  return true;
};

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
