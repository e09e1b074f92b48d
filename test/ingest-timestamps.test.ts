import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/api/index.js';
import { runIngest } from '../src/ingest/index.js';
import type { ChangeItem } from '../src/schemas/index.js';
import { startTestServer } from './helpers/access-server.js';
import { expectOk } from './helpers/assertions.js';
import { FIXTURES, type FixtureCatalog, fixtureCatalog, fixtureContent } from './helpers/fixture-catalog.js';
import { get } from './helpers/http.js';
import { waitUntilServed } from './helpers/served-catalog.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Group {
  id: string;
  current_market_value: number | null;
  created_at: string;
  updated_at: string;
}

interface Stamped {
  id: string;
  slug: string;
  created_at: string;
  updated_at: string;
  brand: { slug: string; created_at: string } | null;
}

/**
 * Regression: every publish re-stamped `updated_at` on every product and product group, and
 * `created_at` on every brand, whether or not anything about them changed.
 */
describe('timestamps across publishes', () => {
  let catalog: FixtureCatalog;
  let server: RunningServer;
  let key: string;
  let before: Map<string, Stamped>;
  let after: Map<string, Stamped>;
  let brandsBefore: Map<string, string>;
  let changed: ChangeItem[];
  let groupsFirst: Map<string, Group>;
  let groupsUnchanged: Map<string, Group>;
  let groupsAfter: Map<string, Group>;

  const served = () => waitUntilServed(server, catalog.dataDir);
  const products = async () => {
    const all = new Map<string, Stamped>();
    for (let cursor: string | null = null; ; ) {
      const r = await get(
        server.url,
        `/v2/products?include_legacy=true&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        key,
      );
      for (const p of expectOk<Stamped[]>(r)) all.set(p.id, p);
      cursor = (r.body.pagination as { nextCursor: string | null }).nextCursor;
      if (!cursor) return all;
    }
  };
  const brands = async () =>
    new Map(
      expectOk<{ slug: string; created_at: string }[]>(
        await get(server.url, '/v2/brands?limit=100', key),
      ).map((b) => [b.slug, b.created_at]),
    );

  const groups = async () =>
    new Map(
      expectOk<Group[]>(await get(server.url, '/v2/product-groups?limit=100', key)).map((g) => [g.id, g]),
    );
  const ingest = (voltmart: string, day: string) =>
    runIngest({
      dataDir: catalog.dataDir,
      feeds: [
        { retailer: 'northgate', path: join(FIXTURES, 'feeds/northgate.tsv') },
        { retailer: 'voltmart', path: voltmart },
      ],
      content: fixtureContent(),
      day,
    });

  beforeAll(async () => {
    catalog = await fixtureCatalog();
    server = await startTestServer(catalog.dataDir);
    key = catalog.key('enterprise');
    groupsFirst = await groups();
    // the next day, the same feeds: nothing changes
    await sleep(10);
    await ingest(join(FIXTURES, 'feeds/voltmart.csv'), '2026-11-21');
    await served();
    groupsUnchanged = await groups();
    const start = (await get(server.url, '/v2/changes?since=now', key)).body.pagination as {
      nextCursor: string;
    };
    before = await products();
    brandsBefore = await brands();
    // the day after, the same feeds except one price
    await sleep(10);
    const voltmart = join(catalog.dataDir, 'voltmart.csv');
    writeFileSync(
      voltmart,
      readFileSync(join(FIXTURES, 'feeds/voltmart.csv'), 'utf8').replace('949.99 USD', '899.99 USD'),
    );
    await ingest(voltmart, '2026-11-22');
    await served();
    after = await products();
    groupsAfter = await groups();
    changed = expectOk<ChangeItem[]>(await get(server.url, `/v2/changes?since=${start.nextCursor}`, key));
  });
  afterAll(async () => {
    await server?.close();
    catalog?.cleanup();
  });

  it('moves updated_at only for the product whose price changed; the change feed agrees', () => {
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    expect(changed.map((c) => [c.type, c.aspects])).toEqual([['changed', ['price']]]);
    const [change] = changed as [ChangeItem];
    const moved = [...after.values()].filter((p) => p.updated_at !== before.get(p.id)?.updated_at);
    expect(moved.map((p) => p.id)).toEqual([change.product_id]);
    // the changed product's updated_at is the publish that changed it
    expect(moved[0]?.updated_at).toBe(change.published_at);
    expect(moved[0]!.updated_at > before.get(change.product_id)!.updated_at).toBe(true);
  });

  it('keeps created_at of every product', () => {
    for (const p of after.values()) expect(p.created_at).toBe(before.get(p.id)?.created_at);
  });

  it('keeps the stored single-product document in step (updated_at of GET /v2/products/{id})', async () => {
    for (const p of before.values()) {
      const one = expectOk<Stamped>(await get(server.url, `/v2/products/${p.id}`, key));
      expect(one.updated_at).toBe(after.get(p.id)?.updated_at);
    }
  });

  it('keeps brand.created_at from the first publish that had the brand, embedded and listed', async () => {
    for (const p of after.values()) {
      if (!p.brand) continue;
      expect(p.brand.created_at).toBe(before.get(p.id)?.brand?.created_at);
    }
    expect(Object.fromEntries(await brands())).toEqual(Object.fromEntries(brandsBefore));
    // there were brands to compare
    expect(brandsBefore.size).toBeGreaterThan(0);
  });

  it('keeps updated_at of a product group when a publish changes nothing about it', () => {
    // the fixture has groups to compare
    expect(groupsFirst.size).toBeGreaterThan(0);
    expect(Object.fromEntries(groupsUnchanged)).toEqual(Object.fromEntries(groupsFirst));
  });

  it('moves updated_at of a product group only when its content changed, to that publish', () => {
    const [change] = changed as [ChangeItem];
    expect([...groupsAfter.keys()].sort()).toEqual([...groupsFirst.keys()].sort());
    for (const g of groupsAfter.values()) {
      const was = groupsFirst.get(g.id)!;
      expect(g.created_at).toBe(was.created_at);
      if (g.current_market_value === was.current_market_value) expect(g.updated_at).toBe(was.updated_at);
      else expect(g.updated_at).toBe(change.published_at);
    }
    // the price change lowered a group's market value: one group moved
    expect(
      [...groupsAfter.values()].filter((g) => g.updated_at !== groupsFirst.get(g.id)!.updated_at),
    ).toHaveLength(1);
  });
});
