import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
import type { Content } from '../content/index.js';
import type { FeedSource } from './feeds/index.js';
import { slugify } from './normalize/index.js';
import { type IngestReport, runIngest } from './run.js';

/** `sources.json`: the feeds a daily refresh re-ingests. */
export const SourcesFile = Type.Object({
  /** UTC time of day of the daily run, HH:MM (default 04:00) */
  at: Type.Optional(Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' })),
  feeds: Type.Array(
    Type.Object({
      retailer: Type.String({ minLength: 1 }),
      /** a file path (relative to sources.json) or an http(s) URL */
      source: Type.String({ minLength: 1 }),
    }),
    { minItems: 1 },
  ),
});
export type SourcesFile = Static<typeof SourcesFile>;

export class SourcesError extends Error {}

/** Reads and validates a sources file; relative paths are resolved against its folder. */
export function loadSources(file: string): SourcesFile {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SourcesError(`${file}: ${(error as Error).message}`);
  }
  if (!Value.Check(SourcesFile, value)) {
    const first = [...Value.Errors(SourcesFile, value)][0];
    throw new SourcesError(`${file}: ${first?.instancePath || '/'} ${first?.message ?? 'is invalid'}`);
  }
  const base = dirname(resolve(file));
  return {
    ...value,
    feeds: value.feeds.map((f) => ({
      retailer: slugify(f.retailer) || f.retailer,
      source: /^https?:\/\//i.test(f.source) || isAbsolute(f.source) ? f.source : join(base, f.source),
    })),
  };
}

/**
 * Makes every source a local file: URLs are downloaded to a temporary folder first, so a
 * feed is read from disk like any other. A failed download leaves a missing file, which
 * fails that feed alone (its retailer keeps yesterday's offers).
 */
export async function fetchSources(
  sources: SourcesFile,
  dir: string,
  fetchImpl: typeof fetch = fetch,
): Promise<{ feeds: FeedSource[]; errors: string[] }> {
  const feeds: FeedSource[] = [];
  const errors: string[] = [];
  for (const [i, f] of sources.feeds.entries()) {
    if (!/^https?:\/\//i.test(f.source)) {
      feeds.push({ retailer: f.retailer, path: f.source });
      continue;
    }
    const ext = extname(new URL(f.source).pathname) || '.feed';
    const path = join(dir, `${i}-${f.retailer}${ext}`);
    try {
      const response = await fetchImpl(f.source, { signal: AbortSignal.timeout(10 * 60_000) });
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      await pipeline(Readable.fromWeb(response.body as never), createWriteStream(path));
    } catch (error) {
      errors.push(`${f.retailer}: download of ${f.source} failed: ${(error as Error).message}`);
    }
    feeds.push({ retailer: f.retailer, path });
  }
  return { feeds, errors };
}

/** Runs one refresh: download, ingest, publish. */
export async function refreshOnce(options: {
  dataDir: string;
  sourcesFile: string;
  content?: Content;
  day?: string;
  /** passed to {@link runIngest} */
  maxDrop?: number;
  force?: boolean;
  remove?: string[];
  onProgress?: (event: { phase: string; done?: number; total?: number }) => void;
}): Promise<IngestReport & { download_errors: string[] }> {
  const sources = loadSources(options.sourcesFile);
  const dir = mkdtempSync(join(tmpdir(), 'shelf-refresh-'));
  try {
    const { feeds, errors } = await fetchSources(sources, dir);
    const report = await runIngest({
      dataDir: options.dataDir,
      feeds,
      content: options.content,
      day: options.day,
      maxDrop: options.maxDrop,
      force: options.force,
      remove: options.remove,
      onProgress: options.onProgress,
    });
    return { ...report, download_errors: errors };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Milliseconds from `now` to the next `HH:MM` UTC (tomorrow when today's has passed). */
export function msUntil(at: string, now: Date = new Date()): number {
  const [h, m] = at.split(':').map(Number);
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), h, m));
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next.getTime() - now.getTime();
}

/**
 * Re-ingests the configured sources every day at the configured UTC time (and at once with
 * `runNow`). A run never overlaps the previous one. Returns a function that stops the schedule.
 */
export function scheduleDaily(options: {
  dataDir: string;
  sourcesFile: string;
  at?: string;
  runNow?: boolean;
  content?: Content;
  /** the guards' share (see {@link runIngest}); a scheduled run never forces */
  maxDrop?: number;
  onReport: (report: (IngestReport & { download_errors: string[] }) | Error) => void;
}): () => void {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const at = () => options.at ?? loadSources(options.sourcesFile).at ?? '04:00';
  const run = async () => {
    try {
      options.onReport(
        await refreshOnce({
          dataDir: options.dataDir,
          sourcesFile: options.sourcesFile,
          content: options.content,
          maxDrop: options.maxDrop,
        }),
      );
    } catch (error) {
      options.onReport(error as Error);
    }
    if (!stopped) plan();
  };
  const plan = () => {
    timer = setTimeout(() => void run(), msUntil(at()));
  };
  if (options.runNow) void run();
  else plan();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
