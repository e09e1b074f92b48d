import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { PlanId } from './plans.js';
import { normalizeOrigin } from './scope.js';

export type KeyType = 'secret' | 'publishable';
export type KeyEnv = 'live' | 'test';

/** A key as stored: never the key itself, only its SHA-256 and last four characters. */
export interface ApiKeyRecord {
  id: string;
  prefix: string;
  last4: string;
  type: KeyType;
  env: KeyEnv;
  plan: PlanId;
  name: string | null;
  allowedOrigins: string[];
  createdAt: string;
  revokedAt: string | null;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** `sk|pk` + `_shelf_` + `live|test` + `_` + 32 base62 characters. */
export const KEY_PATTERN = /^(sk|pk)_shelf_(live|test)_[0-9A-Za-z]{32}$/;

export const keyPrefix = (type: KeyType, env: KeyEnv): string =>
  `${type === 'secret' ? 'sk' : 'pk'}_shelf_${env}_`;

/** 32 base62 characters from a CSPRNG, without modulo bias (rejection sampling). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** A new key and the record to store for it; the key itself is shown once and never stored. */
export function generateKey(args: {
  type: KeyType;
  env: KeyEnv;
  plan: PlanId;
  name?: string | null;
  allowedOrigins?: string[];
}): {
  key: string;
  record: ApiKeyRecord;
  hash: string;
} {
  const allowedOrigins = (args.allowedOrigins ?? []).map((o) => {
    const origin = normalizeOrigin(o);
    if (!origin) throw new Error(`'${o}' is not an Origin (scheme://host[:port])`);
    return origin;
  });
  const prefix = keyPrefix(args.type, args.env);
  const key = prefix + randomBase62(32);
  return {
    key,
    hash: hashKey(key),
    record: {
      id: randomUUID(),
      prefix,
      last4: key.slice(-4),
      type: args.type,
      env: args.env,
      plan: args.plan,
      name: args.name ?? null,
      allowedOrigins: [...new Set(allowedOrigins)],
      createdAt: new Date().toISOString(),
      revokedAt: null,
    },
  };
}
