import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanText } from './text.js';

/** The definition: control characters become spaces, whitespace runs one space, no space at either end. */
const reference = (text: string) =>
  text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the definition strips control characters
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('cleanText', () => {
  it('collapses whitespace and strips control characters', () => {
    expect(cleanText('  Bosch\t 500\u0000 Series\n')).toBe('Bosch 500 Series');
    expect(cleanText('a\u00a0b\u2003c\ufeff')).toBe('a b c');
    expect(cleanText('Already clean')).toBe('Already clean');
  });

  it('gives what the definition gives, for any text (its fast path for clean text included)', () => {
    const piece = fc.constantFrom(
      ' ',
      '  ',
      '\t',
      '\n',
      '\u0000',
      '\u007f',
      '\u00a0',
      '\u2028',
      '\ufeff',
      'a',
      'Ü',
      '\u0085',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string({ maxLength: 3 })), { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        expect(cleanText(text)).toBe(reference(text));
      }),
      { numRuns: 3000 },
    );
  });
});
