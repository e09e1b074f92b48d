import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gs1CheckDigit, gtinForms, parseGtin } from './gtin.js';

const withCheck = (body: string) => body + gs1CheckDigit(body);

describe('parseGtin', () => {
  it('accepts real UPC-A, EAN-13 and GTIN-8 codes and pads them to 14 digits', () => {
    expect(parseGtin('036000291452')).toEqual({ ok: true, gtin14: '00036000291452' });
    expect(parseGtin('4006381333931')).toEqual({ ok: true, gtin14: '04006381333931' });
    expect(parseGtin('96385074')).toEqual({ ok: true, gtin14: '00000096385074' });
  });

  it('rejects a wrong check digit, bad lengths and non-digits with a reason', () => {
    expect(parseGtin('036000291453')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('check digit'),
    });
    expect(parseGtin('12345')).toMatchObject({ ok: false });
    expect(parseGtin('03600029145X')).toMatchObject({ ok: false });
  });

  it('UPC-A and its EAN-13 form resolve to the same GTIN-14', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{11}$/), (body) => {
        const upc = withCheck(body);
        const a = parseGtin(upc);
        const b = parseGtin(`0${upc}`);
        expect(a.ok && b.ok && a.gtin14 === b.gtin14).toBe(true);
        if (a.ok) expect(gtinForms(a.gtin14)).toContain(upc);
      }),
    );
  });

  it('any single-digit change is detected', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{12}$/),
        fc.nat(12),
        fc.integer({ min: 1, max: 9 }),
        (body, pos, delta) => {
          const code = withCheck(body);
          const changed = code.slice(0, pos) + ((Number(code[pos]) + delta) % 10) + code.slice(pos + 1);
          expect(parseGtin(changed).ok).toBe(false);
        },
      ),
    );
  });
});
