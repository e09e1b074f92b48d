import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../content/index.js';
import { Classifier } from './classify.js';

const content = loadContent(join(import.meta.dirname, '../../../test/fixtures/content'));
const classifier = new Classifier(
  content.productTypes.map((def) => ({
    id: def.slug,
    slug: def.slug,
    name: def.name,
    categoryId: null,
    def,
  })),
);
const classify = (
  title: string,
  categoryPath: string | null = null,
  googleCategory: string | null = null,
) => {
  const c = classifier.classify({ title, categoryPath, googleCategory });
  return { type: c.type?.slug ?? null, confidence: c.confidence };
};

describe('Classifier', () => {
  it('takes a Google category id or path that names a type at high confidence', () => {
    expect(classify('Something', null, '609')).toEqual({ type: 'dishwasher', confidence: 0.95 });
    expect(
      classify('Something', null, 'Home & Garden > Kitchen & Dining > Kitchen Appliances > Dishwashers'),
    ).toEqual({ type: 'dishwasher', confidence: 0.95 });
  });

  it('reads the category path and the title words', () => {
    expect(classify('Bosch SHPM88Z75N', 'Appliances > Dishwashers')).toMatchObject({ type: 'dishwasher' });
    expect(classify('GE 5.0 cu ft Front Load Washer')).toMatchObject({ type: 'washer' });
    expect(classify('Samsung 65" QLED Smart TV', 'Electronics')).toMatchObject({ type: 'tv' });
  });

  it('is more confident when the category path and the title agree than on the title alone', () => {
    const both = classify('Bosch 800 Series Dishwasher', 'Kitchen > Dishwashers');
    const titleOnly = classify('Bosch 800 Series Dishwasher');
    expect(both.confidence).toBeGreaterThan(titleOnly.confidence);
    expect(titleOnly.confidence).toBeGreaterThan(0);
  });

  it('says so when nothing names a type', () => {
    expect(classify('Acme Widget 3000')).toEqual({ type: null, confidence: 0 });
  });
});
