import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyStore } from './key-store.js';
import { generateKey, KEY_PATTERN } from './keys.js';

describe('API keys', () => {
  it('have the documented format for all four kinds', () => {
    for (const type of ['secret', 'publishable'] as const) {
      for (const env of ['live', 'test'] as const) {
        const { key } = generateKey({ type, env, plan: 'free' });
        expect(key).toMatch(KEY_PATTERN);
        expect(key.startsWith(`${type === 'secret' ? 'sk' : 'pk'}_shelf_${env}_`)).toBe(true);
      }
    }
  });

  it('are stored hashed, authenticate until revoked', () => {
    const store = new KeyStore(mkdtempSync(join(tmpdir(), 'shelf-keys-')));
    const { key, record } = store.create({ type: 'secret', env: 'live', plan: 'starter' });
    const stored = store.db.prepare('SELECT * FROM api_keys').get() as Record<string, unknown>;
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(store.authenticate(key)?.id).toBe(record.id);
    expect(store.authenticate(`${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`)).toBeNull();
    expect(store.revoke(record.id)).toBe(true);
    expect(store.authenticate(key)).toBeNull();
    store.close();
  });

  it('forget a key revoked by another process once the current event-loop turn ends', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shelf-keys-'));
    const server = new KeyStore(dir);
    const cli = new KeyStore(dir);
    const { key, record } = cli.create({ type: 'secret', env: 'live', plan: 'pro' });
    await new Promise(setImmediate);
    expect(server.authenticate(key)?.plan).toBe('pro');
    cli.setPlan(record.id, 'starter');
    await new Promise(setImmediate);
    expect(server.authenticate(key)?.plan).toBe('starter');
    cli.revoke(record.id);
    await new Promise(setImmediate);
    expect(server.authenticate(key)).toBeNull();
    server.close();
    cli.close();
  });
});
