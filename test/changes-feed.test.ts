import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/api/index.js';
import { encodeCursor } from '../src/catalog/index.js';
import { type IngestReport, runIngest } from '../src/ingest/index.js';
import type { ChangeItem } from '../src/schemas/index.js';
import { startTestServer } from './helpers/access-server.js';
import { expectError, expectOk } from './helpers/assertions.js';
import { FIXTURES, type FixtureCatalog, fixtureCatalog, fixtureContent } from './helpers/fixture-catalog.js';
import { get } from './helpers/http.js';
import { waitUntilServed } from './helpers/served-catalog.js';

const fixture = (name: string) => readFileSync(join(FIXTURES, 'feeds', name), 'utf8').trimEnd();

/** Changes as (type, product id) pairs, sorted, for comparing whole sets. */
const pairs = (items: { type: string; product_id: string }[]) =>
  items.map((c) => `${c.type} ${c.product_id}`).sort();

describe('the change feed across publishes (GET /v2/changes)', () => {
  let catalog: FixtureCatalog;
  let server: RunningServer;
  let key: string;
  /** the feed's position right after the first (baseline) publish */
  let atStart: string;
  let run2: IngestReport;
  let run3: IngestReport;
  /** product ids by slug, as each publish served them */
  const ids = new Map<string, string>();

  const changes = async (query: string) => {
    const r = await get(server.url, `/v2/changes${query}`, key);
    return {
      ...r,
      data: expectOk<ChangeItem[]>(r),
      pagination: r.body.pagination as Record<string, unknown>,
    };
  };
  const served = () => waitUntilServed(server, catalog.dataDir);
  const rememberIds = async () => {
    for (let cursor: string | null = null; ; ) {
      const r = await get(
        server.url,
        `/v2/products?include_legacy=true&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        key,
      );
      for (const p of expectOk<{ id: string; slug: string }[]>(r)) ids.set(p.slug, p.id);
      cursor = (r.body.pagination as { nextCursor: string | null }).nextCursor;
      if (!cursor) return;
    }
  };

  beforeAll(async () => {
    catalog = await fixtureCatalog();
    server = await startTestServer(catalog.dataDir);
    // enough requests a minute for the page walks
    key = catalog.key('enterprise');
    const first = await changes('?since=now');
    expect(first.data).toEqual([]);
    atStart = first.pagination.nextCursor as string;
    await rememberIds();

    // the next day: a price cut, a listing dropped, two new products, a product renamed
    const voltmart = join(catalog.dataDir, 'voltmart.csv');
    const northgate = join(catalog.dataDir, 'northgate.tsv');
    const dyson = (id: string, title: string, gtin: string, mpn: string) =>
      `${id},${title},Laser dust detection,https://voltmart.example/${id},,749.99 USD,in stock,Dyson,${gtin},${mpn},Floor Care > Vacuums,,,`;
    const voltmartDay2 = fixture('voltmart.csv')
      .split('\n')
      .filter((line) => !line.startsWith('VM-300'))
      .map((line) => (line.startsWith('VM-100') ? line.replace('949.99 USD', '899.99 USD') : line));
    // days 2 and 3 differ in voltmart's second Dyson listing only
    const writeVoltmart = (vm500: string) =>
      writeFileSync(
        voltmart,
        [
          ...voltmartDay2,
          dyson('VM-400', 'Dyson V15 Detect Cordless Stick Vacuum', '5025155070734', 'SV22'),
          vm500,
        ].join('\n'),
      );
    writeVoltmart(dyson('VM-500', 'Dyson Outsize Absolute Cordless Vacuum', '', 'SV37'));
    writeFileSync(
      northgate,
      fixture('northgate.tsv').replace(
        'Bosch 800 Series SHPM88Z72N Dishwasher Black',
        'Bosch 800 Series SHPM88Z72N Dishwasher in Black Stainless',
      ),
    );
    const feeds = [
      { retailer: 'northgate', path: northgate },
      { retailer: 'voltmart', path: voltmart },
    ];
    run2 = await runIngest({ dataDir: catalog.dataDir, feeds, content: fixtureContent(), day: '2026-11-21' });
    await served();
    await rememberIds();

    // the day after: northgate leaves; voltmart's second Dyson listing is corrected to the
    // first one's identifiers, so the two products become one
    writeVoltmart(dyson('VM-500', 'Dyson V15 Detect Cordless Vacuum', '5025155070734', 'SV22'));
    run3 = await runIngest({
      dataDir: catalog.dataDir,
      feeds: [{ retailer: 'voltmart', path: voltmart }],
      remove: ['northgate'],
      force: true,
      content: fixtureContent(),
      day: '2026-11-22',
    });
    await served();
  });
  afterAll(async () => {
    await server?.close();
    catalog?.cleanup();
  });

  const id = (slug: string) => {
    const found = ids.get(slug);
    if (!found) throw new Error(`no product ${slug} among ${[...ids.keys()].join(', ')}`);
    return found;
  };

  it('records the baseline publish with nothing, then each publish in its report', () => {
    expect(catalog.report.changes).toMatchObject({
      version: 1,
      baseline: true,
      added: 0,
      changed: 0,
      removed: 0,
    });
    expect(run2.changes).toMatchObject({ version: 2, baseline: false, added: 2, changed: 3, removed: 0 });
    expect(run3.changes).toMatchObject({ version: 3, baseline: false, removed: 2 });
  });

  it('lists exactly what the second publish changed: price cut, dropped listing, new products, rename', async () => {
    const page = await changes(`?since=${atStart}&limit=100`);
    const second = page.data.filter((c) => c.version === 2);
    const bosch = id('bosch-800-series-shpm88z75n-dishwasher');
    const washer = id('ge-front-load-washer-gfw550ssnww-5-0-cu-ft');
    const black = [...ids.entries()].find(([slug]) => slug.startsWith('bosch-800-series-shpm88z72n'))?.[1];
    const newDyson = id('dyson-v15-detect-cordless-stick-vacuum');
    const outsize = id('dyson-outsize-absolute-cordless-vacuum');
    expect(pairs(second)).toEqual(
      pairs([
        { type: 'changed', product_id: bosch },
        { type: 'changed', product_id: washer },
        { type: 'changed', product_id: black as string },
        { type: 'added', product_id: newDyson },
        { type: 'added', product_id: outsize },
      ]),
    );
    const of = (productId: string) => second.find((c) => c.product_id === productId);
    // only its price moved: one offer's price
    expect(of(bosch)?.aspects).toEqual(['price']);
    // the dropped listing's offer is gone (the product stays, as its other offer remains)
    expect(of(washer)?.aspects).toContain('offers');
    expect(of(black as string)?.aspects).toContain('name');
    expect(of(black as string)?.name).toBe('Bosch 800 Series SHPM88Z72N Dishwasher in Black Stainless');
    expect(of(newDyson)).toMatchObject({ aspects: [], merged_into: null });
    // the Samsung TV did not change: it is not listed
    expect(second.map((c) => c.slug).some((s) => s.startsWith('samsung'))).toBe(false);
    for (const c of second) expect(c.published_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('gives tombstones with the last id, and where a merged product went', async () => {
    const third = (await changes(`?since=${atStart}&limit=100`)).data.filter((c) => c.version === 3);
    const removed = third.filter((c) => c.type === 'removed');
    const black = [...ids.entries()].find(([slug]) => slug.startsWith('bosch-800-series-shpm88z72n'))?.[1];
    expect(removed).toEqual(
      expect.arrayContaining([
        // its only retailer left: gone, into nothing
        expect.objectContaining({ product_id: black, merged_into: null, aspects: [] }),
        // its listing now carries the other Dyson's identifiers: merged into it
        expect.objectContaining({
          product_id: id('dyson-outsize-absolute-cordless-vacuum'),
          slug: 'dyson-outsize-absolute-cordless-vacuum',
          name: 'Dyson Outsize Absolute Cordless Vacuum',
          merged_into: id('dyson-v15-detect-cordless-stick-vacuum'),
        }),
      ]),
    );
    expect(removed).toHaveLength(2);
    // a tombstone's id is really gone; the product it was merged into is there
    expectError(await get(server.url, `/v2/products/${black}`, key), 404, 'NOT_FOUND');
    expectOk(await get(server.url, `/v2/products/${id('dyson-v15-detect-cordless-stick-vacuum')}`, key));
  });

  it('walks the feed a page at a time to the same list, and the last cursor waits for later publishes', async () => {
    const all = await changes(`?since=${atStart}&limit=100`);
    expect(all.pagination).toMatchObject({ hasMore: false, total: all.data.length, cursor: atStart });
    const walked: ChangeItem[] = [];
    let since = atStart;
    for (let pages = 0; ; pages++) {
      expect(pages).toBeLessThan(50);
      const page = await changes(`?since=${since}&limit=2`);
      expect(page.data.length).toBeLessThanOrEqual(2);
      walked.push(...page.data);
      expect(page.pagination.nextCursor).toEqual(expect.any(String));
      since = page.pagination.nextCursor as string;
      if (!page.pagination.hasMore) break;
    }
    expect(walked).toEqual(all.data);
    // sequence numbers only go up
    expect(walked.map((c) => c.seq)).toEqual([...walked.map((c) => c.seq)].sort((a, b) => a - b));
    // at the end: nothing more yet, and the same position to come back with
    const end = await changes(`?since=${since}`);
    expect(end.data).toEqual([]);
    expect(end.pagination).toMatchObject({ hasMore: false, total: 0, nextCursor: since });
    expect((await changes('?since=now')).pagination.nextCursor).toBe(since);
    // without since: from the oldest change kept (the baseline recorded none)
    expect((await changes('?limit=100')).data).toEqual(all.data);
  });

  it('tells browsers to revalidate the feed (no-cache, a 304 when nothing changed), not to keep it an hour', async () => {
    const end = await get(server.url, '/v2/changes?since=now', key);
    expect(end.status).toBe(200);
    expect(end.headers.get('cache-control')).toBe('private, no-cache');
    const etag = end.headers.get('etag') as string;
    const again = await get(server.url, '/v2/changes?since=now', key, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('private, no-cache');
    // other lists keep their max-age
    expect((await get(server.url, '/v2/brands', key)).headers.get('cache-control')).toMatch(/max-age=\d+/);
  });

  it("include_product=true carries each product's current document, null for a tombstone", async () => {
    const plain = await changes(`?since=${atStart}&limit=100`);
    const full = await changes(`?since=${atStart}&limit=100&include_product=true`);
    expect(full.pagination).toEqual(plain.pagination);
    expect(full.data.map(({ product: _, ...rest }) => rest)).toEqual(plain.data);
    for (const c of full.data) {
      const current = await get(server.url, `/v2/products/${c.product_id}`, key);
      if (current.status === 404) expect(c.product).toBeNull();
      else expect(c.product).toEqual(expectOk(current));
    }
    expect(full.data.filter((c) => c.type === 'removed').every((c) => c.product === null)).toBe(true);
    expect(full.data.some((c) => c.product !== null)).toBe(true);
  });

  it('answers 400 naming since for a cursor that is not a feed position', async () => {
    for (const since of [
      'garbage!',
      'eyJvIjo1fQ',
      encodeCursor({ kind: 'keyset', value: 'x', id: '2.0', offset: 0 }),
    ]) {
      const r = await get(server.url, `/v2/changes?since=${since}`, key);
      expectError(r, 400, 'VALIDATION_ERROR');
      expect(JSON.stringify(r.body)).toContain('since');
    }
    expectError(await get(server.url, '/v2/changes?limit=0', key), 400, 'VALIDATION_ERROR');
    expectError(await get(server.url, '/v2/changes?limit=101', key), 400, 'VALIDATION_ERROR');
  });

  it('answers 410 CURSOR_EXPIRED for a position the log no longer holds, pointing at the export', async () => {
    // a publish older than the log (version 0), and one from a history that was rolled back
    for (const tag of ['0.00000000', '2.00000000']) {
      const since = encodeCursor({ kind: 'keyset', value: 0, id: tag, offset: 0 });
      const r = await get(server.url, `/v2/changes?since=${since}`, key);
      expectError(r, 410, 'CURSOR_EXPIRED');
      expect(r.body).toMatchObject({
        error: { details: { field: 'since', resync: '/v2/exports/latest.jsonl.gz' } },
      });
    }
  });
});
