import { describe, expect, it } from 'vitest';
import { describeInterpretation } from './search.js';

describe('describeInterpretation', () => {
  it('regression: no dollar signs on decibels or inches, and no raw objects', () => {
    const text = describeInterpretation({
      product_type: { id: '4f753743-fd3b-591d-beb8-3eab5449fa2b', slug: 'dishwasher', name: 'Dishwasher' },
      brand: null,
      price: { max: 800 },
      specs: [
        { key: 'tub_material', label: 'Tub material', value: 'stainless steel', from: 'stainless' },
        { key: 'width', label: 'Width', min: 23.28, max: 24.72, unit: 'in', from: '24 inch' },
        { key: 'noise_level', label: 'Noise level', max: 40, from: 'quiet' },
        { key: 'third_rack', label: 'Third rack', value: true, from: 'third rack' },
      ],
      leftover: [],
      mode: 'semantic',
      relaxed: ['width', 'noise_level'],
      embeddings: 'builtin',
    });
    expect(text).toBe(
      'product_type=Dishwasher, price=≤ $800, specs=Tub material stainless steel; Width 23.28–24.72 in; Noise level ≤ 40; Third rack, mode=semantic, relaxed=width; noise_level',
    );
    expect(text).not.toMatch(/\$(23|24|40)|\[object|\{|4f753743/);
  });

  it('shows a price range with dollars', () => {
    expect(describeInterpretation({ price: { min: 200, max: 500 } })).toBe('price=$200–$500');
  });

  it('shows the types considered with confidence and why, at most three', () => {
    const type = (name: string, confidence: number, matched: string[]) => ({
      id: name,
      slug: name.toLowerCase(),
      name,
      confidence,
      matched,
    });
    const text = describeInterpretation({
      product_type: null,
      types: [
        type('Humidifier', 0.8234, [
          'dry → dry air (problems)',
          'night → bedroom (places)',
          'kids → children (users)',
        ]),
        type('Air purifier', 0.09, ['room → bedroom (places)']),
        type('Dehumidifier', 0.05, []),
        type('Space heater', 0.01, ['night → bedtime (needs)']),
      ],
    });
    expect(text).toBe(
      'types=Humidifier 0.82 (dry → dry air (problems); night → bedroom (places)); Air purifier 0.09 (room → bedroom (places)); Dehumidifier 0.05',
    );
  });
});
