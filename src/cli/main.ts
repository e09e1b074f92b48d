#!/usr/bin/env node
import { writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import {
  isPlanId,
  type KeyAdmin,
  KeyStore,
  PLAN_IDS,
  type PlanId,
  RedisKeyStore,
  readRedisUsage,
  readUsage,
  usageReport,
} from '../access/index.js';
import { startServer } from '../api/index.js';
import { listSnapshots, rollbackSnapshot } from '../catalog/index.js';
import { loadConfig } from '../config.js';
import { loadContent } from '../content/index.js';
import { DEFAULT_DEMO_PRODUCTS, generateDemo } from '../demo/index.js';
import {
  type IngestReport,
  loadSources,
  parseFeedArgument,
  refreshOnce,
  runIngest,
  scheduleDaily,
} from '../ingest/index.js';
import { buildDemoInChild, ensureDemoKey } from './demo-bootstrap.js';
import { exportCatalog } from './export.js';
import { progressPrinter } from './progress.js';

const program = new Command('shelf')
  .description('Shelf: product data for developers and AI agents')
  .showHelpAfterError();

const plan = (value: string): PlanId => {
  if (!isPlanId(value)) throw new InvalidArgumentError(`plan must be one of ${PLAN_IDS.join(', ')}`);
  return value;
};

program
  .command('serve', { isDefault: true })
  .description('serve the REST API (builds the demo catalog on first run)')
  .option('--no-demo', 'do not build the demo catalog when none exists')
  .action(async (options: { demo: boolean }) => {
    const config = loadConfig();
    const say = (line: string) => process.stdout.write(`${line}\n`);
    // in a child process, so that the server does not keep the ingest's memory
    if (options.demo) await buildDemoInChild(config.dataDir, say);
    const server = await startServer(config);
    const demoKey = options.demo ? ensureDemoKey(config.dataDir) : null;
    // the demo key is made in access.db: with Redis, replicas know only the keys in Redis
    if (demoKey && config.REDIS_URL)
      await copyKeysToRedis(config.dataDir, config.REDIS_URL).catch(() => null);
    say('');
    say(`Shelf is serving on ${server.url}`);
    if (demoKey) {
      say(`Demo key (Pro plan, test): ${demoKey}`);
      say(`Try: curl -H "X-API-Key: ${demoKey}" "${server.url}/v2/products?q=dishwasher&limit=3"`);
      // the key rides in the URL fragment, which the browser keeps to itself (src/explore)
      say(`Explore: ${server.url}/explore#key=${demoKey}`);
    } else {
      say(`Explore: ${server.url}/explore (paste an API key)`);
    }
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        void server.close().then(() => process.exit(0));
      });
    }
  });

interface IngestCliOptions {
  report?: string;
  force?: boolean;
  maxDrop?: number;
  remove: string[];
  day?: string;
  history: string[];
  sources?: string;
  schedule?: boolean;
  at?: string;
  now?: boolean;
}

/**
 * Prints a run report the way `shelf ingest` shows it. Returns the exit code: 0 published,
 * 1 nothing published, 2 published with some retailers' feeds held back.
 */
function printIngestReport(report: IngestReport, download: string[] = []): number {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const err = (line: string) => process.stderr.write(`${line}\n`);
  for (const e of download) out(`  download failed: ${e}`);
  for (const f of report.feeds)
    out(
      `${f.retailer}: ${f.listings} listings from ${f.rows} rows, ${f.rejected} rejected, ${f.warnings} warnings${f.error ? `, FAILED: ${f.error}; kept ${f.carried_over} listings from the last catalog` : ''}`,
    );
  for (const k of report.kept ?? []) out(`${k.retailer}: not in this run, keeps its ${k.listings} listings`);
  for (const r of report.removed ?? []) out(`${r.retailer}: removed (${r.listings} listings)`);
  for (const h of report.history ?? [])
    out(
      `history ${h.path}: ${h.imported} observations imported from ${h.rows} rows, ${h.unknown_offers} for unknown offers, ${h.rejected} rejected${h.error ? `, FAILED: ${h.error}` : ''}`,
    );
  for (const issue of report.issues.slice(0, 20))
    out(`  ${issue.severity} ${issue.file}:${issue.line} ${issue.reason}`);
  if (report.issues.length > 20) out(`  … ${report.issues.length - 20} more (use --report)`);
  for (const h of report.held ?? [])
    err(
      `HELD BACK ${h.retailer}: ${h.reason}. It keeps its ${h.listings} listings from the last catalog; check the feed, or re-run with --force to accept it.`,
    );
  if (!report.published) {
    err(
      `Nothing was published: ${report.refused ?? 'no feed could be read'}. The published catalog is unchanged.`,
    );
    if (report.refused?.startsWith('visible products'))
      err('Check the feeds, or re-run with --force to publish anyway.');
    return 1;
  }
  out(
    `Published ${report.products} products (${report.visible_products.after} visible, ${report.visible_products.before} before) and ${report.offers} offers in ${(report.duration_ms / 1000).toFixed(1)} s.`,
  );
  return report.held.length > 0 ? 2 : 0;
}

const share = (value: string): number => {
  const n = Number(value.replace(/%$/, ''));
  if (!/^\d+(\.\d+)?%?$/.test(value.trim()) || !(n >= 0 && n <= 100))
    throw new InvalidArgumentError('must be a percentage from 0 to 100, e.g. 30');
  return n / 100;
};

program
  .command('ingest')
  .description(
    'ingest Merchant Center feeds (retailer=path, or a path whose file name is the retailer) and publish a new catalog',
  )
  .argument('[feeds...]', 'feed files: TSV, CSV, XML (RSS/Atom), JSON or NDJSON')
  .option('--report <file>', 'write the full run report (bad rows with file and line) as JSON')
  .option('--day <YYYY-MM-DD>', 'day of the price observations (default today, UTC)')
  .option(
    '--history <file>',
    'import past price observations from CSV: retailer,id,date,price,sale_price,availability (repeatable)',
    (file: string, files: string[]) => [...files, file],
    [] as string[],
  )
  .option('--sources <file>', 'sources.json: {"at": "HH:MM", "feeds": [{"retailer", "source": path or URL}]}')
  .option('--schedule', 'keep running and re-ingest --sources every day at their UTC time')
  .option('--at <HH:MM>', 'UTC time of the daily run (overrides sources.json; default 04:00)')
  .option('--now', 'with --schedule: also run once at start')
  .option(
    '--max-drop <percent>',
    "most a retailer's accepted rows, or the visible products, may shrink by against the last run (default 30)",
    share,
  )
  .option('--force', 'publish feeds and a catalog the guards would hold back (not with --schedule)')
  .option(
    '--remove <retailer>',
    'remove a retailer and all its listings from the catalog (repeatable; the only way a retailer leaves)',
    (slug: string, slugs: string[]) => [...slugs, slug],
    [] as string[],
  )
  .action(async (feeds: string[], options: IngestCliOptions) => {
    const config = loadConfig();
    if (options.day && !/^\d{4}-\d{2}-\d{2}$/.test(options.day))
      throw new InvalidArgumentError('--day must be YYYY-MM-DD');
    if (options.at && !/^([01]\d|2[0-3]):[0-5]\d$/.test(options.at))
      throw new InvalidArgumentError('--at must be HH:MM (UTC)');
    if (options.schedule && !options.sources)
      throw new InvalidArgumentError('--schedule needs --sources <file>');
    if (!options.sources && feeds.length === 0 && options.remove.length === 0)
      throw new InvalidArgumentError('give feed files, --sources <file> or --remove <retailer>');
    if (options.schedule && options.force)
      throw new InvalidArgumentError('--force accepts one run: it cannot be combined with --schedule');

    if (options.schedule && options.sources) {
      const sources = loadSources(options.sources);
      const at = options.at ?? sources.at ?? '04:00';
      process.stdout.write(
        `Refreshing ${sources.feeds.length} sources daily at ${at} UTC${options.now ? ', starting now' : ''}. Ctrl-C stops.\n`,
      );
      const stop = scheduleDaily({
        dataDir: config.dataDir,
        sourcesFile: options.sources,
        at,
        runNow: options.now,
        maxDrop: options.maxDrop,
        onReport: (r) => {
          process.stdout.write(`[${new Date().toISOString()}] refresh\n`);
          if (r instanceof Error) process.stderr.write(`refresh failed: ${r.message}\n`);
          else printIngestReport(r, r.download_errors);
        },
      });
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop());
      return;
    }

    const report: IngestReport & { download_errors?: string[] } = options.sources
      ? await refreshOnce({
          dataDir: config.dataDir,
          sourcesFile: options.sources,
          day: options.day,
          maxDrop: options.maxDrop,
          force: options.force,
          remove: options.remove,
          onProgress: progressPrinter(),
        })
      : await runIngest({
          dataDir: config.dataDir,
          feeds: feeds.map(parseFeedArgument),
          day: options.day,
          history: options.history,
          maxDrop: options.maxDrop,
          force: options.force,
          remove: options.remove,
          onProgress: progressPrinter(),
        });
    if (options.report) writeFileSync(options.report, JSON.stringify(report, null, 2));
    process.exitCode = printIngestReport(report, report.download_errors ?? []);
  });

program
  .command('demo')
  .description('write the demo retailer feeds (seeded), a year of price history and the ground truth')
  .option('--out <dir>', 'output folder', 'demo-feeds')
  .option(
    '--products <n>',
    'approximate number of products, variants included',
    (v) => Number.parseInt(v, 10),
    DEFAULT_DEMO_PRODUCTS,
  )
  .option('--seed <n>', 'random seed', (v) => Number.parseInt(v, 10), 20261121)
  .option('--end-day <YYYY-MM-DD>', 'last day of the price history (default today, UTC)')
  .option('--history-days <n>', 'days of price history (0 for none)', (v) => Number.parseInt(v, 10), 365)
  .option('--ingest', 'ingest the feeds and publish the catalog')
  .action(
    async (options: {
      out: string;
      products: number;
      seed: number;
      endDay?: string;
      historyDays: number;
      ingest?: boolean;
    }) => {
      if (!Number.isFinite(options.products) || options.products < 1)
        throw new InvalidArgumentError('--products must be a positive number');
      const content = loadContent();
      const demo = await generateDemo({
        outDir: options.out,
        content,
        products: options.products,
        seed: options.seed,
        endDay: options.endDay,
        historyDays: options.historyDays,
      });
      process.stdout.write(
        `Wrote ${demo.feeds.length} feeds (${demo.listings} listings of ${demo.products} products), ${demo.historyRows} price-history rows and ${demo.truthPath}\n`,
      );
      if (options.ingest) {
        const report = await runIngest({
          dataDir: loadConfig().dataDir,
          feeds: demo.feeds,
          content,
          history: demo.historyPath ? [demo.historyPath] : [],
          onProgress: progressPrinter(),
        });
        process.exitCode = printIngestReport(report);
      }
    },
  );

const catalog = program.command('catalog').description('published catalog snapshots');

catalog
  .command('list')
  .description('the snapshots kept for rollback, oldest first (* marks the one served)')
  .option('--json', 'print JSON')
  .action((o: { json?: boolean }) => {
    const list = listSnapshots(loadConfig().dataDir);
    if (o.json) return void process.stdout.write(`${JSON.stringify(list)}\n`);
    if (list.length === 0) return void process.stdout.write('No catalog has been published yet.\n');
    for (const s of list)
      process.stdout.write(
        `${s.current ? '*' : ' '} ${s.id}  published ${s.published_at}  ${s.products} products (${s.visible_products} visible)  ${s.offers} offers\n`,
      );
  });

catalog
  .command('rollback')
  .description(
    'serve an earlier snapshot again (default: the one before the current); servers follow within a second',
  )
  .argument('[id]', 'a snapshot id from `shelf catalog list` (or its unique start)')
  .action((id: string | undefined) => {
    const target = rollbackSnapshot(loadConfig().dataDir, id);
    process.stdout.write(
      `Now serving ${target.id} (published ${target.published_at}, ${target.products} products, ${target.visible_products} visible).\n`,
    );
  });

program
  .command('export')
  .description(
    'write every product of the published catalog, one JSON document per line (the body of GET /v2/products/{id})',
  )
  .addOption(new Option('--format <format>', 'output format').choices(['jsonl']).default('jsonl'))
  .option('--out <file>', 'the file to write, or - for standard output', '-')
  .action(async (o: { format: 'jsonl'; out: string }) => {
    const result = await exportCatalog(loadConfig().dataDir, o.out === '-' ? process.stdout : o.out);
    process.stderr.write(
      `Exported ${result.products} products from ${result.snapshot}${o.out === '-' ? '' : ` to ${o.out}`}.\n` +
        (result.changesCursor
          ? `Follow changes from here: GET /v2/changes?since=${result.changesCursor}\n`
          : ''),
    );
  });

program
  .command('retailer')
  .description('manage the retailers of the catalog')
  .command('remove')
  .description('remove a retailer and all its listings, and publish the catalog without it')
  .argument('<retailer...>', 'retailer slugs')
  .option('--force', 'publish even when the catalog loses more visible products than --max-drop allows')
  .option('--max-drop <percent>', 'most the visible products may shrink by (default 30)', share)
  .action(async (slugs: string[], o: { force?: boolean; maxDrop?: number }) => {
    const report = await runIngest({
      dataDir: loadConfig().dataDir,
      feeds: [],
      remove: slugs,
      force: o.force,
      maxDrop: o.maxDrop,
      onProgress: progressPrinter(),
    });
    process.exitCode = printIngestReport(report);
  });

const keys = program.command('keys').description('manage API keys');
/** The keys of this deployment: in Redis when REDIS_URL is set (shared by every replica), else access.db. */
const withKeys = async <T>(fn: (store: KeyAdmin) => T | Promise<T>): Promise<T> => {
  const config = loadConfig();
  const store: KeyAdmin = config.REDIS_URL
    ? await RedisKeyStore.open(config.REDIS_URL)
    : new KeyStore(config.dataDir);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
};

keys
  .command('create')
  .description('create a key; it is shown once')
  .addOption(new Option('--plan <plan>', 'free, starter, pro or enterprise').argParser(plan).default('free'))
  .addOption(
    new Option('--type <type>', 'secret or publishable').choices(['secret', 'publishable']).default('secret'),
  )
  .addOption(new Option('--env <env>', 'live or test').choices(['live', 'test']).default('live'))
  .option('--name <name>', 'a label for the key')
  .option('--origin <origin...>', 'allowed browser Origins (publishable keys)')
  .option('--json', 'print JSON')
  .action(
    (o: {
      plan: PlanId;
      type: 'secret' | 'publishable';
      env: 'live' | 'test';
      name?: string;
      origin?: string[];
      json?: boolean;
    }) =>
      withKeys(async (store) => {
        if (o.type === 'publishable' && !o.origin?.length)
          throw new InvalidArgumentError(
            'a publishable key needs --origin: the browser Origins it may be used from (e.g. https://shop.example)',
          );
        const { key, record } = await store.create({
          type: o.type,
          env: o.env,
          plan: o.plan,
          name: o.name,
          allowedOrigins: o.origin,
        });
        if (o.json) process.stdout.write(`${JSON.stringify({ key, ...record })}\n`);
        else
          process.stdout.write(
            `${key}\n(id ${record.id}, ${record.plan} plan, ${record.type} ${record.env} key; store it now — it is not shown again)\n`,
          );
      }),
  );

keys
  .command('list')
  .description('list keys (never the keys themselves)')
  .option('--json', 'print JSON')
  .action((o: { json?: boolean }) =>
    withKeys(async (store) => {
      const list = await store.list();
      if (o.json) return void process.stdout.write(`${JSON.stringify(list)}\n`);
      for (const k of list)
        process.stdout.write(
          `${k.id}  ${k.prefix}…${k.last4}  ${k.plan.padEnd(10)} ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}${k.name ? `  ${k.name}` : ''}${k.allowedOrigins.length ? `  origins: ${k.allowedOrigins.join(' ')}` : ''}\n`,
        );
    }),
  );

keys
  .command('revoke')
  .description('revoke a key by id (or its last four characters)')
  .argument('<key-id>')
  .action((id: string) =>
    withKeys(async (store) => {
      const record = await store.find(id);
      if (!record || !(await store.revoke(record.id))) {
        process.stderr.write(`No active key ${id}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`Revoked ${record.prefix}…${record.last4}\n`);
    }),
  );

keys
  .command('set-plan')
  .description("change a key's plan")
  .argument('<key-id>')
  .argument('<plan>', 'free, starter, pro or enterprise', plan)
  .action((id: string, newPlan: PlanId) =>
    withKeys(async (store) => {
      const record = await store.find(id);
      if (!record || !(await store.setPlan(record.id, newPlan))) {
        process.stderr.write(`No key ${id}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`${record.prefix}…${record.last4} is now on the ${newPlan} plan\n`);
    }),
  );

keys
  .command('usage')
  .description('requests per key and month (live keys against their quota; test keys apart)')
  .argument('[key-id]', 'one key, by id or its last four characters')
  .option('--month <YYYY-MM>', 'one month (default: all months)')
  .option('--json', 'print JSON')
  .action(async (id: string | undefined, o: { month?: string; json?: boolean }) => {
    if (o.month && !/^\d{4}-(0[1-9]|1[0-2])$/.test(o.month))
      throw new InvalidArgumentError('--month must be YYYY-MM');
    await withKeys(async (store) => {
      const record = id ? await store.find(id) : null;
      if (id && !record) {
        process.stderr.write(`No key ${id}\n`);
        process.exitCode = 1;
        return;
      }
      const filter = { keyId: record?.id, month: o.month };
      const rows =
        store instanceof RedisKeyStore
          ? await readRedisUsage(store, filter)
          : (await readUsage(store as KeyStore, filter)).rows;
      const report = usageReport(await store.list(), rows);
      if (o.json) return void process.stdout.write(`${JSON.stringify(report)}\n`);
      const table = [
        ['month', 'key', 'env', 'plan', 'requests', 'cached', 'errors', 'quota', 'overage'],
        ...report.map((r) => [
          r.month,
          r.key,
          r.env,
          r.plan,
          String(r.requests),
          String(r.cached),
          String(r.errors),
          r.quota === null ? '-' : String(r.quota),
          String(r.overage),
        ]),
      ];
      const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
      for (const row of table)
        process.stdout.write(
          `${row
            .map((c, i) => c.padEnd(widths[i]!))
            .join('  ')
            .trimEnd()}\n`,
        );
      if (report.length === 0) process.stdout.write('No usage recorded yet.\n');
    });
  });

/** Copies the keys of access.db that Redis lacks (the demo key with REDIS_URL set, a move to replicas). */
async function copyKeysToRedis(dataDir: string, redisUrl: string): Promise<{ added: number; of: number }> {
  const local = new KeyStore(dataDir);
  const redis = await RedisKeyStore.open(redisUrl);
  try {
    const records = local.exportRecords();
    return { added: await redis.importRecords(records), of: records.length };
  } finally {
    local.close();
    await redis.close();
  }
}

keys
  .command('copy-to-redis')
  .description('copy the keys of access.db to the Redis of REDIS_URL (moving to several replicas)')
  .action(async () => {
    const config = loadConfig();
    if (!config.REDIS_URL) throw new InvalidArgumentError('set REDIS_URL to the Redis the replicas share');
    const { added, of } = await copyKeysToRedis(config.dataDir, config.REDIS_URL);
    process.stdout.write(
      `Copied ${added} of ${of} keys to Redis (keys already there were left as they are)\n`,
    );
  });

program
  .command('mcp')
  .description('run the MCP server on stdio (key in SHELF_API_KEY, API at SHELF_API_URL)')
  .action(async () => {
    const { runStdioServer } = await import('../mcp/index.js');
    await runStdioServer(loadConfig());
  });

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
