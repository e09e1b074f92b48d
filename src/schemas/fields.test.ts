import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allowedFields,
  describeFields,
  FieldsArray,
  FieldsParam,
  fieldTree,
  parseFieldList,
  project,
  resolvePath,
} from './fields.js';
import { Product } from './product.js';

const NAME = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/);
const PATH = fc.array(NAME, { minLength: 1, maxLength: 3 }).map((names) => names.join('.'));
const SPACE = fc.constantFrom('', ' ', '  ');
const pattern = (schema: unknown) => new RegExp((schema as { pattern: string }).pattern);

describe('parseFieldList', () => {
  it('reads back the paths joined by commas with any spacing, repeats removed, order kept', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(PATH, SPACE, SPACE), { minLength: 1, maxLength: 12 }), (items) => {
        const text = items.map(([path, before, after]) => `${before}${path}${after}`).join(',');
        const expected = [...new Set(items.map(([path]) => path))];
        expect(parseFieldList(text)).toEqual(expected);
        expect(parseFieldList(items.map(([path]) => path))).toEqual(expected);
        // the query parameter's pattern takes exactly such text
        expect(pattern(FieldsParam).test(text)).toBe(true);
      }),
    );
  });

  it('never throws; answers trimmed, non-empty, distinct entries without commas; is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        const paths = parseFieldList(text);
        for (const path of paths) {
          expect(path).toBe(path.trim());
          expect(path).not.toBe('');
          expect(path).not.toContain(',');
        }
        expect(new Set(paths).size).toBe(paths.length);
        expect(parseFieldList(paths.join(','))).toEqual(paths);
      }),
    );
  });

  it('the patterns refuse what is not a path list (empty names, stray dots, other characters)', () => {
    for (const bad of ['', ',', 'a,,b', 'a.', '.a', 'a..b', 'a b', 'offers[0]', 'name;drop', '1abc'])
      expect([bad, pattern(FieldsParam).test(bad)]).toEqual([bad, false]);
    const item = pattern(FieldsArray.items);
    expect(item.test('offers.price')).toBe(true);
    expect(item.test('offers.price,name')).toBe(false);
  });
});

describe('fieldTree + project', () => {
  const product = {
    id: 'p1',
    name: 'Quiet dishwasher',
    brand: { id: 'b1', name: 'Bosch' },
    offers: [
      { retailer_name: 'A', price: 10, in_stock: true },
      { retailer_name: 'B', price: 12, in_stock: false },
    ],
    specifications: { noise_level: 44, width: 24 },
    category: null,
  };

  it('keeps only the chosen fields, through arrays to each element, in the value’s order', () => {
    const tree = fieldTree(['offers.price', 'specifications.noise_level', 'name', 'category', 'brand.name']);
    expect(project(product, tree)).toEqual({
      name: 'Quiet dishwasher',
      brand: { name: 'Bosch' },
      offers: [{ price: 10 }, { price: 12 }],
      specifications: { noise_level: 44 },
      category: null,
    });
    expect(Object.keys(project(product, tree) as object)).toEqual([
      'name',
      'brand',
      'offers',
      'specifications',
      'category',
    ]);
  });

  it('names such as __proto__ and constructor are plain keys: nothing is polluted, nothing inherited is chosen', () => {
    const tree = fieldTree(['__proto__.polluted', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(tree).sort()).toEqual(['__proto__', 'constructor']);
    expect(project({ id: 'x', toString: 'own' }, fieldTree(['id']))).toEqual({ id: 'x' });
    expect(resolvePath(Product, 'constructor')).toBeNull();
    expect(resolvePath(Product, '__proto__.x')).toBeNull();
  });

  it('a whole field wins over parts of it, in either order; absent fields stay absent', () => {
    expect(fieldTree(['offers.price', 'offers'])).toEqual({ offers: true });
    expect(fieldTree(['offers', 'offers.price'])).toEqual({ offers: true });
    expect(project(product, fieldTree(['signals.price_trend', 'id']))).toEqual({ id: 'p1' });
  });

  it('every key of a projection was chosen, and choosing every field gives the value back', () => {
    const json = fc.dictionary(NAME, fc.oneof(fc.integer(), fc.string(), fc.dictionary(NAME, fc.integer())));
    fc.assert(
      fc.property(json, fc.array(PATH, { maxLength: 6 }), (value, paths) => {
        const tree = fieldTree(paths);
        const out = project(value, tree) as Record<string, unknown>;
        for (const key of Object.keys(out)) expect(tree[key]).toBeDefined();
        expect(project(value, fieldTree(Object.keys(value)))).toEqual(value);
      }),
    );
  });
});

describe('resolvePath against the Product schema', () => {
  it('finds fields, fields of objects and of array elements, keys of free-form objects', () => {
    for (const path of [
      'id',
      'offers.price',
      'brand.name',
      'product_group.variant_dimensions',
      'variants.name',
    ])
      expect([path, resolvePath(Product, path)]).toEqual([path, { free: [] }]);
    expect(resolvePath(Product, 'specifications.noise_level')).toEqual({
      free: ['specifications', 'noise_level'],
    });
    expect(resolvePath(Product, 'variants.specifications.width')).toEqual({
      free: ['variants.specifications', 'width'],
    });
    for (const path of ['price', 'offers.cost', 'name.first', 'brand.profile', 'offers.price.amount'])
      expect([path, resolvePath(Product, path)]).toEqual([path, null]);
  });

  it('lists what is allowed, short', () => {
    const allowed = allowedFields(Product);
    expect(allowed).toContain('offers.price');
    expect(allowed).toContain('specifications.<key>');
    expect(describeFields(allowed)).toContain('brand, brand.{id,name,');
  });
});
