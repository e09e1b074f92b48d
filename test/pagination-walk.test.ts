import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../src/access/index.js';
import { type RunningServer, startServer } from '../src/api/index.js';
import { loadConfig } from '../src/config.js';
import { ingestDemo } from './helpers/demo-catalog.js';
import { get } from './helpers/http.js';

interface Pagination {
  total: number;
  offset: number;
  hasMore: boolean;
  nextCursor: string | null;
  prevCursor: string | null;
}

/** Every cursor-paginated GET list, with the orders it can be read in. */
const LISTS = [
  '/v2/products?',
  '/v2/products?sort=-name&',
  '/v2/products?sort=price&',
  '/v2/products?sort=-quality_score&include_legacy=true&',
  '/v2/products?q=dishwasher&',
  '/v2/products?q=stainless&sort=-price&',
  '/v2/product-groups?',
  '/v2/product-groups?sort=-variant_count&',
  '/v2/product-types?',
  '/v2/product-types?sort=-name&',
  '/v2/brands?',
  '/v2/brands?sort=-name&',
  '/v2/knowledge/maintenance_schedule?',
  '/v2/knowledge/error_code?',
];

/** Walking a list forward with nextCursor and back with prevCursor, on a real listening server. */
describe('cursor pagination on every list', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shelf-pagination-'));
  const dataDir = join(dir, 'data');
  let server: RunningServer;
  // the walks send thousands of requests: spread over keys so that no per-minute limit binds
  const keys: string[] = [];
  let calls = 0;
  const key = () => keys[calls++ % keys.length];

  beforeAll(async () => {
    // a small demo catalog: many brands, groups, product types and knowledge entries
    await ingestDemo({ feedsDir: join(dir, 'feeds'), dataDir, products: 300, seed: 5, historyDays: 2 });
    const store = new KeyStore(dataDir);
    for (let i = 0; i < 10; i++)
      keys.push(store.create({ plan: 'enterprise', type: 'secret', env: 'live' }).key);
    store.close();
    server = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', SHELF_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    );
  }, 240_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const page = async (list: string, limit: number, cursor: string | null) => {
    const res = await get(
      server.url,
      `${list}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      key(),
    );
    expect(res.status, `${list} ${cursor}`).toBe(200);
    return {
      ids: (res.body.data as { id: string }[]).map((d) => d.id),
      pagination: res.body.pagination as Pagination,
    };
  };

  it('the prevCursor every list returns is accepted, and walking back visits the pages walked forward', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...LISTS), fc.integer({ min: 5, max: 40 }), async (list, limit) => {
        const forward = [await page(list, limit, null)];
        while (forward.at(-1)!.pagination.nextCursor && forward.length < 100)
          forward.push(await page(list, limit, forward.at(-1)!.pagination.nextCursor));
        const last = forward.at(-1)!;
        // the whole list, once, in order
        const all = forward.flatMap((p) => p.ids);
        expect(new Set(all).size).toBe(all.length);
        if (!last.pagination.nextCursor) expect(all.length).toBe(forward[0]!.pagination.total);
        // back from the last page to the first
        let at = last;
        for (let i = forward.length - 2; i >= 0; i--) {
          expect(at.pagination.prevCursor, `${list} page ${i + 2}`).not.toBeNull();
          at = await page(list, limit, at.pagination.prevCursor);
          expect(at.ids, `${list} page ${i + 1}`).toEqual(forward[i]!.ids);
          expect(at.pagination.offset).toBe(forward[i]!.pagination.offset);
        }
        expect(at.pagination.prevCursor).toBeNull();
      }),
      { numRuns: 15 },
    );
  }, 180_000);

  it('regression: the prevCursor of /v2/brands, /v2/product-groups and /v2/product-types is not refused', async () => {
    for (const list of ['/v2/brands?', '/v2/product-groups?', '/v2/product-types?']) {
      const first = await page(list, 1, null);
      const second = await page(list, 1, first.pagination.nextCursor);
      expect(second.pagination.prevCursor, list).not.toBeNull();
      expect((await page(list, 1, second.pagination.prevCursor)).ids, list).toEqual(first.ids);
    }
  });

  it('a cursor that no page returned is a 400 naming the field, on every list', async () => {
    for (const list of LISTS) {
      const res = await get(server.url, `${list}cursor=bm90LWEtY3Vyc29y`, key());
      expect(res.status, list).toBe(400);
      expect((res.body as { error: { details: { field: string }[] } }).error.details[0]?.field).toBe(
        'cursor',
      );
    }
  });

  it('regression: name sorts are case-insensitive, accent-folded and numeric (ecobee, eero, iRobot sorted among the rest)', async () => {
    const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
    for (const list of ['/v2/brands?', '/v2/product-types?']) {
      for (const sort of ['name', '-name']) {
        const names: string[] = [];
        let cursor: string | null = null;
        do {
          const res = await get(
            server.url,
            `${list}sort=${sort}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
            key(),
          );
          names.push(...(res.body.data as { name: string }[]).map((d) => d.name));
          cursor = (res.body.pagination as Pagination).nextCursor;
        } while (cursor);
        const expected = [...names].sort((a, b) => collator.compare(a, b));
        if (sort === '-name') expected.reverse();
        expect(names, `${list} ${sort}`).toEqual(expected);
      }
    }
  });
});
