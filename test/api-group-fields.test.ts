import { describe, expect, it } from 'vitest';
import { expectError, expectOk } from './helpers/assertions.js';
import { get } from './helpers/http.js';
import { servedFixtureCatalog } from './helpers/served-catalog.js';

interface Group {
  id: string;
  name: string;
  variant_count: number;
  products?: Record<string, unknown>[];
}

/** Regression: `fields` was silently ignored on product groups: their products came whole. */
describe('fields narrows the products of product groups', () => {
  const served = servedFixtureCatalog();
  const key = () => served.catalog.key('enterprise');
  const groups = async () => expectOk<Group[]>(await get(served.server.url, '/v2/product-groups', key()));

  it('GET /v2/product-groups/{id}: each product has only the named fields; the group stays whole', async () => {
    const [first] = await groups();
    expect(first).toBeDefined();
    const whole = expectOk<Group>(await get(served.server.url, `/v2/product-groups/${first!.id}`, key()));
    const r = await get(served.server.url, `/v2/product-groups/${first!.id}?fields=name,offers.price`, key());
    const narrowed = expectOk<Group>(r);
    expect(narrowed.products?.length).toBe(whole.products?.length);
    expect(narrowed.products?.length).toBeGreaterThan(1);
    for (const p of narrowed.products ?? []) {
      expect(Object.keys(p)).toEqual(['id', 'name', 'offers']);
      // naming offers asks for them
      const offers = p.offers as Record<string, unknown>[];
      expect(offers.length).toBeGreaterThan(0);
      for (const o of offers) expect(Object.keys(o)).toEqual(['price']);
    }
    const { products: _, ...groupFields } = whole;
    expect(narrowed).toMatchObject(groupFields);
  });

  it('GET /v2/product-groups: fields narrows (and asks for) each group’s products', async () => {
    const r = await get(served.server.url, '/v2/product-groups?fields=current_best_price', key());
    const list = expectOk<Group[]>(r);
    expect(list.length).toBeGreaterThan(0);
    for (const g of list) {
      expect(g.products?.length).toBe(g.variant_count);
      for (const p of g.products ?? []) expect(Object.keys(p)).toEqual(['id', 'current_best_price']);
    }
  });

  it('an unknown field, or fields with another format, is a 400 on fields', async () => {
    const [first] = await groups();
    for (const path of [
      `/v2/product-groups/${first!.id}?fields=name,cost`,
      '/v2/product-groups?fields=name,cost',
      `/v2/product-groups/${first!.id}?fields=name&format=ai`,
    ]) {
      const r = await get(served.server.url, path, key());
      expectError(r, 400, 'VALIDATION_ERROR');
      expect((r.body.error as { details: { field: string }[] }).details.map((d) => d.field)).toEqual([
        'fields',
      ]);
    }
  });
});
