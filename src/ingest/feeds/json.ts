import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import StreamChain from 'stream-chain';
import StreamJson from 'stream-json';
import PickModule from 'stream-json/filters/Pick.js';
import StreamArrayModule from 'stream-json/streamers/StreamArray.js';
import { normalizeAttributeName } from './attribute-names.js';
import type { BadRow, DetailEntry, RawRow } from './types.js';

const { chain } = StreamChain;
const { parser } = StreamJson;
const { pick } = PickModule;
const { streamArray } = StreamArrayModule;

const scalar = (v: unknown): string | null => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'object' && !Array.isArray(v)) {
    // Content API prices: {"value": "12.00", "currency": "USD"}
    const o = v as Record<string, unknown>;
    if ('value' in o) return [scalar(o.value), scalar(o.currency)].filter(Boolean).join(' ');
  }
  return null;
};

function details(value: unknown): DetailEntry[] {
  if (typeof value === 'string') return [];
  if (Array.isArray(value))
    return value.flatMap((d) => {
      if (!d || typeof d !== 'object') return [];
      const o = Object.fromEntries(Object.entries(d).map(([k, v]) => [normalizeAttributeName(k), scalar(v)]));
      const entry = {
        section: o.section_name ?? '',
        name: o.attribute_name ?? '',
        value: o.attribute_value ?? '',
      };
      return entry.name && entry.value ? [entry] : [];
    });
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([name, v]) => {
      const s = scalar(v);
      return s ? [{ section: '', name, value: s }] : [];
    });
  return [];
}

/** One JSON item → a raw row: attribute names normalized, product_detail as entries. */
export function jsonItemToRow(item: unknown, file: string, line: number): RawRow | BadRow {
  if (!item || typeof item !== 'object' || Array.isArray(item))
    return { file, line, error: 'item is not a JSON object' };
  const fields: Record<string, string> = {};
  let entries: DetailEntry[] = [];
  for (const [key, value] of Object.entries(item)) {
    const name = normalizeAttributeName(key);
    if (name === 'product_detail') {
      entries = details(value);
      if (typeof value === 'string') fields.product_detail = value;
      continue;
    }
    // arrays (product_types, additional_image_links) keep their first value
    const s = scalar(Array.isArray(value) ? value[0] : value);
    if (s !== null && !(name in fields)) fields[name] = s;
  }
  return { file, line, fields, details: entries };
}

/** Streams an NDJSON feed: one item per line; a line that is not JSON is reported as a bad row. */
export async function* readNdjson(path: string): AsyncGenerator<RawRow | BadRow> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      yield { file: path, line: n, error: `not JSON: ${(e as Error).message}` };
      continue;
    }
    yield jsonItemToRow(value, path, n);
  }
}

/**
 * Streams a JSON feed: a top-level array of items, or an object whose `products`, `items`
 * or `entries` member is that array. Only one item is in memory at a time.
 */
export async function* readJsonArray(path: string, topLevelArray: boolean): AsyncGenerator<RawRow | BadRow> {
  const stages: unknown[] = [createReadStream(path), parser()];
  if (!topLevelArray) stages.push(pick({ filter: /^(products|items|entries|resources)$/ }));
  stages.push(streamArray());
  const pipeline = chain(stages as ConstructorParameters<typeof StreamChain>[0]);
  for await (const { key, value } of pipeline as AsyncIterable<{ key: number; value: unknown }>)
    yield jsonItemToRow(value, path, key + 1);
}
