import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { servesClause } from './accessory.js';
import { buildCorpus } from './features.js';
import { rec } from './records.fixture.js';
import { resolveListings } from './resolve.js';
import { scorePair } from './score.js';

function pair(a: string, b: string, brand: string | null = null) {
  const records = [
    rec('a', 'abt', a, { brand }),
    rec('b', 'buy', b, { brand }),
    rec('x1', 'x', 'Bose Acoustimass 5 Speaker System - AM53BK'),
    rec('x2', 'x', 'Netgear 5-Port Switch - FS105'),
  ];
  return scorePair(records, buildCorpus(records), 0, 1);
}

describe('servesClause', () => {
  it('reads the codes of the product served, not the listing’s own', () => {
    const s = servesClause('Canon CL-211 Color Ink Cartridge For PIXMA MP240 and MP480 Printers - 2976B001');
    expect(s?.codes).toEqual(['MP240', 'MP480']);
  });

  it('keeps a list of products served together across commas', () => {
    const s = servesClause('Canon Ink Cartridge For PIXMA iP1600, iP6210D and iP6220D Printers - 0617B002');
    expect(s?.codes).toEqual(['IP1600', 'IP6210D', 'IP6220D']);
  });

  it('is null for a title that serves nothing', () => {
    expect(servesClause('Panasonic KX-TG6700B Cordless Telephone')).toBeNull();
  });

  it('never throws and only returns codes written in the title', () => {
    fc.assert(
      fc.property(fc.string(), (title) => {
        const s = servesClause(title);
        if (s) for (const c of s.codes) expect(title.toUpperCase().replace(/[^A-Z0-9]/g, '')).toContain(c);
      }),
    );
  });
});

describe('an accessory beside the product it serves', () => {
  it('is a hard conflict although the product’s model number is in the accessory’s title', () => {
    const s = pair(
      'Panasonic 5.8GHz Add-On Handset For The KXTG6700B Phone System - Black Finish - KXTGA670B',
      'Panasonic KX-TG6700B Cordless Telephone',
    );
    expect(s.conflict).toBe(true);
    expect(s.evidence.accessory).toBeLessThan(0);
  });

  it('is never merged into the product', () => {
    const { products } = resolveListings([
      rec('a', 'abt', 'Canon PIXMA Photo All-In-One Printer - MP480'),
      rec('b', 'buy', 'Canon CL-211 Color Ink Cartridge For PIXMA MP240 and MP480 Printers - 2976B001'),
    ]);
    expect(products).toHaveLength(2);
  });

  it('still matches the same accessory written two ways', () => {
    const s = pair(
      'Garmin Leather Carry Case for Nuvi 660 - 010-10823-01',
      'Garmin 010-10823-01 Carrying Case - 0101082301',
    );
    expect(s.conflict).toBe(false);
    expect(s.probability).toBeGreaterThan(0.9);
  });

  it('leaves a same-brand listing that writes its own code last to the other evidence', () => {
    const s = pair(
      'Targus Universal Charger for Dell, HP and Lenovo Laptops APA32US',
      'Targus APA32US Laptop Charger',
      'Targus',
    );
    expect(s.conflict).toBe(false);
  });

  it('takes two accessories of one product as agreeing on the model they serve', () => {
    const s = pair(
      'Weber Cover for Spirit E-210 Grills',
      'Weber Premium Grill Cover - 7552 for the Spirit E-210',
    );
    expect(s.model).toBe(1);
  });
});
