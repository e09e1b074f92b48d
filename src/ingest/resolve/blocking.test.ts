import { describe, expect, it } from 'vitest';
import { candidatePairs } from './blocking.js';
import { buildCorpus } from './features.js';
import { rec } from './records.fixture.js';

const options = { maxBlockSize: 100, probesPerRecord: 8, candidatesPerRecord: 10 };

describe('candidatePairs', () => {
  const records = [
    rec('a1', 'a', 'Sony Turntable - PSLX350H'),
    rec('a2', 'a', 'Sony Stereo Turntable - PSLX250H'),
    rec('b1', 'b', 'Sony PS-LX350H Belt Drive Turntable'),
    rec('b2', 'b', 'Panasonic Headset KXTCA86'),
  ];

  it('pairs records that share a rare model code', () => {
    const pairs = candidatePairs(buildCorpus(records), options);
    expect(pairs).toContainEqual([0, 2]);
  });

  it('never pairs records of one source and never repeats a pair', () => {
    const pairs = candidatePairs(buildCorpus(records), options);
    for (const [i, j] of pairs) expect(records[i]!.source).not.toBe(records[j]!.source);
    expect(new Set(pairs.map((p) => p.join())).size).toBe(pairs.length);
  });

  it('ignores keys held by more records than maxBlockSize', () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      rec(`k${i}`, `s${i}`, `Common Widget ${i % 2 ? 'x' : 'y'}`),
    );
    const pairs = candidatePairs(buildCorpus(many), { ...options, maxBlockSize: 10 });
    expect(pairs).toEqual([]);
  });

  it('keeps at most candidatesPerRecord partners found by each record', () => {
    const many = Array.from({ length: 40 }, (_, i) => rec(`k${i}`, `s${i}`, 'Rare Gizmo'));
    const pairs = candidatePairs(buildCorpus(many), { ...options, candidatesPerRecord: 3 });
    expect(pairs.length).toBeLessThanOrEqual(40 * 3);
  });
});
