import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeRow, parseProductDetail } from './listing.js';
import { cleanText } from './normalize/index.js';

const row = (fields: Record<string, string>) => ({ file: 'feed.tsv', line: 7, fields });

describe('normalizeRow', () => {
  it('normalizes a good row', () => {
    const result = normalizeRow(
      row({
        id: 'A1',
        title: ' Bosch  Dishwasher ',
        price: '999.00 USD',
        sale_price: '849.00 USD',
        gtin: '036000291452',
        availability: 'out of stock',
      }),
      'acme',
    );
    expect(result.issues).toEqual([]);
    expect(result.listing).toMatchObject({
      key: 'acme:A1',
      title: 'Bosch Dishwasher',
      price: 849,
      originalPrice: 999,
      gtin14: '00036000291452',
      availability: 'out_of_stock',
    });
  });

  it('rejects rows without title or with an unparseable price, with file and line', () => {
    expect(normalizeRow(row({ id: 'A1', title: '' }), 'acme')).toMatchObject({
      listing: null,
      issues: [{ file: 'feed.tsv', line: 7, severity: 'error', reason: 'missing title' }],
    });
    expect(normalizeRow(row({ id: 'A1', title: 'x', price: 'call us' }), 'acme').listing).toBeNull();
  });

  it('keeps a row with a bad GTIN but drops the GTIN and reports it', () => {
    const result = normalizeRow(row({ id: 'A1', title: 'x', gtin: '036000291453' }), 'acme');
    expect(result.listing?.gtin14).toBeNull();
    expect(result.issues[0]).toMatchObject({
      severity: 'warning',
      reason: expect.stringContaining('check digit'),
    });
  });

  it('never throws on arbitrary rows', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom('id', 'title', 'price', 'sale_price', 'gtin', 'availability', 'product_detail'),
          fc.string(),
        ),
        (fields) => {
          const result = normalizeRow(row(fields), 'acme');
          expect(result.listing !== null || result.issues.length > 0).toBe(true);
        },
      ),
    );
  });
});

/** The first definition, by regular expressions: the scanner must split and read the same. */
function parseProductDetailByRegex(text: string): Record<string, string> {
  const specs: Record<string, string> = {};
  for (const part of text.split(/,(?=[^,:]*:[^,:]*:)/)) {
    const pieces = part.split(':');
    if (pieces.length < 3) continue;
    const name = cleanText(pieces[1] ?? '');
    const value = cleanText(pieces.slice(2).join(':'));
    if (name && value) specs[name] = value;
  }
  return specs;
}

describe('parseProductDetail', () => {
  it('reads what the regular-expression definition reads, for any text', () => {
    const piece = fc.constantFrom(',', ':', ' ', 'a', 'Color', '\t', '42', ', ', ' :');
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string({ maxLength: 4 })), { maxLength: 24 }), (pieces) => {
        const text = pieces.join('');
        // key order too: the specs are stored as JSON
        expect(JSON.stringify(parseProductDetail(text))).toBe(
          JSON.stringify(parseProductDetailByRegex(text)),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('reads section:attribute:value triples', () => {
    expect(
      parseProductDetail('General:Noise Level:42 dBA,Capacity:Place Settings:16,Finish:Color:Black, matte'),
    ).toEqual({
      'Noise Level': '42 dBA',
      'Place Settings': '16',
      Color: 'Black, matte',
    });
  });
});
