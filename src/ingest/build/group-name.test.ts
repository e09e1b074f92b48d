import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GroupMember, groupName } from './group-name.js';

const member = (name: string, more: Partial<GroupMember> = {}): GroupMember => ({
  name,
  brand: null,
  type: null,
  seriesName: null,
  ...more,
});
const bosch = { name: 'Bosch' };
const dishwasher = { name: 'Dishwasher' };
/** What a Bosch dishwasher of one series carries beside its title. */
const boschDishwasher = (seriesName: string) => ({ brand: bosch, type: dishwasher, seriesName });

describe('groupName', () => {
  it('names a group with a base model by brand, series, base model and type', () => {
    const members = [
      member('Bosch 800 Series SHPM88Z75N Dishwasher', boschDishwasher('800 Series')),
      member('Bosch 800 Series SHPM88Z72N Dishwasher', boschDishwasher('800 Series')),
    ];
    expect(groupName(members, { baseModel: 'SHPM88Z7', seriesName: null })).toBe(
      'Bosch 800 Series SHPM88Z7 Dishwasher',
    );
  });

  it('keeps a common title prefix of two words or more', () => {
    const members = [member('Sonos Era 100 Speaker Black'), member('Sonos Era 100 Speaker White')];
    expect(groupName(members, { baseModel: null, seriesName: null })).toBe('Sonos Era 100 Speaker');
  });

  it('regression: without a shared title prefix, names the group from what the members share, not after one member', () => {
    const members = [
      member('Black Bosch 300 Series Dishwasher', boschDishwasher('300 Series')),
      member('Stainless Bosch 300 Series Dishwasher', boschDishwasher('300 Series')),
    ];
    expect(groupName(members, { baseModel: null, seriesName: null })).toBe('Bosch 300 Series Dishwasher');
    // a one-word listing prefix (the brand alone) says too little
    expect(groupName(members, { baseModel: null, seriesName: 'Bosch' })).toBe('Bosch 300 Series Dishwasher');
  });

  it('leaves out what the members do not share', () => {
    const members = [
      member('Midnight Acme Kettle', { brand: { name: 'Acme' }, type: { name: 'Kettle' } }),
      member('Snow Acme Kettle', { brand: { name: 'Acme' }, type: { name: 'Electric Kettle' } }),
    ];
    expect(groupName(members, { baseModel: null, seriesName: null })).toBe('Acme Kettle');
  });

  it('is never the name of one member when each member has a word of its own', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/);
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 5 }),
        fc.option(fc.constantFrom('Bosch', 'LG')),
        fc.option(fc.constantFrom('Dishwasher', 'Television')),
        (titles, brand, type) => {
          const names = titles.map((t) => t.join(' '));
          // every member has a word of its own (else its whole name is what they share)
          const words = names.map((n) => new Set(n.toLowerCase().split(' ')));
          fc.pre(
            words.every((own, i) =>
              words.every((other, j) => i === j || [...own].some((w) => !other.has(w))),
            ),
          );
          const members = names.map((n) =>
            member(n, { brand: brand ? { name: brand } : null, type: type ? { name: type } : null }),
          );
          const name = groupName(members, { baseModel: null, seriesName: null });
          expect(name.length).toBeGreaterThan(0);
          expect(names).not.toContain(name);
        },
      ),
    );
  });
});
