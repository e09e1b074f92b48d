import { describe, expect, it } from 'vitest';
import { buildCorpus } from './features.js';

describe('buildCorpus', () => {
  it('reads stated specs in comparison form, by name and in the order the feed gave them', () => {
    const { features } = buildCorpus([
      { key: 'a:1', source: 'a', title: 'Oven', specs: { Width: '30 in.', 'Fuel Type': 'Gas' } },
      { key: 'b:1', source: 'b', title: 'Oven' },
    ]);
    const specs = features[0]!.specValues!;
    expect(specs.size).toBe(2);
    expect(specs.get('Fuel Type')).toBe('gas');
    expect(specs.get('Height')).toBeUndefined();
    expect([...specs]).toEqual([
      ['Width', '30in'],
      ['Fuel Type', 'gas'],
    ]);
    expect(features[1]!.specValues).toBeNull();
  });

  it("keeps each record's blocking keys, title words and codes once each, in its own range", () => {
    const corpus = buildCorpus([
      { key: 'a:1', source: 'a', title: 'Acme Drill DR500 drill' },
      { key: 'b:1', source: 'b', title: 'Acme Kettle' },
    ]);
    const keysOf = (i: number) => [...corpus.keys.subarray(corpus.keyStart[i]!, corpus.keyStart[i + 1]!)];
    expect(corpus.keyStart).toHaveLength(3);
    expect(new Set(keysOf(0)).size).toBe(keysOf(0).length);
    // `acme` is one interned term, shared by both ranges; the code is the first record's only
    const shared = keysOf(0).filter((k) => keysOf(1).includes(k));
    expect(shared).toHaveLength(1);
    expect(corpus.df[shared[0]!]).toBe(2);
    expect(keysOf(0).length).toBeGreaterThan(keysOf(1).length);
  });
});
