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

  // session 13 (er7): Abt-Buy's missed pairs whose codes agree in a form scoring did not read
  it('reads a code written as words in the other title as the same code (splitCodeIsSame)', () => {
    const a = { title: 'Olympus Black 10 Megapixels Digital Camera - SP565UZ' };
    const b = { title: 'Olympus SP-565 UZ 10 Megapixel Digital Camera w/ 20x Zoom - 226480' };
    const s = score(a, b);
    expect(s.evidence.model).toBe(4);
    expect(s.levels[1]).toBe(3); // the learned level stays "found in the other's text"
    expect(score(a, b, { ...DEFAULT_RULES, splitCodeIsSame: false }).evidence.model).toBe(2.5);
    // not inside a longer hyphenated code
    const twin = score(
      { title: 'Canon Black Ink Cartridge - Black - PG40BK' },
      { title: 'Canon PG-40 Black Ink Cartridge - PG-40-BK-TWIN' },
    );
    expect(twin.evidence.model).not.toBe(4);
    // a number before a unit is a quantity: the demo's `HERO 33 ft` is not `HERO33`
    const hero = score(
      { title: 'HERO 33 ft 5.3K Action Camera - GoPro HERO33 Black', mpn: 'HERO33 Black' },
      { title: 'HERO 33 ft 5.3K Action Camera - GoPro HERO92 Black' },
    );
    expect(hero.evidence.model).not.toBe(4);
  });

  it('reads a code whose base the other title writes as words and whose color suffix as the color', () => {
    const a = { title: 'Nikon Black 13.5 Megapixel COOLPIX Digital Camera - COOLPIXP6000BK' };
    const black = { title: 'Nikon COOLPIX P6000 13 Megapixels Digital Camera w/ 4x Zoom - Black - 26135' };
    const silver = { title: 'Nikon COOLPIX P6000 13 Megapixels Digital Camera w/ 4x Zoom - Silver - 26136' };
    expect(score(a, black).levels[1]).toBe(2);
    expect(score(a, black, { ...DEFAULT_RULES, splitCodeIsSame: false }).levels[1]).not.toBe(2);
    expect(score(a, silver).levels[1]).not.toBe(2);
  });

  it("counts a shared code that is one listing's primary plus a suffix as its own (ownCodeWithSuffix)", () => {
    const a = {
      title: 'Onkyo THX Select2 Plus Certified 7.1 Channel Home Theater Black Receiver - TXSR706B',
    };
    const b = { title: 'Onkyo TX-SR706 A/V Receiver - TXSR706B' };
    expect(score(a, b).conflict).toBe(false);
    expect(score(a, b).model).toBe(1);
    expect(score(a, b, { ...DEFAULT_RULES, ownCodeWithSuffix: false }).conflict).toBe(true);
  });

  it("reads a maker's item number inside the other listing's UPC (gtinItemNumber)", () => {
    const a = { title: 'Nyko PlayStation 3 Dual Charger AC - 743840830153' };
    const b = { title: 'Nyko PS3 Dual AC Charger - 83015' };
    expect(score(a, b).levels[1]).toBe(2);
    expect(score(a, b, { ...DEFAULT_RULES, gtinItemNumber: false }).levels[1]).not.toBe(2);
    // another item of the same maker
    expect(score(a, { title: 'Nyko PS3 Dual AC Charger - 83016' }).levels[1]).not.toBe(2);
  });

  it('with colorSuffixConventions (off by default), reads two suffix conventions of one color as one model', () => {
    const a = { title: 'Panasonic Genius Countertop Microwave In Black - NNH965BK' };
    const b = { title: 'Panasonic NN-H965BF Microwave Oven - Counter Top - Black' };
    expect(score(a, b).conflict).toBe(true);
    const on = score(a, b, { ...DEFAULT_RULES, colorSuffixConventions: true });
    expect(on.conflict).toBe(false);
    expect(on.levels[1]).toBe(4);
    // a second color code is a second variant
    const white = { title: 'Panasonic NN-H965WH Microwave Oven - Black' };
    expect(score(a, white, { ...DEFAULT_RULES, colorSuffixConventions: true }).conflict).toBe(true);
  });
});
