import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContent } from '../content/index.js';
import { parseGtin } from '../ingest/normalize/index.js';
import { generateDemo } from './generate.js';

describe('generateDemo', () => {
  const content = loadContent();
  const dirs: string[] = [];
  const run = async (seed = 7) => {
    const outDir = mkdtempSync(join(tmpdir(), 'shelf-demo-'));
    dirs.push(outDir);
    return generateDemo({ outDir, content, products: 600, seed, endDay: '2026-11-20', historyDays: 60 });
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('writes one feed per active retailer, the same files for the same seed', async () => {
    const [a, b] = [await run(), await run()];
    expect(a.feeds.length).toBe(content.retailers.filter((r) => r.is_active !== false).length);
    expect(a.products).toBeGreaterThanOrEqual(600);
    for (const [i, feed] of a.feeds.entries())
      expect(readFileSync(feed.path, 'utf8')).toBe(readFileSync(b.feeds[i]!.path, 'utf8'));
  });

  it('has ground truth for every listing, several retailers per product, and realistic noise', async () => {
    const demo = await run(11);
    const truth = readFileSync(demo.truthPath, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    expect(truth).toHaveLength(demo.listings);
    const perProduct = new Map<string, number>();
    for (const [, , product] of truth) perProduct.set(product!, (perProduct.get(product!) ?? 0) + 1);
    expect([...perProduct.values()].some((n) => n >= 3)).toBe(true);
    const rows = demo.feeds.flatMap((f) => readFileSync(f.path, 'utf8').trim().split('\n').slice(1));
    const gtins = rows.map((r) => r.split(r.includes('\t') ? '\t' : ',')[9] ?? '');
    const bad = gtins.filter((g) => g !== '' && !parseGtin(g).ok).length;
    const missing = gtins.filter((g) => g === '').length;
    expect(missing / rows.length).toBeGreaterThan(0.02);
    expect(bad).toBeGreaterThan(0);
  });

  it('writes a price history whose last price matches the feed', async () => {
    const demo = await run(5);
    const history = readFileSync(demo.historyPath!, 'utf8').trim().split('\n').slice(1);
    expect(history.length).toBeGreaterThan(demo.listings);
    const days = history.map((l) => l.split(',')[2]!).sort();
    expect(days[0]! >= '2026-09-22').toBe(true);
    expect(days.at(-1)! <= '2026-11-20').toBe(true);
    const lastPrice = new Map<string, string>();
    for (const line of history) {
      const [, id, , price] = line.split(',');
      lastPrice.set(id!, price!);
    }
    const feed = readFileSync(demo.feeds.find((f) => f.path.endsWith('.tsv'))!.path, 'utf8')
      .trim()
      .split('\n')
      .slice(1);
    let compared = 0;
    for (const row of feed) {
      const cells = row.split('\t');
      if (!cells[5]) continue; // discontinued: no current price
      expect(cells[5]).toBe(`${lastPrice.get(cells[0]!)} USD`);
      compared++;
    }
    expect(compared).toBeGreaterThan(10);
  });
});
