/**
 * Ingest benchmark: generates the seeded demo catalog (DEFAULT_DEMO_PRODUCTS, 39,000) from the 15 active
 * demo retailers and times one full `runIngest` into a temporary data folder (not a test).
 *
 *   npm run bench:ingest                       ≈39,000 products (35,000+ live)
 *   npm run bench:ingest -- --products 5000    another size
 *   npm run bench:ingest -- --json             machine-readable result
 *   npm run bench:ingest -- --next-day         also time a second day's run over the first catalog
 *
 * The budget is 60 s on a 2-core machine. Feed generation is not timed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { progressPrinter } from '../src/cli/progress.js';
import { loadContent } from '../src/content/index.js';
import { DEFAULT_DEMO_PRODUCTS, generateDemo, scoreAgainstTruth } from '../src/demo/index.js';
import { runIngest } from '../src/ingest/index.js';

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const target = Number(flag('--products') ?? DEFAULT_DEMO_PRODUCTS);
const json = argv.includes('--json');
const say = (line: string) => {
  if (!json) process.stdout.write(`${line}\n`);
};

const content = loadContent();
const dir = mkdtempSync(join(tmpdir(), 'shelf-bench-ingest-'));
try {
  const demo = await generateDemo({
    outDir: join(dir, 'feeds'),
    content,
    products: target,
    historyDays: 0,
    endDay: '2026-11-21',
  });
  const rows = demo.feeds.reduce((n, f) => n + f.rows, 0);
  say(
    `demo: ${demo.products} products, ${rows} listings in ${demo.feeds.length} feeds (${content.productTypes.length} product types)`,
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
  const resolution = scoreAgainstTruth(join(dir, 'data'), demo.truthPath);
  // the next day's run reads the previous catalog too (stable ids, price history carry-over)
  const nextDay = argv.includes('--next-day')
    ? await (async () => {
        const t = performance.now();
        await runIngest({ dataDir: join(dir, 'data'), feeds: demo.feeds, content, day: '2026-11-22' });
        return Math.round((performance.now() - t) / 100) / 10;
      })()
    : null;
  const memory = process.memoryUsage().rss / 2 ** 20;
  const result = {
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
    next_day_seconds: nextDay,
    resolution,
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
    say(
      `resolution vs the demo's ground truth: pair precision ${resolution.precision}, recall ${resolution.recall}, F1 ${resolution.f1}`,
    );
    say(`CPU time ${result.cpu_seconds} s (wall time counts other processes on a shared machine)`);
    if (nextDay !== null) say(`next day's run (with the previous catalog): ${nextDay} s`);
    say(seconds <= 60 ? 'within budget' : 'OVER BUDGET');
  }
  if (seconds > 60) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
