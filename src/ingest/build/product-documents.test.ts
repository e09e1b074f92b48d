import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serializeProduct } from '../../catalog/index.js';
import type { Product } from '../../schemas/index.js';
import { splicesAsStored, withSpecSources } from './product-documents.js';

const base = (text: string, free: Record<string, unknown>): Product => ({
  id: '0784589b-e0e2-53f3-9a86-1bd6472a16eb',
  name: text,
  slug: 'kettle',
  description: text,
  gtin: null,
  mpn: 'K1',
  model_number: null,
  current_best_price: 10.5,
  min_price: 10.5,
  max_price: 12,
  avg_price: 11.25,
  image_url: null,
  variant_attributes: free,
  specifications: free,
  data: free,
  quality_score: 0.9,
  data_tier: 1,
  source_type: 'retailer_feed',
  product_group_id: null,
  created_at: '2026-11-21T12:00:00.000Z',
  updated_at: '2026-11-21T12:00:00.000Z',
  brand: null,
  category: null,
  product_type: null,
  product_group: null,
  _naming_method: text,
  _naming_confidence: null,
  _category_profile_key: null,
  _spec_sources: {},
  _quality_breakdown: {
    completeness: 1,
    validity: 0.5,
    confidence: 0.93,
    crossValidation: 1,
    attributeScore: 0,
    nameScore: 0.86,
    knowledgeScore: 1,
  },
});

/** Text that may look like the document's own keys, with quotes, escapes and line terminators. */
const hostile = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '"_spec_sources":{},"_quality_breakdown":',
    '_spec_sources',
    '\u2028',
    'a\nb',
    '\\',
    '"',
    '\ud800',
    '😀',
  ),
);
const freeObject = fc.oneof(
  fc.dictionary(hostile, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
  // the document's own ending, as a free object's keys
  fc.constant({ _spec_sources: {}, _quality_breakdown: { completeness: 1 } }),
);
/** Spec sources as the write phase stores them: plain keys and values */
const plainSources = fc.dictionary(
  fc.stringMatching(/^[a-z0-9_ ]{1,12}$/),
  fc.record({
    retailers: fc.array(fc.stringMatching(/^[a-z-]{1,10}$/), { maxLength: 3 }),
    agreement: fc.double({ noNaN: true, noDefaultInfinity: true }),
    valid: fc.boolean(),
  }),
  { maxKeys: 6 },
);

describe('product documents: spec sources spliced in as stored', () => {
  it('give the JSON the serializer writes for the parsed spec sources, whenever they splice', () => {
    fc.assert(
      fc.property(hostile, freeObject, fc.oneof(freeObject, plainSources), (text, free, sources) => {
        const stored = JSON.stringify(sources);
        const product = base(text, free);
        const whole = serializeProduct({ ...product, _spec_sources: JSON.parse(stored) });
        if (splicesAsStored(stored)) expect(withSpecSources(serializeProduct(product), stored)).toBe(whole);
      }),
      { numRuns: 2000 },
    );
  });

  it('splice the spec sources the write phase stores (plain keys and values)', () => {
    fc.assert(
      fc.property(plainSources, (sources) => {
        expect(splicesAsStored(JSON.stringify(sources))).toBe(true);
      }),
    );
  });

  it('leave to the serializer spec sources with a line terminator (it skips such keys)', () => {
    for (const key of ['a\nb', 'a\rb', 'line\u2028sep', 'para\u2029sep'])
      expect(splicesAsStored(JSON.stringify({ [key]: 1 }))).toBe(false);
    expect(splicesAsStored('[1]')).toBe(false);
    // quotes, backslashes and lone surrogates it escapes as JSON.stringify does
    for (const key of ['36" wide', 'back\\slash', '\ud800', 'tab\there'])
      expect(splicesAsStored(JSON.stringify({ [key]: 'a "b"' }))).toBe(true);
  });
});
