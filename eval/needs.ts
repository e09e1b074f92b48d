/**
 * Need-query accuracy (part of `npm run eval:search`): queries written the way people talk,
 * never naming the product type (`eval/needs/queries.tsv`: `query<TAB>type-slug,type-slug…`,
 * the slugs being every acceptable type). Each query runs through the API's code path on the
 * demo catalog in keyword, semantic and hybrid mode; a query is right at 1 when the first
 * product's type is acceptable, right at 5 when one of the first five products' is.
 *
 * The set is split in two by a hash of the query text (about a quarter held out): the
 * held-out part is never looked at while tuning, so the gap between the parts shows how much
 * of the figure is fitted to the queries.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../src/catalog/index.js';
import { advancedSearch, createSearchEngine, type SearchEngine } from '../src/search/index.js';
import { hash32 } from '../src/search/text.js';

export const NEED_MODES = ['keyword', 'semantic', 'hybrid'] as const;
export type NeedMode = (typeof NEED_MODES)[number];

export interface NeedQuery {
  query: string;
  types: string[];
  split: 'dev' | 'held-out';
}

export interface NeedScores {
  queries: number;
  top1: number;
  top5: number;
}

export type NeedReport = Record<'all' | 'dev' | 'held-out', Record<NeedMode, NeedScores>>;

/** The need queries of a TSV file (default: the repository's own set). */
export function readNeedQueries(file = join(import.meta.dirname, 'needs', 'queries.tsv')): NeedQuery[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line.trim())
    .map((line) => {
      const [query, types] = line.split('\t');
      return {
        query: query!.trim(),
        types: (types ?? '').split(',').map((t) => t.trim()),
        // a fixed quarter of the set, chosen by the text alone
        split: hash32(query!.trim(), 11) % 4 === 0 ? ('held-out' as const) : ('dev' as const),
      };
    });
}

export interface NeedMiss {
  mode: NeedMode;
  query: string;
  expected: string[];
  got: string[];
}

/** Runs every query in every mode; `misses` collects the top-1 misses (for --verbose). */
export async function evalNeeds(
  db: Db,
  queries: NeedQuery[],
  engine: SearchEngine = createSearchEngine(),
  misses: NeedMiss[] = [],
): Promise<NeedReport> {
  const empty = (): Record<NeedMode, NeedScores> =>
    Object.fromEntries(NEED_MODES.map((m) => [m, { queries: 0, top1: 0, top5: 0 }])) as Record<
      NeedMode,
      NeedScores
    >;
  const report: NeedReport = { all: empty(), dev: empty(), 'held-out': empty() };
  for (const q of queries) {
    for (const mode of NEED_MODES) {
      const res = await advancedSearch(db, engine, { query: q.query, mode, pagination: { limit: 5 } });
      const types = res.products.map((p) => p.product_type?.slug ?? '');
      const ok1 = types.length > 0 && q.types.includes(types[0]!);
      const ok5 = types.some((t) => q.types.includes(t));
      if (!ok1) misses.push({ mode, query: q.query, expected: q.types, got: types });
      for (const part of ['all', q.split] as const) {
        const s = report[part][mode];
        s.queries++;
        if (ok1) s.top1++;
        if (ok5) s.top5++;
      }
    }
  }
  for (const part of Object.values(report))
    for (const s of Object.values(part)) {
      s.top1 = Math.round((s.top1 / Math.max(1, s.queries)) * 1000) / 1000;
      s.top5 = Math.round((s.top5 / Math.max(1, s.queries)) * 1000) / 1000;
    }
  return report;
}

export function formatNeedReport(report: NeedReport): string[] {
  const lines = ['  part       n    mode      top-1   top-5'];
  for (const part of ['all', 'dev', 'held-out'] as const)
    for (const mode of NEED_MODES) {
      const s = report[part][mode];
      lines.push(
        `  ${part.padEnd(9)} ${String(s.queries).padStart(4)}  ${mode.padEnd(9)} ${s.top1.toFixed(3)}   ${s.top5.toFixed(3)}`,
      );
    }
  return lines;
}
