import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ScratchFile } from '../src/ingest/build/scratch.js';
import { type FeedSource, type IngestReport, runIngest } from '../src/ingest/index.js';
import { published, type SmallDemo, smallDemo } from './helpers/demo-data.js';

/** Tables that hold the run's random id (or statistics sampled from pages): not compared. */
const RUN_TABLES = new Set(['meta', 'ingest_runs', 'change_publishes', 'sqlite_stat1', 'sqlite_stat4']);

/** Every table's rows, hashed in rowid order. */
const tableHashes = (dataDir: string): Record<string, string> =>
  published(dataDir, (db) => {
    const names = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
        name: string;
      }[]
    )
      .map((t) => t.name)
      .filter((name) => !RUN_TABLES.has(name));
    return Object.fromEntries(
      names.map((name) => {
        const hash = createHash('sha1');
        for (const row of db.prepare(`SELECT * FROM "${name}"`).raw().iterate())
          hash.update(
            JSON.stringify(row, (_k, v) =>
              v instanceof Uint8Array
                ? Buffer.from(v).toString('base64')
                : typeof v === 'bigint'
                  ? `${v}`
                  : v,
            ),
          );
        return [name, hash.digest('hex')];
      }),
    );
  });

const scratchFiles = (dataDir: string) =>
  existsSync(join(dataDir, 'catalog'))
    ? readdirSync(join(dataDir, 'catalog')).filter((f) => f.includes('scratch'))
    : [];

/**
 * A large run keeps its listings and assembled products in a scratch file between phases
 * (issue 20); what it publishes must not depend on that. Both runs here see the same clock.
 */
describe('an ingest that spills its listings to disk', () => {
  let demo: SmallDemo;
  beforeAll(async () => {
    demo = await smallDemo(300);
  }, 120_000);
  afterAll(() => demo?.cleanup());

  /** `spillAt` of the second run, from the first run's report (default 0: spill from the first listing read) */
  const ingestBoth = async (
    feeds: FeedSource[],
    day: string,
    from: () => string,
    spillAt: (memory: IngestReport) => number = () => 0,
  ) => {
    const dirs = { memory: from(), disk: from() };
    vi.useFakeTimers({ toFake: ['Date'] });
    // the scratch files a run opened on disk (a run in memory opens one without a path)
    const tables = vi.spyOn(ScratchFile.prototype, 'table');
    try {
      vi.setSystemTime(new Date(`${day}T06:00:00Z`));
      const memory = await runIngest({ dataDir: dirs.memory, feeds, content: demo.content, day });
      const spilledInMemoryRun = tables.mock.contexts.some((scratch) => (scratch as ScratchFile).onDisk);
      const disk = await runIngest({
        dataDir: dirs.disk,
        feeds,
        content: demo.content,
        day,
        spillAt: spillAt(memory),
      });
      expect(spilledInMemoryRun).toBe(false);
      expect(tables.mock.contexts.some((scratch) => (scratch as ScratchFile).onDisk)).toBe(true);
      return { dirs, memory, disk };
    } finally {
      tables.mockRestore();
      vi.useRealTimers();
    }
  };
  /** listings the run read from its feeds */
  const readCount = (report: IngestReport) => report.feeds.reduce((n, f) => n + f.listings, 0);

  it('publishes the same snapshot as one that keeps them in memory, and leaves no scratch file', async () => {
    let n = 0;
    const { dirs, memory, disk } = await ingestBoth(demo.feeds, '2026-11-21', () =>
      join(demo.root, `fresh-${n++}`),
    );
    expect(disk.published).toBe(true);
    expect(disk.products).toBe(memory.products);
    expect(disk.offers).toBe(memory.offers);
    expect(tableHashes(dirs.disk)).toEqual(tableHashes(dirs.memory));
    expect(scratchFiles(dirs.disk)).toEqual([]);
  }, 120_000);

  it('publishes the same snapshot when it starts spilling in the middle of the read', async () => {
    // the first feeds are read into memory, then moved to disk with every feed read after them
    let n = 0;
    const { dirs, memory, disk } = await ingestBoth(
      demo.feeds,
      '2026-11-21',
      () => join(demo.root, `middle-${n++}`),
      (report) => Math.floor(readCount(report) / 2),
    );
    expect(disk.products).toBe(memory.products);
    expect(tableHashes(dirs.disk)).toEqual(tableHashes(dirs.memory));
    expect(scratchFiles(dirs.disk)).toEqual([]);
  }, 120_000);

  it('publishes the same snapshot when a worker thread computes part of the resolver facts', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-21T06:00:00Z'));
      const run = (dataDir: string, factsWorkerAt?: number) =>
        runIngest({ dataDir, feeds: demo.feeds, content: demo.content, day: '2026-11-21', factsWorkerAt });
      const here = join(demo.root, 'facts-here');
      const worker = join(demo.root, 'facts-worker');
      await run(here, Number.MAX_SAFE_INTEGER);
      const report = await run(worker, 0);
      expect(report.published).toBe(true);
      expect(tableHashes(worker)).toEqual(tableHashes(here));
    } finally {
      vi.useRealTimers();
    }
  }, 120_000);

  it('gives the same next-day catalog over a previous one, with feeds carried and dropped', async () => {
    // two retailers' feeds missing: their listings are carried over from the previous catalog
    const { dirs, disk } = await ingestBoth(demo.feeds.slice(2), '2026-11-21', () => demo.clone());
    expect(disk.kept.length).toBe(2);
    expect(tableHashes(dirs.disk)).toEqual(tableHashes(dirs.memory));
    expect(scratchFiles(dirs.disk)).toEqual([]);
  }, 120_000);

  it('spills when the carried listings make the run large, though its read did not', async () => {
    // one listing more than the feeds give: the read stays in memory, the carried ones tip it
    const { dirs, disk } = await ingestBoth(
      demo.feeds.slice(2),
      '2026-11-21',
      () => demo.clone(),
      (report) => readCount(report) + 1,
    );
    expect(disk.kept.length).toBe(2);
    expect(tableHashes(dirs.disk)).toEqual(tableHashes(dirs.memory));
    expect(scratchFiles(dirs.disk)).toEqual([]);
  }, 120_000);
});
