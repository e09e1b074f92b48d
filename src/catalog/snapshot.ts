import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { CATALOG_SCHEMA_VERSION } from './schema.js';

/**
 * Catalog snapshots are immutable SQLite files in `<dataDir>/catalog/`. Their life:
 *
 * 1. **building** — ingest writes `building-<pid>-<stamp>.db`. Nothing reads it; if the
 *    writer dies (kill -9, power loss) the file is a partial, and the next run or server
 *    start removes it (its pid is no longer alive).
 * 2. **candidate** — after an integrity check (`PRAGMA quick_check`, the schema version, the
 *    run's row counts) it is renamed `catalog-<stamp>.db`. Only a checked file ever has that name.
 * 3. **published** — it is appended to `manifest.json` (the publish order) and a new `CURRENT`
 *    pointer is renamed over the old one, which is atomic: readers see the old catalog or the
 *    new one, never a half-written one.
 *
 * Pruning keeps the last {@link KEEP_SNAPSHOTS} published snapshots in manifest order — never
 * by file time, which a partial or copied file can fake — and never the current one.
 */
export const catalogDir = (dataDir: string): string => join(dataDir, 'catalog');
const pointerPath = (dataDir: string): string => join(catalogDir(dataDir), 'CURRENT');
const manifestPath = (dataDir: string): string => join(catalogDir(dataDir), 'manifest.json');
const lockPath = (dataDir: string): string => join(catalogDir(dataDir), 'ingest.lock');

/** How many published snapshots to keep by default (for rollback and slow readers). */
export const KEEP_SNAPSHOTS = 3;

const SNAPSHOT_FILE = /^catalog-[\w.-]+\.db$/;
const BUILDING_FILE = /^building-(\d+)-[\w.-]+\.db(-journal|-wal|-shm)?$/;
const SIDE_FILES = ['', '-wal', '-shm', '-journal'];

/** What the manifest records about one published snapshot. */
export interface SnapshotEntry {
  /** the file name without `catalog-` and `.db`: what `shelf catalog rollback` takes */
  id: string;
  file: string;
  published_at: string;
  run_id: string;
  products: number;
  /** products shown without `include_legacy` (data tier 1 and 2) */
  visible_products: number;
  offers: number;
  schema_version: number;
}

export interface SnapshotListing extends SnapshotEntry {
  current: boolean;
}

/** Counts a snapshot must hold to become a candidate (from the run that wrote it). */
export interface SnapshotCounts {
  run_id: string;
  products: number;
  visible_products: number;
  offers: number;
}

export class SnapshotError extends Error {
  override name = 'SnapshotError';
}

/** Path of the published snapshot, or null when none has been published yet. */
export function currentSnapshotPath(dataDir: string): string | null {
  const name = currentFile(dataDir);
  if (!name) return null;
  const path = join(catalogDir(dataDir), name);
  return existsSync(path) ? path : null;
}

function currentFile(dataDir: string): string | null {
  const pointer = pointerPath(dataDir);
  if (!existsSync(pointer)) return null;
  const name = readFileSync(pointer, 'utf8').trim();
  return SNAPSHOT_FILE.test(name) ? name : null;
}

const stamp = () => `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;

/**
 * A fresh path to build a snapshot in (same folder, so the later renames are atomic). The
 * writer's pid is in the name: a partial file whose writer is gone is removed by
 * {@link sweepPartialSnapshots}, one whose writer still runs is left alone.
 */
export function newSnapshotPath(dataDir: string): string {
  mkdirSync(catalogDir(dataDir), { recursive: true });
  return join(catalogDir(dataDir), `building-${process.pid}-${stamp()}.db`);
}

const alive = (pid: number): boolean => {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Removes what a writer killed mid-run left behind: `building-*` files (and their journals)
 * of processes no longer alive, stray pointer and manifest temp files, and journals with no
 * snapshot beside them. Called at the start of every ingest run and of every server.
 * Returns the names removed.
 */
export function sweepPartialSnapshots(dataDir: string): string[] {
  const dir = catalogDir(dataDir);
  if (!existsSync(dir)) return [];
  const removed: string[] = [];
  const files = new Set(readdirSync(dir));
  for (const f of files) {
    const building = BUILDING_FILE.exec(f);
    // CURRENT.<pid>.tmp, manifest.json.<pid>.tmp, and <snapshot>.<model>.vec.tmp-<pid> (search)
    const temp = /\.(\d+)\.tmp$/.exec(f) ?? /\.tmp-(\d+)$/.exec(f);
    // journals and search vectors of a snapshot that is gone
    const owner = /^(catalog-[\w.-]*?\.db)(-journal|-wal|-shm|\..+\.vec)$/.exec(f)?.[1];
    const orphan = owner !== undefined && !files.has(owner);
    const pid = building?.[1] ?? temp?.[1];
    if ((pid !== undefined && !alive(Number(pid))) || orphan) {
      rmSync(join(dir, f), { force: true });
      removed.push(f);
    }
  }
  return removed;
}

/**
 * Checks a finished snapshot before it may be published: SQLite's own `quick_check`, the
 * schema version this code writes, a completed run record, and the row counts the run
 * wrote. Throws a {@link SnapshotError} saying what is wrong.
 */
export function verifySnapshot(path: string, expected?: SnapshotCounts): void {
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new SnapshotError(`integrity check failed: ${String(check)}`);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== CATALOG_SCHEMA_VERSION)
      throw new SnapshotError(`schema version ${version}, expected ${CATALOG_SCHEMA_VERSION}`);
    const runId = db.prepare("SELECT value FROM meta WHERE key = 'run_id'").pluck().get();
    if (typeof runId !== 'string') throw new SnapshotError('no completed ingest run is recorded in it');
    const counts = snapshotCounts(db);
    if (expected) {
      if (runId !== expected.run_id)
        throw new SnapshotError(`run ${runId} is recorded in it, expected ${expected.run_id}`);
      for (const key of ['products', 'visible_products', 'offers'] as const)
        if (counts[key] !== expected[key])
          throw new SnapshotError(`${counts[key]} ${key.replace('_', ' ')}, the run wrote ${expected[key]}`);
    }
  } catch (error) {
    if (error instanceof SnapshotError) throw error;
    throw new SnapshotError(`cannot be read: ${(error as Error).message}`);
  } finally {
    db?.close();
  }
}

/** Products, visible products (tiers 1–2) and offers of an open snapshot. */
export function snapshotCounts(db: Database.Database): Omit<SnapshotCounts, 'run_id'> {
  const count = (sql: string) => db.prepare(sql).pluck().get() as number;
  return {
    products: count('SELECT count(*) FROM products'),
    visible_products: count('SELECT count(*) FROM products WHERE data_tier < 3'),
    offers: count('SELECT count(*) FROM offers'),
  };
}

/**
 * Checks a finished snapshot, makes it a candidate and publishes it: appended to the
 * manifest, then named in `CURRENT`. Prunes old snapshots. Returns the published path.
 */
export function publishSnapshot(
  dataDir: string,
  buildingPath: string,
  expected: SnapshotCounts,
  options: { keep?: number } = {},
): string {
  verifySnapshot(buildingPath, expected);
  // read (or adopt) the manifest before the new file takes a snapshot's name
  const manifest = readManifest(dataDir);
  const id = stamp();
  const file = `catalog-${id}.db`;
  const path = join(catalogDir(dataDir), file);
  renameSync(buildingPath, path);
  manifest.push({
    id,
    file,
    published_at: new Date().toISOString(),
    ...expected,
    schema_version: CATALOG_SCHEMA_VERSION,
  });
  writeManifest(dataDir, manifest);
  pointTo(dataDir, file);
  pruneSnapshots(dataDir, options.keep ?? KEEP_SNAPSHOTS);
  return path;
}

function pointTo(dataDir: string, file: string): void {
  const tmp = `${pointerPath(dataDir)}.${process.pid}.tmp`;
  writeFileSync(tmp, `${file}\n`);
  renameSync(tmp, pointerPath(dataDir));
}

/** The published snapshots still on disk, oldest first, the current one marked. */
export function listSnapshots(dataDir: string): SnapshotListing[] {
  const current = currentFile(dataDir);
  return readManifest(dataDir).map((e) => ({ ...e, current: e.file === current }));
}

/**
 * Points `CURRENT` back at an earlier published snapshot: the one named by `id` (or a
 * unique start of it), else the one published just before the current one. The snapshot is
 * checked again first, and the catalog lock taken (an ingest in progress makes this fail
 * with a clear message). A running server follows within its poll interval, no restart.
 */
export function rollbackSnapshot(dataDir: string, id?: string): SnapshotListing {
  const list = listSnapshots(dataDir);
  let target: SnapshotListing | undefined;
  if (id) {
    const exact = list.filter((e) => e.id === id || e.file === id);
    const hits = exact.length > 0 ? exact : list.filter((e) => e.id.startsWith(id));
    if (hits.length > 1)
      throw new SnapshotError(`"${id}" names ${hits.length} snapshots: give more of the id`);
    target = hits[0];
    if (!target) throw new SnapshotError(`no snapshot "${id}" (see shelf catalog list)`);
  } else {
    const at = list.findIndex((e) => e.current);
    target = at > 0 ? list[at - 1] : undefined;
    if (!target) throw new SnapshotError('no earlier snapshot to roll back to (see shelf catalog list)');
  }
  const path = join(catalogDir(dataDir), target.file);
  verifySnapshot(path);
  // not while an ingest runs: it would publish on top of the snapshot it read, undoing this
  const release = lockCatalog(dataDir);
  try {
    pointTo(dataDir, target.file);
  } finally {
    release();
  }
  return { ...target, current: true };
}

function pruneSnapshots(dataDir: string, keep: number): void {
  const dir = catalogDir(dataDir);
  const current = currentFile(dataDir);
  const manifest = readManifest(dataDir);
  const kept = new Set(manifest.slice(-keep).map((e) => e.file));
  if (current) kept.add(current);
  const present = readdirSync(dir);
  for (const e of manifest)
    if (!kept.has(e.file))
      // the snapshot, its journals and the search vectors written beside it
      for (const f of present)
        if (f === e.file || f.startsWith(`${e.file}-`) || f.startsWith(`${e.file}.`))
          rmSync(join(dir, f), { force: true });
  writeManifest(
    dataDir,
    manifest.filter((e) => kept.has(e.file)),
  );
}

/**
 * The manifest's entries whose files exist, in publish order. A catalog folder from before
 * the manifest is adopted once: its `catalog-*.db` files that hold a completed run, in the
 * order of the time in their names; the others are partial files and are removed.
 */
function readManifest(dataDir: string): SnapshotEntry[] {
  const dir = catalogDir(dataDir);
  const path = manifestPath(dataDir);
  if (existsSync(path)) {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { snapshots?: SnapshotEntry[] };
    return (parsed.snapshots ?? []).filter(
      (e) => SNAPSHOT_FILE.test(e.file) && existsSync(join(dir, e.file)),
    );
  }
  if (!existsSync(dir)) return [];
  const current = currentFile(dataDir);
  const adopted: SnapshotEntry[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => SNAPSHOT_FILE.test(f))
    .sort()) {
    const entry = describeLegacy(join(dir, file));
    if (entry) adopted.push(entry);
    else if (file !== current)
      for (const suffix of SIDE_FILES) rmSync(join(dir, file + suffix), { force: true });
  }
  // the current snapshot is the newest published one, whatever its name says
  const at = adopted.findIndex((e) => e.file === current);
  if (at >= 0) adopted.push(...adopted.splice(at, 1));
  writeManifest(dataDir, adopted);
  return adopted;
}

function describeLegacy(path: string): SnapshotEntry | null {
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const meta = new Map(
      (db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [
        r.key,
        r.value,
      ]),
    );
    const runId = meta.get('run_id');
    if (!runId) return null;
    const file = basename(path);
    return {
      id: file.replace(/^catalog-/, '').replace(/\.db$/, ''),
      file,
      published_at: meta.get('built_at') ?? '',
      run_id: runId,
      ...snapshotCounts(db),
      schema_version: db.pragma('user_version', { simple: true }) as number,
    };
  } catch {
    return null;
  } finally {
    db?.close();
  }
}

function writeManifest(dataDir: string, snapshots: SnapshotEntry[]): void {
  mkdirSync(catalogDir(dataDir), { recursive: true });
  const tmp = `${manifestPath(dataDir)}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ version: 1, snapshots }, null, 2)}\n`);
  renameSync(tmp, manifestPath(dataDir));
}

/** Removes an unpublished snapshot after a failed or refused build. */
export function discardSnapshot(path: string): void {
  for (const suffix of SIDE_FILES) rmSync(path + suffix, { force: true });
}

/**
 * Takes the catalog folder's writer lock (one ingest or rollback at a time: each reads the
 * current snapshot and the manifest, then replaces them). A lock left by a dead process is
 * taken over. Returns the release function.
 */
export function lockCatalog(dataDir: string): () => void {
  mkdirSync(catalogDir(dataDir), { recursive: true });
  const path = lockPath(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && alive(holder) && holder !== process.pid)
        throw new SnapshotError(
          `another ingest (pid ${holder}) is writing this catalog; wait for it to finish`,
        );
      if (holder === process.pid)
        throw new SnapshotError('an ingest of this process is already writing this catalog');
      rmSync(path, { force: true });
    }
  }
  throw new SnapshotError('could not take the catalog lock');
}
