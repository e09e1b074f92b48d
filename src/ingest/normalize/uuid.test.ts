import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stableUuid } from './uuid.js';

/** The definition: SHA-1 of the namespace then the name (UTF-8), version and variant bits set. */
function reference(name: string): string {
  const h = createHash('sha1')
    .update(Buffer.from('6f1a0c3e9b2d4e5fa1b2c3d4e5f60718', 'hex'))
    .update(name)
    .digest();
  h[6] = ((h[6] ?? 0) & 0x0f) | 0x50;
  h[8] = ((h[8] ?? 0) & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

describe('stableUuid', () => {
  it('is the version-5 UUID of the name, short, non-ASCII or longer than the one-call buffer', () => {
    for (const name of [
      '',
      'offer:acme:123',
      'brand:Café ☕',
      'x'.repeat(1360),
      'é'.repeat(2040),
      'y'.repeat(10_000),
    ])
      expect(stableUuid(name)).toBe(reference(name));
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 3000 }),
        (name) => stableUuid(name) === reference(name),
      ),
    );
  });

  it('does not carry one name into the next', () => {
    expect(stableUuid('a')).toBe(reference('a'));
    stableUuid('a much longer name than the next one');
    expect(stableUuid('b')).toBe(reference('b'));
  });
});
