import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CATALOG_SCHEMA_VERSION,
  catalogDir,
  currentSnapshotPath,
  listSnapshots,
  rollbackSnapshot,
  SnapshotError,
  sweepPartialSnapshots,
  verifySnapshot,
} from '../src/catalog/index.js';
import { runIngest } from '../src/ingest/index.js';
import { fixtureContent, fixtureFeeds } from './helpers/fixture-catalog.js';

/** A pid that is certainly not running: a child that has already exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid as number;

/** Snapshot lifecycle (issue 18): temporary name, integrity check, manifest order, rollback. */
describe('catalog snapshot lifecycle', () => {
  let dataDir: string;
  const content = fixtureContent();
  const ingest = (day: string) => runIngest({ dataDir, feeds: fixtureFeeds(), content, day });
  const files = () => readdirSync(catalogDir(dataDir)).sort();

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'shelf-snapshots-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('publishes only checked files, records them in publish order and leaves no temporary file', async () => {
    const report = await ingest('2026-11-20');
    expect(report.published).toBe(true);
    expect(files()).toEqual(['CURRENT', basename(report.snapshot!), 'manifest.json']);
    const [entry] = listSnapshots(dataDir);
    expect(entry).toMatchObject({
      current: true,
      file: basename(report.snapshot!),
      run_id: report.run_id,
      products: report.products,
      offers: report.offers,
      visible_products: report.visible_products.after,
      schema_version: CATALOG_SCHEMA_VERSION,
    });
  });

  it('prunes by publish order, keeps the last three and never the current one', async () => {
    const published: string[] = [];
    for (const day of ['2026-11-01', '2026-11-02', '2026-11-03'])
      published.push((await ingest(day)).snapshot!);
    // the oldest snapshot is served again, then two more runs publish
    const back = rollbackSnapshot(dataDir, basename(published[0]!).replace(/^catalog-|\.db$/g, ''));
    expect(currentSnapshotPath(dataDir)).toBe(published[0]);
    expect(back.current).toBe(true);
    // a newer file time must not matter (a copied or partial file can have one): order comes from the manifest
    utimesSync(published[1]!, new Date('2099-01-01'), new Date('2099-01-01'));
    writeFileSync(`${published[1]}.some-model.vec`, 'vectors');
    for (const day of ['2026-11-04', '2026-11-05']) published.push((await ingest(day)).snapshot!);
    expect(existsSync(`${published[1]}.some-model.vec`)).toBe(false);
    const list = listSnapshots(dataDir);
    expect(list.map((e) => join(catalogDir(dataDir), e.file))).toEqual(published.slice(2));
    expect(list.at(-1)?.current).toBe(true);
    // five ingests: 4.5 s on a quiet CI run, 30 s once on a machine at load 18
  }, 60_000);

  it('a rollback without an id serves the snapshot published before the current one', async () => {
    const first = (await ingest('2026-11-01')).snapshot!;
    await ingest('2026-11-02');
    expect(rollbackSnapshot(dataDir).file).toBe(basename(first));
    expect(currentSnapshotPath(dataDir)).toBe(first);
    expect(() => rollbackSnapshot(dataDir)).toThrow('no earlier snapshot to roll back to');
    expect(() => rollbackSnapshot(dataDir, 'nope')).toThrow('no snapshot "nope" (see shelf catalog list)');
  });

  it('removes the partial files of a dead writer at the next run, and keeps a live one’s', async () => {
    await ingest('2026-11-01');
    const dir = catalogDir(dataDir);
    const dead = deadPid();
    const partial = `building-${dead}-2026-11-02T00-00-00-000Z-abcdef.db`;
    writeFileSync(join(dir, partial), Buffer.alloc(16 * 1024, 7));
    writeFileSync(join(dir, `${partial}-journal`), 'journal');
    writeFileSync(join(dir, `CURRENT.${dead}.tmp`), 'catalog-x.db');
    const vectors = 'catalog-gone.db.text-embedding-3-small.vec';
    writeFileSync(join(dir, vectors), 'vectors of a pruned snapshot');
    writeFileSync(join(dir, `${vectors}.tmp-${dead}`), 'half-written vectors');
    // a writer that is still running (this process) keeps its file
    const live = `building-${process.pid}-2026-11-02T00-00-00-000Z-fedcba.db`;
    writeFileSync(join(dir, live), 'in progress');
    expect(sweepPartialSnapshots(dataDir).sort()).toEqual(
      [partial, `${partial}-journal`, `CURRENT.${dead}.tmp`, vectors, `${vectors}.tmp-${dead}`].sort(),
    );
    expect(existsSync(join(dir, live))).toBe(true);
    rmSync(join(dir, live));
    // and a run sweeps by itself
    writeFileSync(join(dir, partial), 'partial');
    await ingest('2026-11-02');
    expect(files().filter((f) => f.startsWith('building-'))).toEqual([]);
  });

  it('the integrity check refuses a truncated file, a wrong schema version and an unfinished run', async () => {
    const path = (await ingest('2026-11-01')).snapshot!;
    const copy = (name: string) => {
      const to = join(dataDir, name);
      writeFileSync(to, readFileSync(path));
      return to;
    };
    expect(() => verifySnapshot(path)).not.toThrow();
    const truncated = copy('truncated.db');
    truncateSync(truncated, 64 * 1024);
    expect(() => verifySnapshot(truncated)).toThrow(SnapshotError);
    const old = copy('old.db');
    new Database(old).pragma(`user_version = ${CATALOG_SCHEMA_VERSION - 1}`);
    expect(() => verifySnapshot(old)).toThrow(
      `schema version ${CATALOG_SCHEMA_VERSION - 1}, expected ${CATALOG_SCHEMA_VERSION}`,
    );
    const unfinished = copy('unfinished.db');
    new Database(unfinished).exec("DELETE FROM meta WHERE key = 'run_id'");
    expect(() => verifySnapshot(unfinished)).toThrow('no completed ingest run is recorded in it');
  });

  it('adopts a catalog folder from before the manifest, dropping partial snapshots among its files', async () => {
    const good = (await ingest('2026-11-01')).snapshot!;
    const dir = catalogDir(dataDir);
    rmSync(join(dir, 'manifest.json'));
    // what a writer killed under the old naming left: newer by name and by file time
    const partial = join(dir, 'catalog-2099-01-01T00-00-00-000Z-000000.db');
    writeFileSync(partial, readFileSync(good).subarray(0, 64 * 1024));
    writeFileSync(`${partial}-journal`, 'journal');
    const list = listSnapshots(dataDir);
    expect(list.map((e) => e.file)).toEqual([basename(good)]);
    expect(existsSync(partial)).toBe(false);
    sweepPartialSnapshots(dataDir);
    expect(existsSync(`${partial}-journal`)).toBe(false);
  });
});
