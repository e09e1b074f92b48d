import { loadContent } from '../../src/content/index.js';
import { type DemoResult, generateDemo } from '../../src/demo/index.js';
import { type IngestReport, runIngest } from '../../src/ingest/index.js';

/**
 * A small seeded demo catalog: feeds written to `feedsDir`, ingested into `dataDir` on the
 * demo's last day (with its price history when `withHistory`).
 */
export async function ingestDemo(options: {
  feedsDir: string;
  dataDir: string;
  products: number;
  seed: number;
  historyDays: number;
  withHistory?: boolean;
}): Promise<{ report: IngestReport; truthPath: string; demo: DemoResult }> {
  const content = loadContent();
  const day = '2026-11-20';
  const demo = await generateDemo({
    outDir: options.feedsDir,
    content,
    products: options.products,
    seed: options.seed,
    endDay: day,
    historyDays: options.historyDays,
  });
  const report = await runIngest({
    dataDir: options.dataDir,
    feeds: demo.feeds,
    content,
    day,
    ...(options.withHistory && demo.historyPath ? { history: [demo.historyPath] } : {}),
  });
  return { report, truthPath: demo.truthPath, demo };
}
