import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CODE_RULES,
  extractModelNumbers,
  isModelNumberLike,
  isStatedModelNumber,
  normalizeModelNumber,
} from './model-number.js';

describe('extractModelNumbers', () => {
  it.each([
    ['Sony Turntable - PSLX350H', ['PSLX350H']],
    ['Sony PS-LX350H/ Belt Drive System', ['PSLX350H']],
    ['Belkin Monitor Cable - F3H982-25', ['F3H98225']],
    ['Garmin 010-10723-02 Carrying Case', ['0101072302']],
    ['Sony Cyber-shot Digital Camera - Pink - DSCW120/P', ['DSCW120P']],
    ['Computer Speakers - SRSA212/BLK', ['SRSA212BLK']],
    ['Linksys G Wireless-G WET54G Wireless Bridge', ['WET54G']],
    ['Weber Genesis Grill - 3741001', ['3741001']],
    // six digits and a letter read as a catalogue number, not a count of users (`5U`)
    ['LaCie Big Disk Extreme+ Hard Drive - 301199U', ['301199U']],
  ])('%s', (text, expected) => {
    expect(extractModelNumbers(text)).toEqual(expected);
  });

  it('an upper-cased title reads the same model numbers as the original (4-SLICE is a count, not a code)', () => {
    for (const title of [
      'Cuisinart 4-Slice Toaster CPT-180',
      'Panasonic 2-Line Integrated Telephone KX-TS208W',
      'Canon CLI-8 Red Ink Tank',
      'Aquarium 3-in-one Filter Set',
    ])
      expect(extractModelNumbers(title.toUpperCase())).toEqual(extractModelNumbers(title));
  });

  it('ignores measurements, years, versions, prices and standards', () => {
    expect(
      extractModelNumbers(
        '500GB 1080p 50Hz 100W 5-user 2007 v11 $1,299.99 10/100 win32 12-Port 3.5in 10000mAh',
      ),
    ).toEqual([]);
    expect(extractModelNumbers('printmaster v.17.0 gold, arcserve r11.5, v10.4.7')).toEqual([]);
    expect(extractModelNumbers('adventure workshop 4th-6th grade')).toEqual([]);
    expect(
      extractModelNumbers('aquarium 3-in-one, 2-video set, 2-Line phone, forms 8.0-2004, v.8by'),
    ).toEqual([]);
    expect(extractModelNumbers('Canon CLI-8 Red Ink Tank')).toEqual(['CLI8']);
  });

  it('returns normalized codes only (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        for (const code of extractModelNumbers(text)) {
          expect(code).toMatch(/^[A-Z0-9]{4,24}$/);
          expect(code).toMatch(/\d/);
          expect(normalizeModelNumber(code)).toBe(code);
        }
      }),
    );
  });

  it('finds a code whatever its case and hyphenation (property)', () => {
    const code = fc
      .tuple(
        fc.stringMatching(/^[A-Z]{2,4}$/),
        fc.stringMatching(/^[1-9]\d{2,4}$/),
        fc.stringMatching(/^[A-Z]{0,2}$/),
      )
      .filter(([letters, , tail]) => isModelNumberLike(`${letters}1${tail}`));
    fc.assert(
      fc.property(code, fc.boolean(), ([letters, digits, tail], lower) => {
        const plain = `${letters}${digits}${tail}`;
        fc.pre(isModelNumberLike(plain));
        const written = `${letters}-${digits}${tail}`;
        const title = `Acme Widget - ${lower ? written.toLowerCase() : written}`;
        expect(extractModelNumbers(title)).toContain(plain);
      }),
    );
  });
});

describe('normalizeModelNumber', () => {
  it('removes separators and upper-cases', () => {
    expect(normalizeModelNumber('ps-lx 350.h')).toBe('PSLX350H');
  });

  it('is idempotent (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (raw) => {
        const once = normalizeModelNumber(raw);
        expect(normalizeModelNumber(once)).toBe(once);
      }),
    );
  });
});

describe('extractModelNumbers: finish codes after #', () => {
  it('keeps a # finish code on its model (WST709W#45SB), so two finishes stay two codes', () => {
    expect(extractModelNumbers('TOTO Toilet Seat WST709W#45SB')).toContain('WST709W45SB');
    expect(extractModelNumbers('TOTO Toilet Seat WST709W#45SB')).not.toContain('WST709W');
  });

  it('reads a long number followed by a unit word as a quantity, not a catalogue number', () => {
    // the demo pairs' wrong merge of two makers' furnaces on `100000`, Amazon-Google's page packs
    expect(extractModelNumbers('Goodman Gas Furnace, 100000 BTU/h, 80%, Two-Stage')).toEqual([]);
    expect(extractModelNumbers('acrobat capture page pack - license - 100000 pages - win')).toEqual([]);
    expect(extractModelNumbers('Lexmark Toner 3741001 - Black')).toEqual(['3741001']);
    const off = { ...DEFAULT_CODE_RULES, numberBeforeUnitIsQuantity: false };
    expect(extractModelNumbers('Goodman Gas Furnace, 100000 BTU/h', off)).toEqual(['100000']);
  });
});

describe('isStatedModelNumber', () => {
  it('takes a stated model mixing letters and digits even where free text reads a unit', () => {
    // `66Ms` reads as 66 milliseconds in a title; in the feed's model column it is the model
    expect(isModelNumberLike('66MS')).toBe(false);
    expect(isStatedModelNumber('66MS')).toBe(true);
    expect(isStatedModelNumber('10MS')).toBe(true);
    expect(isStatedModelNumber('66MS', { ...DEFAULT_CODE_RULES, statedModelIsCode: false })).toBe(false);
  });

  it('still refuses versions, standards, words and bare short numbers', () => {
    // codes under four characters stay out, as in free text (`GR4`)
    for (const code of ['V2', 'R11', 'DDR3', 'BLACK', '1234', 'AB', 'GR4', 'X3I'])
      expect(isStatedModelNumber(code)).toBe(false);
  });
});
