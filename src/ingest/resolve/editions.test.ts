import { describe, expect, it } from 'vitest';
import { editionConflict, extractEdition } from './editions.js';

const conflict = (a: string, b: string) => editionConflict(extractEdition(a), extractEdition(b));

describe('extractEdition', () => {
  it('reads years, versions, tiers, platforms, licenses and counts', () => {
    const e = extractEdition('QuickBooks Pro 2007 v6.0 Mac Upgrade 5-User cs3');
    expect([...e.years]).toEqual(['2007']);
    expect([...e.numbers]).toEqual(['6']);
    expect([...e.tiers]).toEqual(['pro']);
    expect([...e.platforms]).toEqual(['mac']);
    expect([...e.licenses]).toEqual(['upgrade']);
    expect([...e.counts]).toEqual(['5']);
    expect([...e.releaseCodes]).toEqual(['cs3']);
  });

  it('does not read measurements as versions', () => {
    expect([...extractEdition("LG 30' Gas Range 5.0 Cu. Ft. 7.2 Channel 1GB").numbers]).toEqual([]);
    expect([...extractEdition('World of Warcraft 60 day card').numbers]).toEqual(['60']);
  });

  it('reads roman numerals as versions', () => {
    expect([...extractEdition('Crystal Reports XI').numbers]).toEqual(['11']);
  });
});

describe('editionConflict', () => {
  it.each([
    ['office 2007', 'office 2008'],
    ['quickbooks pro 2007', 'quickbooks standard 2007'],
    ['photoshop cs3 mac', 'photoshop cs3 win'],
    ['acrobat 8 upgrade', 'acrobat 8'],
    ['norton 2007 5-user', 'norton 2007 1 user'],
    ['photoshop cs2', 'photoshop cs3'],
    ['after effects 6.5', 'after effects 7.0'],
  ])('%s vs %s conflict', (a, b) => {
    expect(conflict(a, b)).toBeGreaterThan(1);
  });

  it.each([
    ['office 2007', 'microsoft office 2007'],
    ['qb pos 6.0 basic', 'quickbooks pos 6 basic'],
    ['crystal reports xi', 'crystal reports 11'],
    ['photoshop cs3 mac', 'adobe photoshop cs3 macintosh'],
  ])('%s vs %s agree', (a, b) => {
    expect(conflict(a, b)).toBe(0);
  });
});
