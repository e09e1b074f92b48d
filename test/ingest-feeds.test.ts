import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { detectFormat, readFeed, sniffFormat } from '../src/ingest/feeds/index.js';
import { normalizeRow } from '../src/ingest/listing.js';
import { FIXTURES } from './helpers/fixture-catalog.js';

const CASES = join(FIXTURES, 'feeds');

/** Reads one feed the way ingest does: rows → listings and issues, paths made relative. */
async function readCase(path: string, retailer: string) {
  const listings = [];
  const issues = [];
  for await (const row of readFeed(path)) {
    if ('error' in row) {
      issues.push({ line: row.line, severity: 'error', reason: row.error });
      continue;
    }
    const result = normalizeRow(row, retailer);
    for (const i of result.issues) issues.push({ ...i, file: basename(i.file) });
    if (result.listing) listings.push({ ...result.listing, file: basename(result.listing.file) });
  }
  return { format: await detectFormat(path), listings, issues };
}

describe('feed formats (golden files in test/fixtures/feeds/<case>/)', () => {
  const cases = readdirSync(CASES, { withFileTypes: true }).filter((d) => d.isDirectory());
  it.each(cases.map((d) => d.name))('%s reads as expected.json says', async (name) => {
    const input = readdirSync(join(CASES, name)).find((f) => f.startsWith('input.'));
    expect(input).toBeDefined();
    const result = await readCase(join(CASES, name, input!), name);
    await expect(`${JSON.stringify(result, null, 2)}\n`).toMatchFileSnapshot(
      join(CASES, name, 'expected.json'),
    );
  });
});

describe('format detection', () => {
  it.each([
    ['<?xml version="1.0"?><rss>', 'xml'],
    ['\uFEFF  [ {"id": 1} ]', 'json'],
    ['{"products": [\n{"id": 1}]}', 'json'],
    ['{"id": 1}\n{"id": 2}', 'ndjson'],
    ['{"items": [{"id": 1}]}', 'json'],
    ['id\ttitle\n1\tx', 'tsv'],
    ['id,title\n1,x', 'csv'],
    ['hello', null],
  ])('%j is %s', (head, format) => {
    expect(sniffFormat(head)).toBe(format);
  });
});

describe('feed parsers round-trip any text', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shelf-feeds-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const text = fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
    // feeds carry no control characters (XML cannot); a title is never blank
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
    .map((s) => s.replace(/[\u0000-\u001f\u007f\ufffe\uffff]/g, ' ').trim())
    .filter((s) => s.length > 0);
  const items = fc.array(fc.record({ id: fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/), title: text }), {
    minLength: 1,
    maxLength: 5,
  });
  const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const readAll = async (path: string) => {
    const rows = [];
    for await (const row of readFeed(path))
      if (!('error' in row)) rows.push({ id: row.fields.id, title: row.fields.title });
    return rows;
  };

  const cell = (s: string) => `"${s.replace(/"/g, '""')}"`;
  /** Each format: the file it is written to and how a list of items is written in it. */
  const writers: [string, string, (list: { id: string; title: string }[]) => string][] = [
    [
      'XML',
      'feed.xml',
      (list) =>
        `<rss xmlns:g="http://base.google.com/ns/1.0"><channel>${list
          .map((i) => `<item><g:id>${escapeXml(i.id)}</g:id><title>${escapeXml(i.title)}</title></item>`)
          .join('')}</channel></rss>`,
    ],
    ['NDJSON', 'feed.ndjson', (list) => list.map((i) => JSON.stringify(i)).join('\n')],
    ['JSON', 'feed.json', (list) => JSON.stringify({ items: list }, null, 1)],
    [
      'CSV',
      'feed.csv',
      (list) => `id,title\n${list.map((i) => `${cell(i.id)},${cell(i.title)}`).join('\n')}\n`,
    ],
  ];

  it.each(writers)('%s', async (_format, name, write) => {
    await fc.assert(
      fc.asyncProperty(items, async (list) => {
        const path = join(dir, name);
        writeFileSync(path, write(list));
        expect(await readAll(path)).toEqual(list);
      }),
      { numRuns: 40 },
    );
  });

  it('reads Atom entries with link elements written as href attributes', async () => {
    const path = join(dir, 'atom.xml');
    writeFileSync(
      path,
      '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:g="http://base.google.com/ns/1.0"><entry><g:id>A1</g:id><title>Atom item</title><link href="https://x.example/a1"/></entry></feed>',
    );
    const rows = [];
    for await (const row of readFeed(path)) rows.push(row);
    expect(rows).toMatchObject([{ fields: { id: 'A1', title: 'Atom item', link: 'https://x.example/a1' } }]);
  });

  it('a broken XML feed fails as a whole instead of yielding part of it', async () => {
    const path = join(dir, 'broken.xml');
    writeFileSync(path, '<rss><channel><item><g:id>1</g:id><title>a</title></item><item><title>b</titl');
    await expect(readAll(path)).rejects.toThrow();
  });
});
