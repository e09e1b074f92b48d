import { createHash, hash } from 'node:crypto';

const NAMESPACE = Buffer.from('6f1a0c3e9b2d4e5fa1b2c3d4e5f60718', 'hex');
/**
 * The namespace followed by a name, hashed in one call (`crypto.hash`): creating a Hash object
 * a name cost half of each id (0.5 → 0.25 s for 200,000 offer ids; a run makes one an offer,
 * product and group). Names longer than it holds are hashed the long way.
 */
const input = Buffer.alloc(4096);
NAMESPACE.copy(input);
const NAME_BYTES = input.length - NAMESPACE.length;

/** RFC 9562 version-5 UUID of a name in Shelf's namespace: the same name gives the same id on every run. */
export function stableUuid(name: string): string {
  const digest =
    name.length * 3 <= NAME_BYTES
      ? hash('sha1', input.subarray(0, NAMESPACE.length + input.write(name, NAMESPACE.length)), 'buffer')
      : createHash('sha1').update(NAMESPACE).update(name).digest();
  digest[6] = ((digest[6] ?? 0) & 0x0f) | 0x50;
  digest[8] = ((digest[8] ?? 0) & 0x3f) | 0x80;
  const h = digest.toString('hex', 0, 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
