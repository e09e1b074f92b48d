/**
 * Ingest benchmark: generates the seeded demo catalog at about 35,000 products from the 15
 * demo retailers and times one full `runIngest` into a temporary data folder (not a test).
 *
 *   npm run bench:ingest                       ≈35,000 products
 *   npm run bench:ingest -- --products 5000    another size
 *   npm run bench:ingest -- --json             machine-readable result
 *
 * The budget is 60 s on a 2-core machine. Feed generation is not timed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { progressPrinter } from '../src/cli/progress.js';
import { loadContent } from '../src/content/index.js';
import { generateDemo } from '../src/demo/index.js';
import { runIngest } from '../src/ingest/index.js';

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const target = Number(flag('--products') ?? 35_000);
const json = argv.includes('--json');
const say = (line: string) => {
  if (!json) process.stdout.write(`${line}\n`);
};

const content = loadContent();
const dir = mkdtempSync(join(tmpdir(), 'shelf-bench-ingest-'));
try {
  // main's demo generator takes the product count itself (merged in the mcp branch)
  const demo = await generateDemo({ outDir: join(dir, 'feeds'), content, products: target });
  const perType = Math.round(demo.products / content.productTypes.length);
  const rows = demo.feeds.reduce((n, f) => n + f.rows, 0);
  say(
    `demo: perType ${perType} → ${demo.products} products, ${rows} listings in ${demo.feeds.length} feeds (${content.productTypes.length} product types)`,
  );
  const started = performance.now();
  const report = await runIngest({
    dataDir: join(dir, 'data'),
    feeds: demo.feeds,
    content,
    day: '2026-11-21',
    onProgress: json ? undefined : progressPrinter(),
  });
  const seconds = (performance.now() - started) / 1000;
  const memory = process.memoryUsage().rss / 2 ** 20;
  const result = {
    per_type: perType,
    generated_products: demo.products,
    listings: rows,
    retailers: demo.feeds.length,
    products: report.products,
    offers: report.offers,
    seconds: Math.round(seconds * 10) / 10,
    rss_mb: Math.round(memory),
    cpu_seconds: Math.round(report.phases.reduce((n, p) => n + p.cpu_ms, 0) / 100) / 10,
    phases: report.phases,
    budget_seconds: 60,
  };
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    say(
      `ingest: ${report.products} products, ${report.offers} offers in ${result.seconds} s (budget 60 s), RSS ${result.rss_mb} MB`,
    );
    for (const p of report.phases)
      say(
        `  ${p.phase.padEnd(16)} ${(p.wall_ms / 1000).toFixed(1).padStart(6)} s wall ${(p.cpu_ms / 1000).toFixed(1).padStart(6)} s CPU`,
      );
    say(`CPU time ${result.cpu_seconds} s (wall time counts other processes on a shared machine)`);
    say(seconds <= 60 ? 'within budget' : 'OVER BUDGET');
  }
  if (seconds > 60) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
