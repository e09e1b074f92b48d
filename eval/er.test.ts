import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type Cluster,
  type Dataset,
  demoPairSets,
  oneToOneCeiling,
  parsePrice,
  parseResolveOptions,
  predictedPairs,
  scorePairs,
  structured,
  uncoded,
  withOrphans,
} from './er.js';

const pair = (a: string, b: string) => `${a}\u0000${b}`;

describe('predictedPairs', () => {
  it('expands each cluster into its pairs between the two retailers only', () => {
    const clusters: Cluster[] = [
      [
        { retailer: 'A', id: '1' },
        { retailer: 'B', id: 'x' },
        { retailer: 'B', id: 'y' },
        { retailer: 'C', id: 'z' },
      ],
      [{ retailer: 'A', id: '2' }],
      [
        { retailer: 'A', id: '3' },
        { retailer: 'A', id: '4' },
      ],
    ];
    expect([...predictedPairs(clusters, 'A', 'B')].sort()).toEqual([pair('1', 'x'), pair('1', 'y')]);
  });
});

describe('scorePairs', () => {
  it('scores pairwise precision, recall and F1 against the truth', () => {
    const predicted = new Set([pair('1', 'x'), pair('2', 'y'), pair('3', 'z')]);
    const r = scorePairs(predicted, [
      ['1', 'x'],
      ['2', 'y'],
      ['4', 'w'],
      ['5', 'v'],
    ]);
    expect(r.precision).toBeCloseTo(2 / 3);
    expect(r.recall).toBeCloseTo(2 / 4);
    expect(r.f1).toBeCloseTo((2 * (2 / 3) * 0.5) / (2 / 3 + 0.5));
  });
  it('gives zero, not NaN, when nothing is predicted or nothing is true', () => {
    expect(scorePairs(new Set(), [['1', 'x']])).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(scorePairs(new Set([pair('1', 'x')]), [])).toEqual({ precision: 0, recall: 0, f1: 0 });
  });
  it('does not read a pair the other way round as right', () => {
    expect(scorePairs(new Set([pair('x', '1')]), [['1', 'x']]).precision).toBe(0);
  });
});

describe('oneToOneCeiling', () => {
  it('is the share of true pairs a one-to-one matching can keep', () => {
    // A1 has two partners: one-to-one keeps one of them, and B3 is shared too
    expect(
      oneToOneCeiling([
        ['A1', 'B1'],
        ['A1', 'B2'],
        ['A2', 'B3'],
        ['A3', 'B3'],
      ]),
    ).toBeCloseTo(2 / 4);
    expect(oneToOneCeiling([['A1', 'B1']])).toBe(1);
  });
});

describe('withOrphans', () => {
  // ids with a tail, as benchmark ids have: FNV-1a without a final mix is biased on short ids
  // that differ only in their last character (`b0`…`b199` fall 99 % below 0.7)
  const dataset: Dataset = {
    name: 'set',
    sides: [
      { retailer: 'A', rows: Array.from({ length: 200 }, (_, k) => ({ id: `a${k}-x`, title: `item ${k}` })) },
      {
        retailer: 'B',
        rows: Array.from({ length: 220 }, (_, k) => ({ id: `b${k}-x`, title: `item ${k}` })),
      },
    ],
    matches: Array.from({ length: 200 }, (_, k): [string, string] => [`a${k}-x`, `b${k}-x`]),
  };
  it('removes about that share of the partnered listings of one side, with their pairs', () => {
    const copy = withOrphans(dataset, 0.7);
    expect(copy.name).toBe('set-orphans70');
    const removed = 220 - copy.sides[1]!.rows.length;
    expect(removed).toBeGreaterThan(100);
    expect(removed).toBeLessThan(180);
    expect(copy.matches).toHaveLength(200 - removed);
    // the listings without a partner stay, and the other side is untouched
    for (let k = 200; k < 220; k++) expect(copy.sides[1]!.rows.some((r) => r.id === `b${k}-x`)).toBe(true);
    expect(copy.sides[0]!.rows).toHaveLength(200);
    const kept = new Set(copy.sides[1]!.rows.map((r) => r.id));
    for (const [, b] of copy.matches) expect(kept.has(b)).toBe(true);
  });
  it('picks about that share of short ids differing in their last character (the fnv hash did not)', () => {
    const short: Dataset = {
      name: 'short',
      sides: [
        { retailer: 'A', rows: Array.from({ length: 200 }, (_, k) => ({ id: `a${k}`, title: `item ${k}` })) },
        { retailer: 'B', rows: Array.from({ length: 200 }, (_, k) => ({ id: `b${k}`, title: `item ${k}` })) },
      ],
      matches: Array.from({ length: 200 }, (_, k): [string, string] => [`a${k}`, `b${k}`]),
    };
    const mixed = 200 - withOrphans(short, 0.7).matches.length;
    expect(mixed).toBeGreaterThan(120);
    expect(mixed).toBeLessThan(160);
    const fnv = withOrphans(short, 0.7, 1, 'fnv');
    expect(fnv.name).toBe('short-orphans70-fnv');
    expect(200 - fnv.matches.length).toBeGreaterThan(190);
  });
  it('is the same every run, and takes the first side with side 0', () => {
    expect(withOrphans(dataset, 0.5)).toEqual(withOrphans(dataset, 0.5));
    const first = withOrphans(dataset, 0.5, 0);
    expect(first.name).toBe('set-orphans50-first');
    expect(first.sides[1]!.rows).toHaveLength(220);
    expect(first.sides[0]!.rows.length).toBe(first.matches.length);
  });
});

describe('structured', () => {
  it("gives a side without a model column its titles' trailing codes, and leaves the rest", () => {
    const dataset: Dataset = {
      name: 'x',
      sides: [
        {
          retailer: 'A',
          rows: [
            { id: '1', title: 'Sony Turntable - PSLX350H' },
            { id: '2', title: 'Sony Stereo Turntable' },
            { id: '3', title: 'Canon Ink - Black - PG40BK' },
            { id: '4', title: 'Monster Cable - Gold Series' },
          ],
        },
        { retailer: 'B', rows: [{ id: '9', title: 'Sony PS-LX350H - X1', model: 'PSLX350H' }] },
      ],
      matches: [['1', '9']],
    };
    const copy = structured(dataset);
    expect(copy.name).toBe('x-structured');
    expect(copy.sides[0]!.rows.map((r) => r.model)).toEqual(['PSLX350H', undefined, 'PG40BK', undefined]);
    expect(copy.sides[1]).toBe(dataset.sides[1]);
    expect(copy.matches).toBe(dataset.matches);
  });
});

describe('uncoded', () => {
  it("takes the second side's model column and the codes in its titles away, and leaves the first", () => {
    const dataset: Dataset = {
      name: 'x',
      sides: [
        { retailer: 'A', rows: [{ id: '1', title: 'Haier Freezer (HAFR50B230WH)', model: 'HAFR50B230WH' }] },
        {
          retailer: 'B',
          rows: [
            {
              id: '9',
              title: '11.1 cu. ft. Chest Freezer in White - Haier HAFR50B230WH',
              model: 'HAFR50B230WH',
            },
            { id: '8', title: 'Fisher & Paykel FIDI56T501BSS Dishwasher', brand: 'Fisher & Paykel' },
            { id: '7', title: 'Whirlpool 30" Gas Range WHRA45U997SS - Stainless Steel' },
          ],
        },
      ],
      matches: [['1', '9']],
    };
    const copy = uncoded(dataset);
    expect(copy.name).toBe('x-uncoded');
    expect(copy.sides[0]).toBe(dataset.sides[0]);
    expect(copy.sides[1]!.rows).toEqual([
      { id: '9', title: '11.1 cu. ft. Chest Freezer in White - Haier' },
      { id: '8', title: 'Fisher & Paykel Dishwasher', brand: 'Fisher & Paykel' },
      { id: '7', title: 'Whirlpool 30" Gas Range - Stainless Steel' },
    ]);
    expect(copy.matches).toBe(dataset.matches);
  });
});

describe('parsing', () => {
  it('reads prices as feeds write them', () => {
    expect(parsePrice('$1,299.99')).toBe(1299.99);
    expect(parsePrice('0')).toBeNull();
    expect(parsePrice(undefined)).toBeNull();
    expect(parsePrice('call us')).toBeNull();
  });
  it('reads --set options and refuses what it cannot read', () => {
    expect(parseResolveOptions('learn=false,threshold=0.6')).toEqual({ learn: false, threshold: 0.6 });
    expect(() => parseResolveOptions('threshold')).toThrow(/name=value/);
    expect(() => parseResolveOptions('threshold=abc')).toThrow(/not a number/);
  });
});

describe('demoPairSets', () => {
  it('pairs retailers in name order, keeps a share of the first side and reads true pairs from the ground truth', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shelf-er-test-'));
    try {
      const head = 'id,title,brand,mpn,product_type,price,gtin';
      const ids = Array.from({ length: 60 }, (_, k) => `item-${k}`);
      writeFileSync(
        join(dir, 'alpha.csv'),
        [
          head,
          ...ids.map((id, k) => `A-${id},Acme Kettle ${k},Acme,AK${k},Kettle,${10 + k}.00 USD,0001`),
        ].join('\n'),
      );
      writeFileSync(
        join(dir, 'beta.tsv'),
        [
          'id\ttitle\tbrand\tmpn\tproduct_type\tprice',
          ...ids.map((id, k) => `B-${id}\tKettle ${k} by Acme\tAcme\t\t\t`),
        ].join('\n'),
      );
      // a third retailer has no partner in name order and is left out
      writeFileSync(join(dir, 'gamma.csv'), `${head}\nG-1,Lone,,,,,\n`);
      writeFileSync(
        join(dir, 'ground-truth.csv'),
        [
          'retailer,item_id,product_key,group_key,type,brand',
          ...ids.flatMap((id, k) => [
            `alpha,A-${id},p${k},g,kettle,acme`,
            `beta,B-${id},p${k % 50},g,kettle,acme`,
          ]),
        ].join('\n'),
      );
      const sets = demoPairSets(dir, 0.5);
      expect(sets.map((s) => s.name)).toEqual(['demo-alpha-beta']);
      const [small, large] = sets[0]!.sides;
      expect(large!.rows).toHaveLength(60);
      expect(small!.rows.length).toBeGreaterThan(15);
      expect(small!.rows.length).toBeLessThan(45);
      // structured columns, no GTIN; empty cells stay absent
      expect(small!.rows[0]).toMatchObject({ brand: 'Acme', category: 'Kettle' });
      expect(small!.rows[0]!.model).toMatch(/^AK\d+$/);
      expect(large!.rows[0]).toEqual({ id: 'B-item-0', title: 'Kettle 0 by Acme', brand: 'Acme' });
      // each kept listing's true partners: beta's listings of the same product key (beta lists
      // products p0…p9 twice, and alpha's p50…p59 have none)
      for (const [a, b] of sets[0]!.matches) {
        const k = Number(a.split('-').pop());
        expect(k).toBeLessThan(50);
        expect([`B-item-${k}`, `B-item-${k + 50}`]).toContain(b);
      }
      const keys = small!.rows.map((r) => Number(r.id.split('-').pop()));
      const expected = keys.reduce((n, k) => n + (k < 10 ? 2 : k < 50 ? 1 : 0), 0);
      expect(sets[0]!.matches).toHaveLength(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
