import { describe, expect, it } from 'vitest';
import { carriedGroups } from './carry.js';
import { buildCorpus } from './features.js';
import { type ResolveRecord, resolveListings } from './index.js';
import { rec } from './records.fixture.js';
import { DEFAULT_RULES } from './score.js';

/** The product (by previous id or keys) of each listing key. */
function productOf(records: ResolveRecord[]) {
  const out = new Map<string, { id: string | null | undefined; keys: string[] }>();
  for (const p of resolveListings(records).products)
    for (const k of p.keys) out.set(k, { id: p.previousId, keys: [...p.keys].sort() });
  return out;
}

describe('carry-over of the previous snapshot', () => {
  it('keeps a retitled listing on its product (the same title evidence alone would not merge it)', () => {
    const fresh = [
      rec('a:1', 'a', 'Oster 2-Speed Juice Extractor', { brand: 'Oster', price: 80 }),
      rec('b:1', 'b', 'JUICE EXTRACTOR BY OSTER - FREE DELIVERY - LIMITED OFFER TODAY', { price: 86 }),
    ];
    // nothing ties the retitled listing to the other on its own …
    expect(productOf(fresh).get('b:1')!.keys).toEqual(['b:1']);
    // … but it was on that product, and nothing contradicts it
    const carried = fresh.map((r) => ({ ...r, previousProduct: 'p1' }));
    expect(productOf(carried).get('b:1')).toEqual({ id: 'p1', keys: ['a:1', 'b:1'] });
  });

  it('keeps a listing on its product when its retailer upper-cases and suffixes its titles', () => {
    const records = [
      rec('a:1', 'a', 'Cuisinart 4-Slice Toaster CPT-180', { previousProduct: 'p1' }),
      rec('b:1', 'b', 'Cuisinart Toaster CPT-180 Brushed Steel', { previousProduct: 'p1' }),
      rec('c:1', 'c', 'CUISINART 2-SLICE TOASTER - FREE DELIVERY', { previousProduct: 'p1' }),
    ];
    expect(productOf(records).get('c:1')).toEqual({ id: 'p1', keys: ['a:1', 'b:1', 'c:1'] });
  });

  it('lets a listing whose model number now conflicts go free; the product keeps its id', () => {
    const records = [
      rec('a:1', 'a', 'Oster Juice Extractor OSJU60W432SL', { previousProduct: 'p1' }),
      rec('b:1', 'b', 'Oster Juice Extractor - OSJU60W432SL', { previousProduct: 'p1' }),
      rec('c:1', 'c', 'Oster Juice Extractor - OSJU60W432SS', { previousProduct: 'p1' }),
    ];
    const products = productOf(records);
    expect(products.get('a:1')).toEqual({ id: 'p1', keys: ['a:1', 'b:1'] });
    expect(products.get('c:1')).toEqual({ id: null, keys: ['c:1'] });
  });

  it('never merges two carried products on a title score; a new listing still joins one', () => {
    const records = [
      rec('a:1', 'a', 'Acme Blender TB600', { previousProduct: 'p1' }),
      rec('b:1', 'b', 'Acme Turbo Blender TB600', { previousProduct: 'p2' }),
      rec('c:1', 'c', 'Acme Blender TB600'),
    ];
    // fresh, the two would be one product
    const unpinned = records.slice(0, 2).map(({ previousProduct: _, ...r }) => r);
    expect(resolveListings(unpinned).products).toHaveLength(1);
    const products = productOf(records);
    expect(products.get('a:1')!.id).toBe('p1');
    expect(products.get('b:1')).toEqual({ id: 'p2', keys: ['b:1'] });
    expect(products.get('c:1')!.keys).toContain('c:1');
  });

  it('gives each previous id to one product only: the one holding most of its listings', () => {
    const records = [
      rec('a:1', 'a', 'Acme Kettle K100 red', { color: 'red', previousProduct: 'p1' }),
      rec('b:1', 'b', 'Acme Kettle K100 blue', { color: 'blue', previousProduct: 'p1' }),
      rec('c:1', 'c', 'Acme Kettle K100 red', { color: 'red', previousProduct: 'p1' }),
    ];
    const ids = resolveListings(records).products.map((p) => [p.previousId, [...p.keys].sort()]);
    expect(ids).toEqual(
      expect.arrayContaining([
        ['p1', ['a:1', 'c:1']],
        [null, ['b:1']],
      ]),
    );
  });

  it('judges carried listings with the rules of the run, not always the default ones', () => {
    // two of one maker's bulbs whose own codes conflict, sharing only a spec code (`PAR38`)
    const records = [
      rec('a:1', 'a', 'Sylvania 75W PAR38 Smart Light Bulb SYSM86X6756', {
        brand: 'Sylvania',
        mpn: 'SYSM86X6756',
        previousProduct: 'p1',
      }),
      rec('b:1', 'b', 'Sylvania 75W PAR38 Smart Light Bulb SYSM26Q2786', {
        brand: 'Sylvania',
        previousProduct: 'p1',
      }),
    ];
    const corpus = buildCorpus(records);
    // by default the own codes decide: the second listing goes free
    expect(carriedGroups(records, corpus).groups).toEqual([[0]]);
    // with ownCodeDecides off, the shared code makes them one model, here as in scoring
    const off = carriedGroups(records, corpus, { ...DEFAULT_RULES, ownCodeDecides: false });
    expect(off.groups).toEqual([[0, 1]]);
  });

  it('without previous products, products carry no previousId', () => {
    const { products } = resolveListings([rec('a:1', 'a', 'Acme Kettle K100')]);
    expect(products[0]).not.toHaveProperty('previousId');
  });
});
