import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ResolveOptions, type ResolveRecord, resolveListings } from './index.js';
import { rec } from './records.fixture.js';
import { DEFAULTS, scoreCandidates } from './resolve.js';

/** Product of each key, as sorted key lists, for order-independent comparison. */
function clustersOf(records: ResolveRecord[], options: ResolveOptions = {}) {
  return resolveListings(records, options)
    .products.map((p) => [...p.keys].sort())
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

const electronics: ResolveRecord[] = [
  rec('abt:1', 'abt', 'Sony Turntable - PSLX350H', { price: 99 }),
  rec('buy:1', 'buy', 'Sony PS-LX350H Belt Drive Turntable', { brand: 'SONY', price: 94.5 }),
  rec('abt:2', 'abt', 'Panasonic Integrated Telephone System - KXTS108W'),
  rec('buy:2', 'buy', 'Panasonic KX-TS208W 2-Line Integrated Telephone', { brand: 'Panasonic' }),
  rec('abt:3', 'abt', 'Bose Acoustimass 5 Series III Speaker System - AM53BK'),
  rec('buy:3', 'buy', 'Bose Acoustimass 5 Series III Speaker System - AM53WH', { brand: 'Bose' }),
  rec('abt:4', 'abt', 'Netgear ProSafe 5 Port Switch - FS105'),
  rec('buy:4', 'buy', 'Netgear ProSafe FS105 Ethernet Switch - FS105NA', { brand: 'Netgear' }),
];

describe('resolveListings', () => {
  it('merges one product across retailers and keeps different models apart', () => {
    expect(clustersOf(electronics)).toEqual([
      ['abt:1', 'buy:1'],
      ['abt:2'],
      ['abt:3'],
      ['abt:4', 'buy:4'],
      ['buy:2'],
      ['buy:3'],
    ]);
  });

  it('reports model number, brand and confidence per product', () => {
    const { products } = resolveListings(electronics);
    const turntable = products.find((p) => p.keys.includes('abt:1'))!;
    expect(turntable).toMatchObject({ modelNumber: 'PSLX350H', brand: 'SONY' });
    expect(turntable.confidence).toBeGreaterThan(0.5);
    expect(products.find((p) => p.keys.includes('abt:2'))!.confidence).toBe(1);
  });

  it('links color variants across retailers into one group', () => {
    const { products, groups } = resolveListings(electronics);
    const bose = groups.find((g) => g.baseModel === 'AM53');
    expect(bose?.variantDimensions).toEqual(['color']);
    expect(bose?.productIndexes.map((i) => products[i]!.keys[0]).sort()).toEqual(['abt:3', 'buy:3']);
  });

  it('merges by GTIN whatever the titles say', () => {
    const gtin = '00012345678905';
    expect(
      clustersOf([rec('a:1', 'a', 'Widget', { gtin }), rec('b:1', 'b', 'Totally different', { gtin })]),
    ).toEqual([['a:1', 'b:1']]);
  });

  it('merges two listings of one retailer only when they are the same item', () => {
    const records = [
      rec('a:1', 'a', 'Sony Turntable - PSLX350H', { brand: 'Sony' }),
      rec('a:2', 'a', 'Sony PS-LX350H turntable, black', { brand: 'Sony' }),
      rec('a:3', 'a', 'Acme Stand Mixer'),
      rec('a:4', 'a', 'Acme Stand Mixer'),
    ];
    expect(clustersOf(records)).toEqual([['a:1', 'a:2'], ['a:3'], ['a:4']]);
  });

  it('does not treat color variants of one model in one retailer as the same item', () => {
    const records = [
      rec('b:1', 'buy', 'Nikon Coolpix S550 Digital Camera - Plum', { brand: 'Nikon' }),
      rec('b:2', 'buy', 'Nikon Coolpix S550 Digital Camera - Graphite Black', { brand: 'Nikon' }),
    ];
    expect(clustersOf(records)).toEqual([['b:1'], ['b:2']]);
  });

  it('keeps software versions, editions and platforms apart', () => {
    const records = [
      rec('amz:1', 'amazon', 'microsoft office 2007 professional'),
      rec('amz:2', 'amazon', 'adobe photoshop cs3 [mac]'),
      rec('amz:3', 'amazon', 'quickbooks pro 2008 5-user'),
      rec('ggl:1', 'google', 'microsoft office 2008 professional'),
      rec('ggl:2', 'google', 'adobe photoshop cs3 windows'),
      rec('ggl:3', 'google', 'quickbooks pro 2008 1-user'),
      rec('ggl:4', 'google', 'microsoft office professional 2007'),
    ];
    expect(clustersOf(records)).toEqual([
      ['amz:1', 'ggl:4'],
      ['amz:2'],
      ['amz:3'],
      ['ggl:1'],
      ['ggl:2'],
      ['ggl:3'],
    ]);
  });

  it('keeps at most one listing per retailer when nothing proves two are one item (property)', () => {
    const words = [
      'acme',
      'widget',
      'pro',
      'mini',
      'blue',
      'red',
      '2007',
      '2008',
      'mac',
      'win',
      'kx100',
      'kx200',
    ];
    const record = fc.record({
      source: fc.constantFrom('a', 'b', 'c'),
      title: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 5 }).map((w) => w.join(' ')),
    });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 40 }), (raw) => {
        const records = raw.map((r, i) => rec(`${r.source}:${i}`, r.source, r.title));
        const result = resolveListings(records);
        expect(result.products.flatMap((p) => p.keys).sort()).toEqual(records.map((r) => r.key).sort());
        for (const p of result.products) {
          const sources = p.keys.map((k) => k.split(':')[0]);
          expect(new Set(sources).size).toBe(sources.length);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('does not fall back to a second choice on title words alone when the first is taken', () => {
    // b:2 reads like either Spanish course; a:2's first choice is b:1, which a:1 takes.
    const records = [
      rec('a:1', 'a', 'Instant Immersion Spanish Deluxe Audio Course Box'),
      rec('b:1', 'b', 'Instant Immersion Spanish Deluxe Audio Course Box'),
      rec('a:2', 'a', 'Instant Immersion Spanish Deluxe Audio Course'),
      rec('b:2', 'b', 'Instant Immersion Spanish Audio'),
      rec('a:3', 'a', 'Learning QuickBooks 2007'),
      rec('b:3', 'b', 'Learning QuickBooks 2007'),
      rec('a:4', 'a', 'Print Shop Deluxe 22'),
      rec('b:4', 'b', 'Print Shop Deluxe 22'),
    ];
    expect(clustersOf(records)).toEqual([['a:1', 'b:1'], ['a:2'], ['a:3', 'b:3'], ['a:4', 'b:4'], ['b:2']]);
    // The same batch without the rule merges the second choice.
    expect(clustersOf(records, { secondChoiceVeto: false })).toContainEqual(['a:2', 'b:2']);
  });

  it('with clashNotMutualBest, merges titles naming two colors or quantities only above the threshold', () => {
    const records = [
      rec('a:1', 'a', 'Shark Stratos Upright Vacuum Standard White', { price: 428 }),
      rec('b:1', 'b', 'Shark Stratos Upright Vacuum Standard Black', { price: 430 }),
      rec('a:2', 'a', 'Braun Electric Kettle 1.7 qt Brushed', { price: 111 }),
      rec('b:2', 'b', 'Braun Electric Kettle 1.2 qt', { price: 112 }),
      rec('a:3', 'a', 'Learning QuickBooks 2007'),
      rec('b:3', 'b', 'Learning QuickBooks 2007'),
    ];
    // the vacuums are each other's best candidate below the threshold; the kettles score above it
    expect(clustersOf(records, { clashNotMutualBest: false })).toEqual([
      ['a:1', 'b:1'],
      ['a:2', 'b:2'],
      ['a:3', 'b:3'],
    ]);
    expect(clustersOf(records)).toEqual([['a:1'], ['a:2', 'b:2'], ['a:3', 'b:3'], ['b:1']]);
  });

  it('is deterministic', () => {
    expect(resolveListings(electronics)).toEqual(resolveListings(electronics));
  });

  it('handles an empty batch', () => {
    expect(resolveListings([])).toMatchObject({ products: [], groups: [] });
  });
});

describe('learned matcher evidence', () => {
  it('says on every listing how it was matched', () => {
    const result = resolveListings([
      rec('a:1', 'a', 'Acme Kettle 1.7L', { gtin: '00012345678905' }),
      rec('b:1', 'b', 'Kettle by Acme', { gtin: '00012345678905' }),
      rec('a:2', 'a', 'Sony Turntable - PSLX350H'),
      rec('b:2', 'b', 'Sony PS-LX350H Belt Drive Turntable', { brand: 'Sony' }),
      rec('a:3', 'a', 'Bose Acoustimass 5 - AM53BK'),
    ]);
    const methodOf = new Map<string, string>();
    for (const p of result.products)
      for (const [i, k] of p.keys.entries()) methodOf.set(k, p.matches[i]!.method);
    expect(methodOf.get('a:1')).toBe('gtin');
    expect(methodOf.get('b:2')).toBe('model_number');
    expect(methodOf.get('a:3')).toBe('single_listing');
    for (const p of result.products)
      for (const m of p.matches) expect(m.confidence).toBeGreaterThanOrEqual(p.keys.length > 1 ? 0 : 1);
  });
  it('keeps look-alikes of two stated brands apart unless the learned matcher supports them', () => {
    const words =
      'zephyr quartz nimbus falcon orbit cobalt ember glacier harbor ivory jasper kestrel lumen meridian nova onyx prism quasar raven sierra tundra umbra vertex willow xenon yarrow zenith acorn birch cedar'.split(
        ' ',
      );
    const makers = ['Targus', 'Belkin', 'Incase', 'Speck', 'Tucano', 'Thule'];
    const others =
      'Korvo Lumina Mistral Norden Ostara Palisade Quillon Rivet Solano Trellis Umber Vanta'.split(' ');
    const records: ResolveRecord[] = [];
    words.forEach((w, k) => {
      if (k < 24) {
        // one sleeve at both retailers, from one maker: what the batch learns a match looks like
        const m = makers[k % makers.length]!;
        records.push(rec(`a:${k}`, 'a', `${m} ${w} laptop sleeve ${k}`, { brand: m, price: 30 + k }));
        records.push(rec(`b:${k}`, 'b', `${m} ${w} sleeve for laptops ${k}`, { brand: m, price: 31 + k }));
      } else {
        // the same-looking folio from two makers, one at each retailer
        const look = `${w} ${words[k - 20]} ${words[k - 14]} ${words[k - 10]} tablet folio case`;
        const [x, y] = [others[(k - 24) * 2]!, others[(k - 24) * 2 + 1]!];
        records.push(rec(`a:${k}`, 'a', `${x} ${look}`, { brand: x, price: 30 + k }));
        records.push(rec(`b:${k}`, 'b', `${y} ${look}`, { brand: y, price: 31 + k }));
      }
    });
    const twoBrands = (options: ResolveOptions) =>
      clustersOf(records, options).filter((keys) => keys.length > 1 && Number(keys[0]!.slice(2)) >= 24);
    expect(twoBrands({})).toEqual([]);
    // without the rule the fixed score alone merges some of them
    expect(twoBrands({ statedBrandVeto: false }).length).toBeGreaterThan(0);
    // and the sleeves, one maker at both retailers, still merge
    expect(clustersOf(records).filter((keys) => keys.length === 2)).toHaveLength(24);
  });

  it('with oneCodeVeto, a title-only pair of a coded and an uncoded listing keeps no more than the learned support', () => {
    const records = [
      ...electronics,
      rec('abt:5', 'abt', 'LG White XL Load Capacity Electric Dryer - DLE0442WH', { price: 599 }),
      rec('buy:5', 'buy', 'LG XL Capacity Electric Dryer', { brand: 'LG', price: 610 }),
      rec('buy:6', 'buy', 'Sony Stereo Turntable', { brand: 'SONY', price: 95 }),
    ];
    const on = scoreCandidates(records, { ...DEFAULTS, oneCodeVeto: true });
    const off = scoreCandidates(records, { ...DEFAULTS, oneCodeVeto: false });
    const coded = (i: number) => on.corpus.features[i]!.primaryParts !== null;
    let oneCode = 0;
    on.edges.forEach((e, k) => {
      const before = off.edges[k]!;
      expect([e.i, e.j]).toEqual([before.i, before.j]);
      if ((e.method ?? 'title_similarity') === 'title_similarity' && coded(e.i) !== coded(e.j)) {
        oneCode++;
        expect(e.probability).toBeLessThanOrEqual(before.probability);
      } else expect(e.probability).toBe(before.probability);
    });
    expect(oneCode).toBeGreaterThan(0);
  });
});
