import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor.js';

describe('cursors', () => {
  it('round-trip keyset and offset cursors', () => {
    const keyset = { kind: 'keyset', value: 'Bosch', id: 'abc', offset: 20 } as const;
    expect(decodeCursor(encodeCursor(keyset))).toEqual(keyset);
    expect(decodeCursor(encodeCursor({ kind: 'offset', offset: 40 }))).toEqual({
      kind: 'offset',
      offset: 40,
    });
  });

  it('reject anything that is not a cursor of ours, without throwing', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const decoded = decodeCursor(text);
        if (decoded) expect(['keyset', 'offset']).toContain(decoded.kind);
      }),
    );
    expect(decodeCursor(Buffer.from('{"o":-1}').toString('base64url'))).toBeNull();
    expect(decodeCursor(Buffer.from('[1,2]').toString('base64url'))).toBeNull();
  });
});
