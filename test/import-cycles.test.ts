import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Relative imports of a file (type-only ones too: they still tie the modules together), as file paths. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name.replace(/\.js$/, '.ts')));
}

/** Strongly connected components of more than one file (Tarjan): each is an import cycle. */
function importCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return cycles;
}

describe('module seams of src/', () => {
  it('finds a cycle when there is one (the detector itself)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(importCycles(graph)).toEqual([['a', 'b', 'c']]);
    expect(
      importCycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('has no import cycle', () => {
    const graph = new Map(sourceFiles(SRC).map((f) => [f, importsOf(f)]));
    const cycles = importCycles(graph).map((c) => c.map((f) => relative(SRC, f)));
    expect(cycles).toEqual([]);
  });

  it('nothing under src/api reads the configuration: the app takes it from its builder', () => {
    const readers = sourceFiles(join(SRC, 'api')).filter(
      (f) =>
        importsOf(f).some((target) => target === join(SRC, 'config.ts')) &&
        /\bloadConfig\b/.test(readFileSync(f, 'utf8')),
    );
    expect(readers.map((f) => relative(SRC, f))).toEqual([]);
  });
});
