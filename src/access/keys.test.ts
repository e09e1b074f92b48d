import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY_RECHECK_MS, KeyStore } from './key-store.js';
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

  it('forget a key revoked or re-planned by another process within KEY_RECHECK_MS', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shelf-keys-'));
    let now = 1_000_000;
    const server = new KeyStore(dir, { now: () => now });
    const cli = new KeyStore(dir);
    const { key, record } = cli.create({ type: 'secret', env: 'live', plan: 'pro' });
    // a key created elsewhere works on its first request: it is not remembered yet
    expect(server.authenticate(key)?.plan).toBe('pro');
    cli.setPlan(record.id, 'starter');
    now += KEY_RECHECK_MS;
    expect(server.authenticate(key)?.plan).toBe('starter');
    cli.revoke(record.id);
    // within the bound the remembered record may still answer; at the bound it no longer does
    now += KEY_RECHECK_MS - 1;
    expect(server.authenticate(key)?.id).toBe(record.id);
    now += 1;
    expect(server.authenticate(key)).toBeNull();
    server.close();
    cli.close();
  });

  it('stop a revoked key within KEY_RECHECK_MS of real time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shelf-keys-'));
    const server = new KeyStore(dir);
    const cli = new KeyStore(dir);
    const { key, record } = cli.create({ type: 'secret', env: 'test', plan: 'free' });
    expect(server.authenticate(key)?.id).toBe(record.id);
    cli.revoke(record.id);
    await new Promise((done) => setTimeout(done, KEY_RECHECK_MS + 5));
    expect(server.authenticate(key)).toBeNull();
    server.close();
    cli.close();
  });

  it('refuse malformed keys whatever is remembered', () => {
    const store = new KeyStore(mkdtempSync(join(tmpdir(), 'shelf-keys-')));
    const { key } = store.create({ type: 'secret', env: 'live', plan: 'free' });
    expect(store.authenticate(key)).not.toBeNull();
    for (const bad of [`${key} `, key.slice(0, -1), `${key}x`, '', key.toUpperCase()])
      expect(store.authenticate(bad)).toBeNull();
    store.close();
  });
});
