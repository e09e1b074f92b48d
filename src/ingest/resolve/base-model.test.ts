import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baseModel, colorTails, relateModels, splitModel } from './base-model.js';

describe('baseModel', () => {
  it.each([
    ['AM53BK', 'AM53'],
    ['WF45R6100AW', 'WF45R6100'],
    ['FS105NA', 'FS105'],
    ['KXTS108W', 'KXTS108'],
    ['UN55D6000SFXZA', 'UN55D6000'],
    ['PSLX350H', 'PSLX350H'],
    ['WET54G', 'WET54G'],
    ['ps-lx350h', 'PSLX350H'],
  ])('%s → %s', (model, base) => {
    expect(baseModel(model)).toBe(base);
  });

  it('strips a leading brand name', () => {
    expect(baseModel('SONYPSLX350H', 'Sony')).toBe('PSLX350H');
  });

  it('names the kind of each stripped suffix', () => {
    expect(splitModel('UN55D6000SFXZA').suffixes.map((s) => s.kind)).toEqual(['color', 'region']);
  });

  it('returns a prefix of the normalized model (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z0-9]{1,16}$/), (model) => {
        expect(model.startsWith(baseModel(model))).toBe(true);
      }),
    );
  });
});

describe('relateModels', () => {
  it.each([
    ['PSLX350H', 'PSLX350H', 'same'],
    ['SRSA212BK', 'SRSA212BLK', 'same'],
    ['FS105', 'FS105NA', 'compatible'],
    ['G303GR', 'STELLARG303G', 'compatible'],
    ['AM53BK', 'AM53WH', 'variant'],
    ['WF45R6100AW', 'WF45R6100AP', 'variant'],
    ['KXTS108W', 'KXTS208W', 'conflict'],
    ['3741001', '3841001', 'conflict'],
    ['H890', '9661930403', 'unrelated'],
  ])('%s vs %s: %s', (a, b, relation) => {
    expect(relateModels(a, b)).toBe(relation);
  });

  it('is symmetric and reflexive (property)', () => {
    const code = fc.stringMatching(/^[A-Z]{0,4}\d{1,5}[A-Z]{0,4}$/);
    fc.assert(
      fc.property(code, code, (a, b) => {
        expect(relateModels(a, b)).toBe(relateModels(b, a));
        expect(relateModels(a, a)).toBe('same');
      }),
    );
  });
});

describe('relateModels: two codes of one color family', () => {
  it('keeps stainless (SS) and silver (SL) finishes of one model apart (Oster OSJU60W432SL/SS)', () => {
    expect(relateModels('OSJU60W432SL', 'OSJU60W432SS')).toBe('variant');
  });
  it('still reads BK and BLK, SS and ST, as one color spelled two ways', () => {
    expect(relateModels('SRSA212BK', 'SRSA212BLK')).toBe('same');
    expect(relateModels('DSCW120SLV', 'DSCW120SL')).toBe('same');
    expect(relateModels('LSC21943SS', 'LSC21943ST')).toBe('same');
  });
  it("reads the common three-letter color codes (Sony's /WHI, /BLK, /SLV) as their colors", () => {
    // `MDR EX55/WHI` is read as `MDREX55WHI`; Abt writes the same earbuds `MDREX55WH`.
    expect(relateModels('MDREX55WHI', 'MDREX55WH')).toBe('same');
    expect(relateModels('MDREX55WHI', 'MDREX55WHT')).toBe('same');
    expect(relateModels('MDREX55WHI', 'MDREX55BLK')).toBe('variant');
    expect(relateModels('DSCW120SLV', 'DSCW120S')).toBe('same');
    for (const [code, color] of [
      ['WHI', 'white'],
      ['WHT', 'white'],
      ['BLK', 'black'],
      ['SLV', 'silver'],
      ['BLU', 'blue'],
      ['PNK', 'pink'],
      ['GRN', 'green'],
      ['GRY', 'gray'],
      ['ORG', 'orange'],
      ['YLW', 'yellow'],
    ] as const)
      expect(splitModel(`MDREX55${code}`).suffixes, code).toEqual([{ code, kind: 'color', values: [color] }]);
  });
});

describe('relateModels: suffixes of different kinds', () => {
  it('keeps a size code and a color code of one base apart (FISM78T50045ST / …MD)', () => {
    expect(relateModels('FISM78T50045ST', 'FISM78T50045MD')).toBe('variant');
  });
  it('still lets one code omit the region the other names', () => {
    expect(relateModels('UN55D6000SFXZA', 'UN55D6000S')).toBe('compatible');
    expect(relateModels('HTZ410T', 'HTZ410XAA')).not.toBe('variant');
  });
});

describe('colorTails', () => {
  it('cuts every trailing color code, after letters too', () => {
    const tails = colorTails('STYLUS1050SWB');
    expect(tails).toContainEqual({ base: 'STYLUS1050SW', families: ['black'] });
    expect(colorTails('LMV1680SS')).toContainEqual({ base: 'LMV1680', families: ['silver'] });
    expect(colorTails('KXTS108')).toEqual([]);
  });
});
