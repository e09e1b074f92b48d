/**
 * Ingest benchmark: generates the seeded demo catalog (DEFAULT_DEMO_PRODUCTS, 39,000) from the 15 active
 * demo retailers and times one full `runIngest` into a temporary data folder (not a test).
 *
 *   npm run bench:ingest                       ≈39,000 products (35,000+ live)
 *   npm run bench:ingest -- --products 140000  another size (the scaling runs: 35k, 140k, 560k)
 *   npm run bench:ingest -- --json             machine-readable result (one JSON line)
 *   npm run bench:ingest -- --demo             what the first `npm start` builds: the feeds and a
 *                                              year of price history generated, then ingested with
 *                                              that history (generation is timed too)
 *   npm run bench:ingest -- --next-day         also time a second day's run over the first catalog
 *
 * The feeds are generated in a child process (the demo's plan of every product is not the
 * ingest's memory), so the peak RSS reported is the ingest's own high-water mark
 * (`process.resourceUsage().maxRSS` of this process, which only ingests): run one size per
 * process. The budget is 20 s for the 35k demo on a 2-core machine (issue 20); without `--demo`
 * feed generation is not timed.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { progressPrinter } from '../src/cli/progress.js';
import { loadContent } from '../src/content/index.js';
import {
  DEFAULT_DEMO_PRODUCTS,
  type DemoResult,
  generateDemo,
  scoreAgainstTruth,
} from '../src/demo/index.js';
import { runIngest } from '../src/ingest/index.js';

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const target = Number(flag('--products') ?? DEFAULT_DEMO_PRODUCTS);
const json = argv.includes('--json');
const demoBuild = argv.includes('--demo');
const BUDGET_SECONDS = 20;
const say = (line: string) => {
  if (!json) process.stdout.write(`${line}\n`);
};

const pct = (share: number) => `${(share * 100).toFixed(2)} %`;
const tenths = (ms: number) => Math.round(ms / 100) / 10;
const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

const content = loadContent();
/** In the child (`--generate-into DIR`): writes the feeds and the DemoResult as DIR/demo.json. */
const generateInto = flag('--generate-into');
if (generateInto) {
  const demo = await generateDemo({
    outDir: join(generateInto, 'feeds'),
    content,
    products: target,
    historyDays: demoBuild ? 365 : 0,
    endDay: '2026-11-21',
  });
  writeFileSync(join(generateInto, 'demo.json'), JSON.stringify(demo));
  process.exit(0);
}

/** Generates the demo feeds in a child process of this script, so their memory is not counted. */
async function generateApart(dir: string): Promise<DemoResult> {
  const child = fork(fileURLToPath(import.meta.url), [...argv, '--generate-into', dir], { stdio: 'inherit' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`generating the demo feeds failed (exit code ${code})`);
  return JSON.parse(readFileSync(join(dir, 'demo.json'), 'utf8')) as DemoResult;
}

const dir = mkdtempSync(join(tmpdir(), 'shelf-bench-ingest-'));
try {
  const generationStarted = performance.now();
  const demo = await generateApart(dir);
  const generationMs = performance.now() - generationStarted;
  const rows = demo.feeds.reduce((n, f) => n + f.rows, 0);
  say(
    `demo: ${demo.products} products, ${rows} listings in ${demo.feeds.length} feeds (${content.productTypes.length} product types)${
      demoBuild ? `, ${demo.historyRows} price-history rows, generated in ${tenths(generationMs)} s` : ''
    }`,
  );
  const started = performance.now();
  const report = await runIngest({
    dataDir: join(dir, 'data'),
    feeds: demo.feeds,
    content,
    day: '2026-11-21',
    history: demoBuild && demo.historyPath ? [demo.historyPath] : [],
    onProgress: json ? undefined : progressPrinter(),
  });
  const seconds = (performance.now() - started) / 1000;
  const peakIngest = peakRssMb();
  const resolution = scoreAgainstTruth(join(dir, 'data'), demo.truthPath);
  // the next day's run reads the previous catalog too (stable ids, price history carry-over)
  const nextDay = argv.includes('--next-day')
    ? await (async () => {
        const t = performance.now();
        await runIngest({ dataDir: join(dir, 'data'), feeds: demo.feeds, content, day: '2026-11-22' });
        return tenths(performance.now() - t);
      })()
    : null;
  const slowest = [...report.phases].sort((a, b) => b.wall_ms - a.wall_ms).slice(0, 5);
  const result = {
    generated_products: demo.products,
    listings: rows,
    retailers: demo.feeds.length,
    history_rows: demo.historyRows,
    generation_seconds: demoBuild ? tenths(generationMs) : null,
    products: report.products,
    offers: report.offers,
    seconds: Math.round(seconds * 10) / 10,
    cpu_seconds: tenths(report.phases.reduce((n, p) => n + p.cpu_ms, 0)),
    rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20),
    peak_rss_mb: peakIngest,
    phases: report.phases,
    slowest: slowest.map((p) => `${p.phase} ${tenths(p.wall_ms)} s`).join(', '),
    budget_seconds: BUDGET_SECONDS,
    next_day_seconds: nextDay,
    resolution,
  };
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    say(
      `ingest: ${report.products} products, ${report.offers} offers in ${result.seconds} s (${result.cpu_seconds} s CPU), peak RSS ${result.peak_rss_mb} MB`,
    );
    say('| phase | wall s | CPU s | RSS after, MB | JS heap after, MB |');
    say('|---|---:|---:|---:|---:|');
    for (const p of report.phases)
      say(`| ${p.phase} | ${tenths(p.wall_ms)} | ${tenths(p.cpu_ms)} | ${p.rss_mb} | ${p.heap_mb} |`);
    say(
      `resolution vs the demo's ground truth: pair precision ${resolution.precision}, recall ${resolution.recall}, F1 ${resolution.f1} (${resolution.right} right, ${resolution.wrong} wrong, ${resolution.missed} missed pairs)`,
    );
    say(
      `classification vs the ground truth: product type accuracy ${pct(resolution.type_accuracy)}, brand recall ${pct(resolution.brand_recall)}, brand recall from titles ${pct(resolution.brand_recall_from_titles)} (${resolution.products_without_stated_brand} products no listing states a brand for)`,
    );
    say('(wall time counts other processes on a shared machine; CPU time counts this one only)');
    say('| products | ingest | peak RSS | slowest phases |');
    say('|---|---|---|---|');
    say(
      `| ${report.products.toLocaleString('en-US')} | ${result.seconds} s | ${(peakIngest / 1024).toFixed(2)} GB | ${result.slowest} |`,
    );
    if (nextDay !== null) say(`next day's run (with the previous catalog): ${nextDay} s`);
    say(seconds <= BUDGET_SECONDS ? 'within budget' : `over the ${BUDGET_SECONDS} s budget`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
