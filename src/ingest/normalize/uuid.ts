import { createHash } from 'node:crypto';

const NAMESPACE = Buffer.from('6f1a0c3e9b2d4e5fa1b2c3d4e5f60718', 'hex');

/** RFC 9562 version-5 UUID of a name in Shelf's namespace: the same name gives the same id on every run. */
export function stableUuid(name: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(name).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const h = hash.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
