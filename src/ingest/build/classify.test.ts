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

describe('Classifier with a Google category shared by sibling types', () => {
  const sibling = (slug: string, name: string, synonyms: string[]) => ({
    id: slug,
    slug,
    name,
    categoryId: null,
    def: {
      ...content.productTypes[0]!,
      slug,
      name,
      synonyms,
      google_product_category: { id: 619, path: 'Home & Garden > Household Appliances > Vacuums' },
    },
  });
  const siblings = new Classifier([
    sibling('robot-vacuum', 'Robot Vacuum', ['robovac']),
    sibling('upright-vacuum', 'Upright Vacuum', []),
    sibling('wet-dry-vacuum', 'Wet/Dry Vacuum', ['shop vac']),
  ]);
  const typeOf = (title: string, categoryPath: string | null, google: string | null) =>
    siblings.classify({ title, categoryPath, googleCategory: google });

  it('regression: a shared Google category id no longer outweighs the title (robot vacuums typed wet-dry)', () => {
    for (const google of ['619', 'Home & Garden > Household Appliances > Vacuums']) {
      expect(typeOf('iRobot Roomba j7+ Robot Vacuum', null, google).type?.slug).toBe('robot-vacuum');
      expect(typeOf('Shark Navigator Upright Vacuum NV352', null, google).type?.slug).toBe('upright-vacuum');
      expect(typeOf('Shop-Vac 5 gal Wet/Dry Vacuum', null, google).type?.slug).toBe('wet-dry-vacuum');
      expect(typeOf('Shark AZ2002', 'Floor Care > Upright Vacuums', google).type?.slug).toBe(
        'upright-vacuum',
      );
    }
  });

  it('is confident only as far as the words separate the siblings', () => {
    const clear = typeOf('iRobot Roomba j7+ Robot Vacuum', 'Floor Care > Robot Vacuums', '619');
    expect(clear.confidence).toBeGreaterThan(0.5);
    const blind = typeOf('iRobot j7', null, '619');
    expect(blind.confidence).toBeLessThan(0.5);
    expect(blind.type).not.toBeNull();
  });

  it('still takes a Google category that only one type has at 0.95', () => {
    expect(classify('Something', null, '609')).toEqual({ type: 'dishwasher', confidence: 0.95 });
  });
});
