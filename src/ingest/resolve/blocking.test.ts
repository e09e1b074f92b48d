import { describe, expect, it } from 'vitest';
import { candidatePairs } from './blocking.js';
import { buildCorpus, codeStems } from './features.js';
import { DEFAULT_CODE_RULES } from './model-number.js';
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

  it("with codeStemKeys, pairs a retailer's suffixed or split code with the maker's", () => {
    const split = [
      rec('a1', 'a', 'Sony Black Active Speaker System - SRSA212BK'),
      rec('a2', 'a', 'Sony White Earbud Style Headphones - MDREX55WH'),
      rec('b1', 'b', 'Computer Speakers - SRSA212/BLK'),
      rec('b2', 'b', 'Ex Series Earbuds Wht - MDR EX55/WHI'),
    ];
    const pairs = candidatePairs(buildCorpus(split, { ...DEFAULT_CODE_RULES, codeStemKeys: true }), options);
    expect(pairs).toContainEqual([0, 2]);
    expect(pairs).toContainEqual([1, 3]);
    // off by default (docs/ingest.md, session 12)
    expect(candidatePairs(buildCorpus(split), options)).not.toContainEqual([1, 3]);
  });
});

describe('codeStems', () => {
  it('cuts a code after its last digit and joins a short capitals word to the code after it', () => {
    expect(codeStems('Sony Black Active Speaker System - SRSA212BK', ['SRSA212BK'])).toEqual(['SRSA212']);
    expect(codeStems('Ex Series Earbuds Wht - MDR EX55/WHI', ['EX55WHI'])).toEqual(['EX55', 'MDREX55']);
    // a code ending in a digit is its own key already; a stem too short to be a code is none
    expect(codeStems('Canon Ink - 2946B001', ['2946B001'])).toEqual([]);
    expect(codeStems('Netgear Switch - GS5T', ['GS5T'])).toEqual([]);
  });
});
