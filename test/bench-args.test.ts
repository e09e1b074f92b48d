import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BenchArgError, intArg, parseBenchArgs } from '../bench/args.js';

const OPTIONS = { products: { value: 'N' }, 'data-dir': { value: 'DIR' }, json: { flag: true } } as const;
const parse = (argv: string[]) => parseBenchArgs('npm run bench --', OPTIONS, argv);

describe('bench arguments', () => {
  it('reads `--products 3000` as `--products=3000` (the space form was silently ignored)', () => {
    expect(parse(['--products', '3000']).products).toBe('3000');
    expect(parse(['--products=3000']).products).toBe('3000');
    expect(parse(['--data-dir', '.shelf-x', '--json'])).toEqual({
      products: undefined,
      'data-dir': '.shelf-x',
      json: true,
    });
  });

  it('refuses an unknown flag, naming it and the flags the bench takes', () => {
    expect(() => parse(['--product', '3000'])).toThrow(BenchArgError);
    expect(() => parse(['--product', '3000'])).toThrow(/--product\b[\s\S]*usage: .*--products N/);
    expect(() => parse(['3000'])).toThrow(BenchArgError);
    expect(() => parse(['--products'])).toThrow(BenchArgError);
  });

  it('takes whole numbers only, with the option named in the message', () => {
    expect(intArg('products', undefined, 35_000)).toBe(35_000);
    expect(intArg('products', '140000', 35_000)).toBe(140_000);
    for (const bad of ['', '3e3', '-1', '1.5', 'abc', '0x10'])
      expect(() => intArg('products', bad, 1)).toThrow(/--products must be a whole number/);
    expect(() => intArg('rounds', '0', 3, 1)).toThrow(/≥ 1/);
  });

  it('reads any value the same in both forms', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((v) => !v.startsWith('-')),
        (value) => {
          expect(parse(['--data-dir', value])['data-dir']).toBe(value);
          expect(parse([`--data-dir=${value}`])['data-dir']).toBe(value);
        },
      ),
    );
  });

  it('never throws anything but a BenchArgError on arbitrary arguments', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (argv) => {
        try {
          parse(argv);
        } catch (error) {
          expect(error).toBeInstanceOf(BenchArgError);
        }
      }),
    );
  });
});
