import { createReadStream } from 'node:fs';
import { SaxesParser } from 'saxes';
import { normalizeAttributeName } from './attribute-names.js';
import type { DetailEntry, RawRow } from './types.js';

/**
 * Streams a Merchant Center XML feed (RSS 2.0 `<item>` or Atom `<entry>`, attributes in the
 * `g:` namespace) item by item. Each item's child elements become fields; `g:product_detail`
 * elements become structured detail entries. Memory stays flat: only the current item is held.
 */
export async function* readXml(path: string): AsyncGenerator<RawRow> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const ready: RawRow[] = [];
  let item: RawRow | null = null;
  let detail: Record<string, string> | null = null;
  let field: string | null = null;
  let text = '';
  let depth = 0;
  let itemDepth = -1;
  let error: Error | null = null;

  parser.on('opentag', (tag) => {
    depth++;
    const local = tag.name.replace(/^[^:]+:/, '');
    if (!item && (local === 'item' || local === 'entry')) {
      item = { file: path, line: parser.line, fields: {}, details: [] };
      itemDepth = depth;
    } else if (item && depth === itemDepth + 1) {
      field = normalizeAttributeName(tag.name);
      // Atom writes links as <link href="…"/>
      const href = (tag.attributes as Record<string, string>).href;
      text = typeof href === 'string' ? href : '';
      if (field === 'product_detail') detail = {};
    } else if (item && detail && depth === itemDepth + 2) {
      field = normalizeAttributeName(tag.name);
      text = '';
    }
  });
  parser.on('text', (t) => {
    if (field) text += t;
  });
  parser.on('cdata', (t) => {
    if (field) text += t;
  });
  parser.on('closetag', () => {
    if (item && detail && depth === itemDepth + 2 && field) {
      detail[field] = text.trim();
      field = 'product_detail';
    } else if (item && depth === itemDepth + 1 && field) {
      if (field === 'product_detail' && detail) {
        const entry: DetailEntry = {
          section: detail.section_name ?? '',
          name: detail.attribute_name ?? '',
          value: detail.attribute_value ?? '',
        };
        if (entry.name && entry.value) item.details?.push(entry);
        detail = null;
      } else if (!(field in item.fields)) {
        // repeated attributes (additional_image_link, shipping) keep their first value
        item.fields[field] = text.trim();
      }
      field = null;
    } else if (item && depth === itemDepth) {
      ready.push(item);
      item = null;
    }
    depth--;
  });
  parser.on('error', (e) => {
    error ??= e;
  });

  for await (const chunk of createReadStream(path, { encoding: 'utf8' })) {
    parser.write(chunk as string);
    if (error) throw error;
    yield* ready.splice(0);
  }
  parser.close();
  if (error) throw error;
  yield* ready.splice(0);
}
