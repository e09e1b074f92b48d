import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { CATALOG_SCHEMA_VERSION, catalogDir, currentSnapshotPath } from '../src/catalog/index.js';
import { loadContent } from '../src/content/index.js';
import { generateDemo } from '../src/demo/index.js';
import { runIngest } from '../src/ingest/index.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** What builds the demo catalog: its generator, ingest and content, all under these. */
const BUILT_FROM = ['src', 'data'];
const STAMP = 'demo-built-from.sha256';

/**
 * The full demo catalog in `dataDir`, built once (demo feeds → real ingest) and reused by
 * later runs while it was built by the same code and data (a hash of `src/` and `data/`): a
 * catalog this function cached for another branch or an older commit is rebuilt, so a bench or
 * an eval never measures code other than the one checked out. A catalog it did not build (no
 * stamp: e.g. `npm start`'s, with a year of prices) is used as it is while its schema is current.
 * Returns the published snapshot's path.
 */
export async function demoCatalog(
  dataDir: string,
  products: number,
  log: (s: string) => void,
): Promise<string> {
  const stampPath = join(dataDir, STAMP);
  const want = `${sourceHash()} ${products} ${CATALOG_SCHEMA_VERSION}`;
  const existing = currentSnapshotPath(dataDir);
  const have = existsSync(stampPath) ? readFileSync(stampPath, 'utf8').trim() : null;
  if (existing && (have === null ? schemaVersion(existing) >= CATALOG_SCHEMA_VERSION : have === want))
    return existing;
  if (existing && have !== null) {
    log(`the demo catalog in ${dataDir} was built by other code or data: rebuilding it`);
    // only what this function wrote: the data dir may also hold the bench's keys (access.db)
    rmSync(catalogDir(dataDir), { recursive: true, force: true });
    rmSync(join(dataDir, 'demo-feeds'), { recursive: true, force: true });
  }
  mkdirSync(dataDir, { recursive: true });
  const content = loadContent();
  const demo = await generateDemo({ outDir: join(dataDir, 'demo-feeds'), content, products, historyDays: 0 });
  log(`building the demo catalog: ${demo.products} products in ${demo.feeds.length} feeds…`);
  const started = Date.now();
  await runIngest({ dataDir, feeds: demo.feeds, content });
  const path = currentSnapshotPath(dataDir);
  if (!path || !existsSync(path)) throw new Error('demo ingest published nothing');
  // what this function built it may rebuild later (and only that)
  writeFileSync(stampPath, `${want}\n`);
  log(`demo catalog built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return path;
}

/** SHA-256 of every file's path and bytes under {@link BUILT_FROM}, tests left out. */
function sourceHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && !/\.test\.ts$/.test(entry.name)) {
        hash.update(relative(ROOT, path)).update('\0').update(readFileSync(path)).update('\0');
      }
    }
  };
  for (const dir of BUILT_FROM) walk(join(ROOT, dir));
  return hash.digest('hex');
}

function schemaVersion(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}
