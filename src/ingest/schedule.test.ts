import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSources, SourcesError } from './schedule.js';

describe('loadSources', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shelf-sources-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (value: unknown) => {
    const file = join(dir, 'sources.json');
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
    return file;
  };

  it('resolves relative paths against the file and keeps URLs', () => {
    const file = write({
      at: '05:30',
      feeds: [
        { retailer: 'North Gate', source: 'feeds/north.tsv' },
        { retailer: 'volt', source: 'https://feeds.example/volt.xml' },
      ],
    });
    expect(loadSources(file)).toEqual({
      at: '05:30',
      feeds: [
        { retailer: 'north-gate', source: join(dir, 'feeds/north.tsv') },
        { retailer: 'volt', source: 'https://feeds.example/volt.xml' },
      ],
    });
  });

  it.each([
    ['not json', '{'],
    ['no feeds', { feeds: [] }],
    ['a bad time', { at: '25:00', feeds: [{ retailer: 'a', source: 'a.tsv' }] }],
  ])('rejects %s', (_, value) => {
    expect(() => loadSources(write(value))).toThrow(SourcesError);
  });
});
