import { describe, expect, it } from 'vitest';
import type { ProductTypeDef } from '../../content/index.js';
import type { Listing } from '../listing.js';
import { mergeSpecs } from './specs.js';

const dishwasher: ProductTypeDef = {
  slug: 'dishwasher',
  name: 'Dishwasher',
  subcategory: 'kitchen-appliances',
  google_product_category: { id: 609, path: 'Dishwashers' },
  identity_dimensions: ['width'],
  variant_dimensions: ['color'],
  specs: [
    { key: 'noise_level', label: 'Noise level', type: 'number', unit: 'dBA', aliases: ['sound rating'] },
    { key: 'width', label: 'Width', type: 'number', unit: 'in' },
    { key: 'third_rack', label: 'Third rack', type: 'boolean' },
  ],
  controlled_values: {
    color: { marketplace_handle: 'color', marketplace_name: 'Color', values: ['stainless steel', 'black'] },
  },
};

const listing = (retailer: string, rawSpecs: Record<string, string>, color: string | null = null) =>
  ({ key: `${retailer}:1`, retailer, rawSpecs, color, size: null }) as unknown as Listing;

describe('mergeSpecs', () => {
  it('maps keys by label or alias and converts units before comparing retailers', () => {
    const merged = mergeSpecs(
      [
        listing('a', { 'Sound Rating': '44 dB', WIDTH: '60.96 cm', 'Third-Rack': 'Yes' }, 'Stainless'),
        listing('b', { noise_level: '44 dBA', Width: '24"', 'Energy Star': 'Yes' }, 'stainless steel'),
        listing('c', { 'Noise Level': '48 dBA' }),
      ],
      dishwasher,
    );
    expect(merged.specs).toEqual({
      noise_level: '44 dBA',
      width: '24 in',
      third_rack: true,
      energy_star: 'Yes',
    });
    expect(merged.sources.noise_level).toEqual({
      retailers: ['a', 'b'],
      raw_values: [
        { retailer: 'a', value: '44 dB' },
        { retailer: 'b', value: '44 dBA' },
        { retailer: 'c', value: '48 dBA' },
      ],
      agreement: 0.67,
      in_schema: true,
      valid: true,
    });
    expect(merged.sources.energy_star).toMatchObject({ in_schema: false });
    expect(merged.variantAttributes).toEqual({ color: 'stainless steel' });
    expect(merged.attributes).toContainEqual({
      key: 'width',
      value: '24 in',
      numericValue: 24,
      unit: 'in',
      role: 'identity',
    });
    expect(merged.attributes).toContainEqual({
      key: 'color',
      value: 'stainless steel',
      numericValue: null,
      unit: null,
      role: 'variant',
    });
    expect(merged.attributes).toContainEqual({
      key: 'noise_level',
      value: '44 dBA',
      numericValue: 44,
      unit: 'dBA',
      role: 'spec',
    });
  });

  it('prefers a value that fits the schema over a more common one that does not', () => {
    const merged = mergeSpecs(
      [listing('a', { width: 'wide' }), listing('b', { width: 'wide' }), listing('c', { width: '24 in' })],
      dishwasher,
    );
    expect(merged.specs.width).toBe('24 in');
    expect(merged.sources.width).toMatchObject({ agreement: 0.33, valid: true });
  });
});
