import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PackedTexts, ScratchFile } from './scratch.js';

describe('ScratchFile', () => {
  const dirs: string[] = [];
  const file = () => {
    const dir = mkdtempSync(join(tmpdir(), 'shelf-scratch-'));
    dirs.push(dir);
    return join(dir, 'building-1-x.scratch.db');
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('gives back each value as it was put, with what JSON would lose', () => {
    const scratch = new ScratchFile(file());
    const table = scratch.table<Record<string, unknown>>('values');
    const value = {
      title: 'Bosch 800 Series SHPM88Z75N',
      missing: undefined,
      price: -0,
      ratio: Number.NaN,
      matches: new Map([['a:1', { method: 'gtin', confidence: 1 }]]),
      nested: { specs: { Width: '24 in' } },
    };
    table.put(7, value);
    table.put(0, { other: true });
    const back = table.get(7);
    expect(back).toEqual(value);
    expect(Object.keys(back)).toEqual(Object.keys(value));
    expect(Object.is(back.price, -0)).toBe(true);
    expect(back.matches).toBeInstanceOf(Map);
    expect(table.get(0)).toEqual({ other: true });
    scratch.close();
  });

  it('says which slot is missing, and clear empties a table', () => {
    const scratch = new ScratchFile(file());
    const table = scratch.table<number>('numbers');
    table.put(1, 42);
    expect(() => table.get(2)).toThrow('scratch table numbers has no slot 2');
    table.clear();
    expect(() => table.get(1)).toThrow('no slot 1');
    scratch.close();
  });

  it('forgets a slot in memory, and keeps it on disk until the file goes', () => {
    const memory = new ScratchFile(null).table<string>('t');
    memory.put(3, 'kept');
    memory.forget(3);
    expect(() => memory.get(3)).toThrow('no slot 3');
    const scratch = new ScratchFile(file());
    const disk = scratch.table<string>('t');
    disk.put(3, 'kept');
    disk.forget(3);
    expect(disk.get(3)).toBe('kept');
    scratch.close();
  });

  it('refuses a table name that is not a plain identifier', () => {
    const scratch = new ScratchFile(file());
    expect(() => scratch.table('x; DROP TABLE y')).toThrow('must be a-z and _');
    scratch.close();
  });

  it('deletes its file on close, and a second close is harmless', () => {
    const path = file();
    const scratch = new ScratchFile(path);
    scratch.table<string>('t').put(0, 'x');
    expect(existsSync(path)).toBe(true);
    scratch.close();
    scratch.close();
    expect(existsSync(path)).toBe(false);
  });
});

describe('PackedTexts', () => {
  it('gives back every text as put, null and multi-byte ones too, across chunks', () => {
    const texts = ['', 'Bosch 800 Series', null, 'Café — 65″ ünïcödé 🎧', 'x'.repeat(17 * 2 ** 20), 'after'];
    const packed = new PackedTexts(texts.length + 1);
    texts.forEach((t, slot) => {
      packed.put(slot, t);
    });
    texts.forEach((t, slot) => {
      expect(packed.get(slot)).toBe(t);
    });
    // a slot never set reads as null
    expect(packed.get(texts.length)).toBeNull();
  });
});
