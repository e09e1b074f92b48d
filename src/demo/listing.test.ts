import { describe, expect, it } from 'vitest';
import { loadContent } from '../content/index.js';
import { renderTitle } from './listing.js';
import { planProducts } from './plan.js';
import { Random } from './random.js';

const content = loadContent();
const retailer = content.retailers[0]!;
const style = (titleStyle: string) => ({
  retailer,
  titleStyle,
  metric: false,
  format: 'tsv' as const,
  factor: 1,
  categories: [],
});

describe('listing titles', () => {
  it('regression: a feature that is also a color keeps its noun ("Stainless Steel Dishwasher - White" read as two colors)', () => {
    const products = planProducts(content, new Random(7), 12_000).filter(
      (p) => p.type.slug === 'dishwasher' && p.specs.tub_material === 'stainless steel',
    );
    expect(products.length).toBeGreaterThan(0);
    for (const p of products) {
      const title = renderTitle(p, style('brand-first'), new Random(1));
      if (/stainless steel/i.test(title.replace(/ - .*$/, '').replace(/\(.*\)/, '')))
        expect(title, title).toMatch(/Stainless Steel Tub/);
    }
  });
});
