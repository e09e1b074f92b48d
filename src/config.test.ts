import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configHelp, loadConfig, loadDotEnv } from './config.js';

const errorOf = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an invalid configuration');
};

describe('loadConfig', () => {
  it('regression: a bad LOG_LEVEL is reported once, with the allowed levels (was seven times, none named)', () => {
    const message = errorOf({ LOG_LEVEL: 'loud' });
    expect(message.match(/LOG_LEVEL/g)).toHaveLength(1);
    expect(message).toContain('one of: fatal, error, warn, info, debug, trace, silent');
    expect(message).toContain('"loud"');
    expect(message).not.toContain('constant');
  });

  it('names every bad setting once and says the range', () => {
    const message = errorOf({ PORT: '70000', SHELF_CACHE_MAX_ENTRIES: 'many' });
    expect(message).toContain('PORT must be an integer from 0 to 65535');
    expect(message).toContain('SHELF_CACHE_MAX_ENTRIES must be an integer of at least 0');
  });

  it('takes the defaults', () => {
    expect(loadConfig({}).LOG_LEVEL).toBe('info');
  });

  it('regression: .env.example gives the same defaults as the configuration (SHELF_CACHE_MAX_ENTRIES said 5000)', () => {
    const example = readFileSync(join(import.meta.dirname, '../.env.example'), 'utf8');
    const shown = new Map<string, string>();
    for (const line of example.split('\n')) {
      const m = /^#?\s*([A-Z_]+)=(\S*)/.exec(line);
      if (m && !line.includes('(example')) shown.set(m[1]!, m[2]!);
    }
    for (const { name, default: value } of configHelp) {
      if (name === 'NODE_ENV' || value === undefined) continue;
      expect(shown.get(name), name).toBe(String(value));
    }
  });

  it('regression: loads .env (nothing did), the environment winning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shelf-env-'));
    try {
      const file = join(dir, '.env');
      writeFileSync(file, 'LOG_LEVEL=debug\nPORT=4100\n');
      const env: Record<string, string> = { PORT: '4200' };
      expect(loadDotEnv(file, env)).toBe(true);
      expect(env).toEqual({ LOG_LEVEL: 'debug', PORT: '4200' });
      expect(loadConfig(env)).toMatchObject({ LOG_LEVEL: 'debug', PORT: 4200 });
      expect(loadDotEnv(join(dir, 'missing.env'), env)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
