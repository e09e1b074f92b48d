import { parseArgs } from 'node:util';

/**
 * Command-line options of the benches: `--name value` and `--name=value` alike (node:util
 * parseArgs), and an unknown flag or a stray word stops the bench with a message naming it
 * and the flags it takes. Before, `--products 3000` was silently ignored and the bench built
 * the 35k demo instead.
 */
export interface BenchOption {
  /** what the value means, shown in the usage line */
  value?: string;
  /** a flag without a value (`--json`) */
  flag?: boolean;
}

export type BenchArgs<T extends Record<string, BenchOption>> = {
  [K in keyof T]: T[K]['flag'] extends true ? boolean : string | undefined;
};

export function parseBenchArgs<T extends Record<string, BenchOption>>(
  command: string,
  options: T,
  argv: string[],
): BenchArgs<T> {
  const usage = `usage: ${command} ${Object.entries(options)
    .map(([name, o]) => (o.flag ? `[--${name}]` : `[--${name} ${o.value ?? 'VALUE'}]`))
    .join(' ')}`;
  try {
    const { values } = parseArgs({
      args: argv,
      options: Object.fromEntries(
        Object.entries(options).map(([name, o]) => [name, { type: o.flag ? 'boolean' : 'string' }]),
      ) as Record<string, { type: 'boolean' | 'string' }>,
      strict: true,
      allowPositionals: false,
    });
    const out: Record<string, string | boolean | undefined> = {};
    for (const [name, o] of Object.entries(options))
      out[name] = o.flag ? values[name] === true : values[name];
    return out as BenchArgs<T>;
  } catch (error) {
    throw new BenchArgError(`${(error as Error).message}\n${usage}`);
  }
}

/** A whole number ≥ `min` from an option, or `fallback` when it was not given. */
export function intArg(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min)
    throw new BenchArgError(`--${name} must be a whole number ≥ ${min}, got "${value}"`);
  return n;
}

/** The options of every bench that builds the demo and starts `shelf serve`. */
export const SERVER_BENCH_OPTIONS = {
  products: { value: 'N' },
  'data-dir': { value: 'DIR' },
  'ready-timeout': { value: 'S' },
} as const satisfies Record<string, BenchOption>;

/** Their values: 35,000 products and a 300-second readiness wait unless given. */
export function serverBenchArgs(a: BenchArgs<typeof SERVER_BENCH_OPTIONS>): {
  products: number;
  dataDir: string | undefined;
  readyTimeout: number;
} {
  return {
    products: intArg('products', a.products, 35_000, 1),
    dataDir: a['data-dir'],
    readyTimeout: intArg('ready-timeout', a['ready-timeout'], 300, 1),
  };
}

export class BenchArgError extends Error {}

/**
 * `parse` over this process's arguments; an argument error is printed with the usage line
 * and the bench exits with code 2 before it builds or starts anything.
 */
export function benchArgs<R>(parse: (argv: string[]) => R): R {
  try {
    return parse(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof BenchArgError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}
