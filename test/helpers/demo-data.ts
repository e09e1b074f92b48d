import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentSnapshotPath, openReadOnly } from '../../src/catalog/index.js';
import { type Content, loadContent } from '../../src/content/index.js';
import { generateDemo } from '../../src/demo/index.js';
import type { FeedSource } from '../../src/ingest/index.js';
import { runIngest } from '../../src/ingest/index.js';

export interface SmallDemo {
  root: string;
  content: Content;
  feeds: FeedSource[];
  /** the data dir with all feeds ingested on 2026-11-20 */
  base: string;
  /** a fresh data dir holding a copy of the base catalog */
  clone(): string;
  cleanup(): void;
}

/** The demo feeds at a small size, ingested once; tests clone the published catalog. */
export async function smallDemo(products = 300, seed = 7): Promise<SmallDemo> {
  const root = mkdtempSync(join(tmpdir(), 'shelf-demo-'));
  const content = loadContent();
  const demo = await generateDemo({
    outDir: join(root, 'feeds'),
    content,
    products,
    seed,
    endDay: '2026-11-20',
    historyDays: 0,
  });
  const base = join(root, 'base');
  await runIngest({ dataDir: base, feeds: demo.feeds, content, day: '2026-11-20' });
  let n = 0;
  return {
    root,
    content,
    feeds: demo.feeds,
    base,
    clone() {
      const dir = join(root, `clone-${n++}`);
      cpSync(join(base, 'catalog'), join(dir, 'catalog'), { recursive: true });
      return dir;
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A TSV feed rewritten row by row (header kept): `edit` returns the new cells or null to drop. */
export function rewriteTsv(
  from: string,
  to: string,
  edit: (cells: Record<string, string>, index: number) => Record<string, string> | null,
): void {
  const [header, ...rows] = readFileSync(from, 'utf8').trimEnd().split('\n');
  const names = (header ?? '').split('\t');
  const out = [header];
  rows.forEach((row, i) => {
    const cells = Object.fromEntries(row.split('\t').map((v, j) => [names[j], v]));
    const next = edit(cells, i);
    if (next) out.push(names.map((name) => next[name ?? ''] ?? '').join('\t'));
  });
  writeFileSync(to, `${out.join('\n')}\n`);
}

export interface OfferRow {
  id: string;
  product_id: string;
  retailer: string;
  retailer_item_id: string;
  price: number | null;
  in_stock: number;
}

/** Reads from the published catalog of a data dir. */
export function published<T>(dataDir: string, fn: (db: ReturnType<typeof openReadOnly>) => T): T {
  const path = currentSnapshotPath(dataDir);
  if (!path) throw new Error('nothing published');
  const db = openReadOnly(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Every offer of the published catalog with its retailer's slug, in id order. */
export const offersOf = (dataDir: string): OfferRow[] =>
  published(
    dataDir,
    (db) =>
      db
        .prepare(
          `SELECT o.id, o.product_id, r.slug AS retailer, o.retailer_item_id, o.price, o.in_stock
           FROM offers o JOIN retailers r ON r.id = o.retailer_id ORDER BY o.id`,
        )
        .all() as OfferRow[],
  );

export const visibleProducts = (dataDir: string): number =>
  published(
    dataDir,
    (db) => db.prepare('SELECT count(*) FROM products WHERE data_tier < 3').pluck().get() as number,
  );
