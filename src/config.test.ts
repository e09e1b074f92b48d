import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

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
});
