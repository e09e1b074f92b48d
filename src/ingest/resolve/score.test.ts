import { describe, expect, it } from 'vitest';
import { buildCorpus } from './features.js';
import { DEFAULT_CODE_RULES } from './model-number.js';
import { DEFAULT_RULES, FEATURES, scorePair } from './score.js';
import type { ResolveRecord } from './types.js';

function score(
  a: Partial<ResolveRecord>,
  b: Partial<ResolveRecord>,
  rules = DEFAULT_RULES,
  codeRules = DEFAULT_CODE_RULES,
) {
  const records: ResolveRecord[] = [
    { key: 'a', source: 'a', title: '', ...a },
    { key: 'b', source: 'b', title: '', ...b },
    // Unrelated records give the IDF something to compare against.
    ...[
      'Panasonic Headset KXTCA86',
      'Bose Speaker AM53BK',
      'Netgear Switch FS105',
      'Sony Camera DSCW120',
    ].map((title, i): ResolveRecord => ({ key: `x${i}`, source: 'x', title })),
  ];
  return scorePair(records, buildCorpus(records, codeRules), 0, 1, rules);
}

describe('scorePair', () => {
  it('matches the same model written differently', () => {
    const s = score({ title: 'Sony Turntable - PSLX350H' }, { title: 'Sony PS-LX350H Belt Drive Turntable' });
    expect(s.model).toBe(1);
    expect(s.probability).toBeGreaterThan(0.9);
  });

  it('treats conflicting model numbers as strong evidence against', () => {
    const s = score(
      { title: 'Panasonic Phone System - KXTS108W' },
      { title: 'Panasonic Phone System - KXTS208W' },
    );
    expect(s.model).toBe(-1);
    expect(s.probability).toBeLessThan(0.1);
  });

  it('flags a color/size/region suffix difference as a variant conflict', () => {
    const s = score({ title: 'Bose Acoustimass 5 - AM53BK' }, { title: 'Bose Acoustimass 5 - AM53WH' });
    expect(s.variantConflict).toBe(true);
    expect(s.probability).toBeLessThan(0.1);
  });

  it("matches a listing whose own suffix convention differs when it names the other's full code", () => {
    const s = score(
      { title: 'GE GSD4000NWW White Built-In Dishwasher - GSD4000WH' },
      { title: 'GE GSD4000NWW Dishwasher with 5 Wash Cycles - gsd4000nww' },
    );
    expect(s.model).toBe(1);
    expect(s.conflict).toBe(false);
    expect(s.probability).toBeGreaterThan(0.9);
    // a shared base code does not join two color codes
    const colors = score(
      { title: 'Sony DVP-FX820 Blue Portable DVD Player - DVPFX820LI' },
      { title: 'Sony DVPFX820 Portable DVD Player - DVPFX820/W' },
    );
    expect(colors.variantConflict).toBe(true);
    expect(colors.conflict).toBe(true);
  });

  it('separates software editions with near-identical titles', () => {
    expect(
      score({ title: 'Microsoft Office 2007' }, { title: 'Microsoft Office 2008' }).probability,
    ).toBeLessThan(0.5);
    expect(
      score({ title: 'Adobe Photoshop CS3 Mac' }, { title: 'Adobe Photoshop CS3 Win' }).probability,
    ).toBeLessThan(0.5);
    expect(
      score({ title: 'Adobe Photoshop CS3 Mac' }, { title: 'adobe photoshop cs3 mac' }).probability,
    ).toBeGreaterThan(0.9);
  });

  it('uses GTIN agreement and conflict', () => {
    expect(
      score({ title: 'Widget', gtin: '00012345678905' }, { title: 'Gadget', gtin: '00012345678905' })
        .probability,
    ).toBeGreaterThan(0.9);
    expect(
      score({ title: 'Widget', gtin: '00012345678905' }, { title: 'Widget', gtin: '00012345678912' })
        .probability,
    ).toBeLessThan(0.5);
  });

  it('lets different stated colors outweigh equal titles', () => {
    const same = score({ title: 'Acme Kettle', color: 'Red' }, { title: 'Acme Kettle', color: 'Red' });
    const diff = score({ title: 'Acme Kettle', color: 'Red' }, { title: 'Acme Kettle', color: 'Blue' });
    expect(diff.probability).toBeLessThan(same.probability);
    expect(diff.conflict).toBe(true);
    expect(same.conflict).toBe(false);
    expect(score({ title: 'Acme Tee', size: 'M' }, { title: 'Acme Tee', size: 'L' }).conflict).toBe(true);
  });

  it('keeps a similar pair priced four times apart below even odds, and a 16GB / 32GB pair too', () => {
    const title = 'Acme Wireless Headphones Noise Cancelling';
    const near = score({ title, price: 100 }, { title: `${title} Black`, price: 110 });
    const apart = score({ title, price: 100 }, { title: `${title} Black`, price: 400 });
    expect(apart.probability).toBeLessThan(near.probability);
    // at most the weakest weight EM learns for prices > 3× apart on the benchmarks (−3.4)
    expect(apart.evidence.price).toBeLessThanOrEqual(-3);
    // 1.8–3× apart: about the weakest learned weight too (−1.1)
    const gap = score({ title, price: 100 }, { title: `${title} Black`, price: 200 });
    expect(gap.evidence.price).toBe(-1);
    expect(gap.probability).toBeGreaterThan(apart.probability);
    const card = score({ title: 'Acme 16GB microSD Card' }, { title: 'Acme 32GB microSD Card' });
    expect(card.evidence.measure).toBeLessThan(0);
    expect(card.levels[FEATURES.findIndex((f) => f.name === 'measure')]).toBe(2);
    expect(card.conflict).toBe(false);
  });

  it("lets two makers' own conflicting codes outweigh a spec code both titles carry", () => {
    // the demo's wrong merges before ownCodeDecides: a shared `PAR38` made two makers' bulbs one model
    const bulbs = [
      {
        title: 'Sylvania 75W PAR38 Smart Light Bulb SYSM86X6756 - 6-Pack',
        mpn: 'SYSM86X6756',
        brand: 'Sylvania',
      },
      { title: 'Wyze 75W PAR38 Smart Light Bulb WYSM26Q2786 - 6-Pack', brand: 'Wyze' },
    ] as const;
    const decided = score(bulbs[0], bulbs[1]);
    expect(decided.conflict).toBe(true);
    expect(decided.model).toBe(-1);
    const before = score(bulbs[0], bulbs[1], { ...DEFAULT_RULES, ownCodeDecides: false });
    expect(before.model).toBe(1);
    expect(before.conflict).toBe(false);
    // a series code beside the own codes of two variants (`HX7565/51`, `HX7565/50`)
    const brushes = score(
      { title: 'Philips Sonicare DiamondClean Toothbrush HX7565/51 - Black', mpn: 'HX7565/51' },
      { title: 'Philips Sonicare DiamondClean Toothbrush HX7565/50 - Green', mpn: 'HX7565/50' },
    );
    expect(brushes.conflict).toBe(true);
  });

  it('does not read a code inside a longer code of the other listing (NV276 in NV276BL)', () => {
    // the demo pairs' wrong merge: a white vacuum and its black sibling, one code the other's base
    const white = { title: 'Shark Stratos Upright Vacuum, 10.4 lb, Standard, White (NV276)', mpn: 'NV276' };
    const black = { title: 'Stratos Standard Upright Vacuum in Black - Shark NV276BL', mpn: 'NV276BL' };
    const decided = score(white, black);
    expect(decided.levels[1]).not.toBe(3); // not "found in the other's text"
    expect(decided.variantConflict).toBe(true);
    expect(decided.conflict).toBe(true);
    const before = score(white, black, {
      ...DEFAULT_RULES,
      codeEndsAtBoundary: false,
      suffixColorDecides: false,
    });
    expect(before.model).toBe(1);
    expect(before.conflict).toBe(false);
    // the boundary alone leaves the codes' own relation (compatible), not a variant
    const boundaryOnly = score(white, black, { ...DEFAULT_RULES, suffixColorDecides: false });
    expect(boundaryOnly.levels[1]).toBe(4);
    expect(boundaryOnly.conflict).toBe(false);
  });

  it('keeps two shredders apart whose stated models are short (Fellowes 54Ci / 66Ms)', () => {
    const a = { title: 'Fellowes 54Ci Paper Shredder', mpn: '54Ci', brand: 'Fellowes' };
    const b = { title: 'Fellowes 66Ms Paper Shredder', mpn: '66Ms', brand: 'Fellowes' };
    expect(score(a, b).conflict).toBe(true);
    const before = score(a, b, { ...DEFAULT_RULES }, { ...DEFAULT_CODE_RULES, statedModelIsCode: false });
    expect(before.conflict).toBe(false);
  });

  // codes written with spaces, a region suffix the other omits, a color suffix both titles name
  it.each([
    ['Sony Bravia 40" LCD HDTV - KDL40V4100', 'Sony KDL 40V4100 Bravia 40 inch LCD TV'],
    ['Netgear 5-Port Switch FS105', 'Netgear ProSafe Switch FS105NA'],
    ['Shark Stratos Upright Vacuum in Black (NV276)', 'Shark Stratos Upright Vacuum, Black - NV276BL'],
  ])('still reads one model in %s / %s', (a, b) => {
    const s = score({ title: a }, { title: b });
    expect(s.model).toBe(1);
    expect(s.conflict).toBe(false);
  });

  it('still matches two listings sharing their own code beside other codes', () => {
    const same = score(
      { title: 'Sylvania 75W PAR38 Smart Light Bulb SYSM86X6756', mpn: 'SYSM86X6756' },
      { title: 'Sylvania PAR38 Smart Bulb 75 W - SYSM86X6756 6-Pack' },
    );
    expect(same.model).toBe(1);
    expect(same.conflict).toBe(false);
  });
});
