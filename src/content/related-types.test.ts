import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTENT_DIR, loadContent } from './index.js';

describe('data/taxonomy/related-types.json', () => {
  it('is valid and names only product types of the binding list', () => {
    const related = loadContent().relatedTypes;
    expect(related.length).toBeGreaterThan(0);
    const slugs = new Set(
      readFileSync(join(DEFAULT_CONTENT_DIR, 'taxonomy', 'product-types.tsv'), 'utf8')
        .split('\n')
        .slice(1)
        .map((line) => line.split('\t')[0])
        .filter(Boolean),
    );
    for (const pair of related) {
      expect(slugs, pair.from).toContain(pair.from);
      expect(slugs, pair.to).toContain(pair.to);
    }
  });
});
