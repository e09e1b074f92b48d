import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../src/access/index.js';
import { type RunningServer, startServer } from '../src/api/index.js';
import { loadConfig } from '../src/config.js';
import { runIngest } from '../src/ingest/index.js';
import type { PriceIntelligence, Product } from '../src/schemas/index.js';
import { expectError, expectOk } from './helpers/assertions.js';
import {
  type FixtureCatalog,
  fixtureCatalog,
  fixtureContent,
  fixtureFeeds,
} from './helpers/fixture-catalog.js';
import { get } from './helpers/http.js';

const CHROMIUM = process.env.SHELF_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = resolve(import.meta.dirname, 'artifacts');

/** The explorer page and the embeddable price chart, against a listening server on the fixture catalog. */
describe('explore: price chart image, verdict and the /explore page', () => {
  let catalog: FixtureCatalog;
  let server: RunningServer;
  let key: string;
  let productId: string;
  let retailers: number;

  beforeAll(async () => {
    catalog = await fixtureCatalog();
    // half a year of imported history for the dishwasher both fixture retailers sell, so the
    // chart has steps and a low, a high and an average that differ
    const history = join(catalog.dataDir, 'history.csv');
    const day = (back: number) =>
      new Date(Date.parse('2026-11-20') - back * 86_400_000).toISOString().slice(0, 10);
    writeFileSync(
      history,
      [
        'retailer,id,date,price,sale_price,availability',
        `voltmart,VM-100,${day(200)},1049.99,,in stock`,
        `voltmart,VM-100,${day(120)},899.99,,in stock`,
        `voltmart,VM-100,${day(60)},979.99,,in stock`,
        `northgate,NG-1,${day(200)},1099.00,,in stock`,
        `northgate,NG-1,${day(90)},1049.00,,in stock`,
      ].join('\n'),
    );
    const report = await runIngest({
      dataDir: catalog.dataDir,
      feeds: fixtureFeeds(),
      content: fixtureContent(),
      day: '2026-11-20',
      history: [history],
    });
    expect(report.published).toBe(true);
    key = catalog.key('pro');
    server = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', SHELF_DATA_DIR: catalog.dataDir, LOG_LEVEL: 'silent' }),
    );
    // the product sold by the most retailers: its chart has the most lines
    const list = expectOk<Product[]>(
      await get(server.url, '/v2/products?limit=100&include_offers=true', key),
    );
    const top = [...list].sort((a, b) => (b.offers?.length ?? 0) - (a.offers?.length ?? 0))[0] as Product;
    productId = top.id;
    retailers = new Set(top.offers?.map((o) => o.retailer_name)).size;
  });
  afterAll(async () => {
    await server?.close();
    catalog?.cleanup();
  });

  it('price intelligence carries a plain-words verdict', async () => {
    const data = expectOk<PriceIntelligence>(
      await get(server.url, `/v2/products/${productId}/prices?days=365`, key),
    );
    // today's best, 949.99: above the 899.99 of 61-120 days ago, below the 30-day average
    expect(data.verdict).toMatchObject({
      kind: 'below_average',
      window_low: 899.99,
      window_high: 1049.99,
      near_low: false,
    });
    expect(data.verdict.text).toMatch(/^\d+ % below its 30-day average$/);
    expect(data.verdict.window_days).toBe(data.history.length);
    expect(data.verdict.window_low).toBe(Math.min(...data.history.map((p) => p.price)));
  });

  it('GET prices.svg answers an SVG with one line per retailer plus the best price, cached on repeat', async () => {
    const path = `/v2/products/${productId}/prices.svg?days=90&width=640&height=300`;
    const first = await get(server.url, path, key);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const svg = String(first.body);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="640" height="300"/);
    expect(svg.match(/class="line retailer"/g)).toHaveLength(retailers);
    expect(svg.match(/class="line best"/g)).toHaveLength(1);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await get(server.url, path, key);
    expect(again.status).toBe(200);
    expect(again.body).toBe(svg);
    const notModified = await get(server.url, path, key, { 'if-none-match': String(etag) });
    expect(notModified.status).toBe(304);
  });

  it('prices.svg refuses out-of-bounds sizes and windows with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['width=10', 'width'],
      ['height=99999', 'height'],
      ['days=0', 'days'],
      ['days=abc', 'days'],
    ] as const) {
      const res = await get(server.url, `/v2/products/${productId}/prices.svg?${query}`, key);
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(JSON.stringify(res.body)).toContain(field);
    }
    expectError(await get(server.url, `/v2/products/${productId}/prices.svg`, null), 401, 'AUTH_REQUIRED');
    expectError(
      await get(server.url, '/v2/products/00000000-0000-4000-8000-000000000000/prices.svg', key),
      404,
      'NOT_FOUND',
    );
  });

  it('a publishable key in ?api_key= works for an <img crossorigin> from its Origin only', async () => {
    const store = new KeyStore(catalog.dataDir);
    const publishable = store.create({
      plan: 'pro',
      type: 'publishable',
      env: 'live',
      allowedOrigins: ['https://shop.example'],
    }).key;
    store.close();
    const path = `/v2/products/${productId}/prices.svg?days=30&api_key=${publishable}`;
    const ok = await get(server.url, path, null, { origin: 'https://shop.example' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expectError(
      await get(server.url, path, null, { origin: 'https://elsewhere.example' }),
      403,
      'KEY_NOT_ALLOWED',
    );
    expectError(await get(server.url, path, null), 403, 'KEY_NOT_ALLOWED');
  });

  it('serves /explore and its assets without a key, with a same-origin CSP', async () => {
    for (const [path, type] of [
      ['/explore', 'text/html'],
      ['/explore/explore.js', 'text/javascript'],
      ['/explore/explore.css', 'text/css'],
    ] as const) {
      const res = await fetch(new URL(path, server.url));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain(type);
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
  });

  const hasChromium = existsSync(CHROMIUM);
  if (!hasChromium)
    console.warn(
      `explore browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set SHELF_CHROMIUM)`,
    );

  it.skipIf(!hasChromium)(
    'in Chromium: search, apply a facet, open a product, switch the chart to 365 days',
    async () => {
      const { chromium } = await import('playwright-core');
      mkdirSync(ARTIFACTS, { recursive: true });
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
        const failures: string[] = [];
        page.on('pageerror', (error) => failures.push(error.message));
        await page.goto(`${server.url}/explore#key=${key}`);
        // the key left the URL for localStorage
        await expect.poll(() => page.evaluate('location.hash')).not.toContain('key=');
        expect(await page.evaluate("localStorage.getItem('shelf.explore.key')")).toBe(key);

        // semantic: the query read as constraints, shown as chips; removing one keeps the others
        await page.check('input[name="mode"][value="semantic"]');
        await page.fill('#q', 'bosch dishwasher under $1000');
        const understood = page.locator('#chips .chip[data-kind="understood"]');
        await expect.poll(() => understood.count()).toBeGreaterThanOrEqual(3);
        const chipTexts = await understood.allTextContents();
        expect(chipTexts.join(' ')).toMatch(/brand: Bosch/);
        expect(chipTexts.join(' ')).toMatch(/price: under \$1,000\.00/);
        await page.screenshot({ path: resolve(ARTIFACTS, 'explore-semantic-chips.png'), fullPage: true });
        await page.locator('#chips .chip', { hasText: 'price' }).getByRole('button').click();
        await expect
          .poll(() => page.locator('#chips .chip[data-kind="pinned"]').count())
          .toBe(chipTexts.length - 1);
        expect(await page.locator('#chips').textContent()).not.toContain('price');
        expect(await page.inputValue('#q')).not.toContain('1000');

        await page.check('input[name="mode"][value="keyword"]');
        const searched = (query: string) =>
          page.waitForResponse(
            (r) =>
              r.url().endsWith('/v2/products/search') &&
              (r.request().postDataJSON() as { query?: string; filters?: unknown })?.query === query,
          );
        const answered = searched('dishwasher');
        await page.fill('#q', 'dishwasher');
        await answered;
        await expect.poll(() => page.locator('#result-count').textContent()).toMatch(/\d+ products?/);
        const before = await page.locator('#results li').count();
        expect(before).toBeGreaterThan(0);
        // a facet value that narrows the result: fewer products than the search found
        await page.locator('[data-facet] button').first().waitFor();
        const buttons = page.locator('[data-facet] button');
        const counts = await buttons.locator('.count').allTextContents();
        const pick = counts.findIndex((c) => Number(c.replace(/\D/g, '')) < before);
        expect(pick).toBeGreaterThanOrEqual(0);
        const facetCount = Number(counts[pick]?.replace(/\D/g, ''));
        const facet = buttons.nth(pick);
        await facet.focus();
        await page.keyboard.press('Enter');
        await expect.poll(() => page.locator('#results li').count()).toBe(Math.min(facetCount, 20));
        await expect
          .poll(() => page.locator('#result-count').textContent())
          .toMatch(new RegExp(`^${facetCount} product`));
        const selected = page.locator('[data-facet] button[aria-pressed="true"]');
        expect(await selected.count()).toBe(1);
        expect(await page.locator('#search-request pre.curl').textContent()).toContain('/v2/products/search');
        await page.screenshot({ path: resolve(ARTIFACTS, 'explore-search.png'), fullPage: true });

        // spec facets: once a type is chosen, its specs are facet groups with counts
        await selected.focus();
        await page.keyboard.press('Enter');
        await expect.poll(() => page.locator('#results li').count()).toBe(before);
        const typeButton = page.locator('[data-facet="product_type"] button', { hasText: 'Dishwasher' });
        await typeButton.focus();
        await page.keyboard.press('Enter');
        await expect.poll(() => typeButton.getAttribute('aria-pressed')).toBe('true');
        const typed = Number((await page.locator('#result-count').textContent())?.replace(/\D/g, ''));
        const specButtons = page.locator('[data-facet^="spec:"] button');
        await expect.poll(() => specButtons.count()).toBeGreaterThan(0);
        const specCounts = (await specButtons.locator('.count').allTextContents()).map((c) =>
          Number(c.replace(/\D/g, '')),
        );
        for (const c of specCounts) expect(c).toBeGreaterThan(0);
        // the value that narrows the most (fewer products than the type has, if any does)
        const narrowest = specCounts.indexOf(Math.min(...specCounts));
        const specCount = specCounts[narrowest] as number;
        expect(specCount).toBeLessThan(typed);
        const specButton = specButtons.nth(narrowest);
        const specKey = String(
          await specButton.evaluate((b) => b.closest('[data-facet]')?.getAttribute('data-facet')),
        ).slice(5);
        const specFilter = searched('dishwasher');
        await specButton.focus();
        await page.keyboard.press('Enter');
        const specBody = (await specFilter).request().postDataJSON() as {
          filters: { specs: Record<string, string[]> };
        };
        const wanted = specBody.filters.specs[specKey]?.[0];
        expect(wanted).toBeDefined();
        await expect
          .poll(() => page.locator('#result-count').textContent())
          .toMatch(new RegExp(`^${specCount} product`));
        await expect.poll(() => page.locator('#chips .chip[data-kind="facet"]').count()).toBe(1);
        // every product shown has that spec value, by the API
        const shown = await page
          .locator('#results a[data-product]')
          .evaluateAll((as) => as.map((a) => a.getAttribute('data-product')));
        expect(shown).toHaveLength(specCount);
        for (const id of shown) {
          const attrs = expectOk<{ attributes: { key: string; value: string }[] }>(
            await get(server.url, `/v2/products/${id}/attributes`, key),
          ).attributes;
          expect(attrs.filter((a) => a.key === specKey).map((a) => String(a.value).toLowerCase())).toContain(
            String(wanted).toLowerCase(),
          );
        }
        await page.screenshot({ path: resolve(ARTIFACTS, 'explore-spec-facet.png'), fullPage: true });
        // the chip removes the spec filter again
        await page.locator('#chips .chip[data-kind="facet"] button').click();
        await expect
          .poll(() => page.locator('#result-count').textContent())
          .toMatch(new RegExp(`^${typed} product`));
        expect(await page.locator('[data-facet^="spec:"] button[aria-pressed="true"]').count()).toBe(0);

        // open the product with the most retailers, by keyboard
        await page.evaluate(`location.hash = 'product=${productId}'`);
        await page.locator('#chart svg').waitFor();
        await page.locator('#offers tbody tr').first().waitFor();
        expect(await page.locator('#offers tbody tr').count()).toBe(retailers);
        await page.locator('button[data-days="365"]').focus();
        await page.keyboard.press('Enter');
        await expect.poll(() => page.locator('#chart').getAttribute('data-days')).toBe('365');
        expect(await page.locator('button[data-days="365"]').getAttribute('aria-pressed')).toBe('true');
        expect(await page.locator('#chart svg path.line.retailer').count()).toBe(retailers);
        expect(await page.locator('#chart svg path.line.best').count()).toBe(1);
        expect((await page.locator('#verdict').textContent())?.length).toBeGreaterThan(0);
        await page.locator('#knowledge').waitFor();
        await page.screenshot({ path: resolve(ARTIFACTS, 'explore-product.png'), fullPage: true });

        // a phone width: no horizontal scrolling
        await page.setViewportSize({ width: 375, height: 800 });
        // the chart is redrawn at the narrower width, not scaled down
        await expect
          .poll(async () => Number(await page.locator('#chart').getAttribute('data-width')))
          .toBeLessThan(400);
        expect(await page.locator('#chart svg path.line.retailer').count()).toBe(retailers);
        const overflow = Number(
          await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'),
        );
        expect(overflow).toBeLessThanOrEqual(1);
        await page.screenshot({ path: resolve(ARTIFACTS, 'explore-product-phone.png'), fullPage: true });
        expect(failures).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    120_000,
  );
});
