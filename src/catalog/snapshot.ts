import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';

/**
 * Catalog snapshots are immutable SQLite files in `<dataDir>/catalog/`. The file named in
 * `CURRENT` is the published one; publishing writes a new file aside and then renames a new
 * `CURRENT` over the old one, which is atomic: readers see the old catalog or the new one,
 * never a half-written one.
 */
export const catalogDir = (dataDir: string): string => join(dataDir, 'catalog');
const pointerPath = (dataDir: string): string => join(catalogDir(dataDir), 'CURRENT');

/** How many published snapshots to keep (for rollback and slow readers). */
const KEEP_SNAPSHOTS = 3;

/** Path of the published snapshot, or null when none has been published yet. */
export function currentSnapshotPath(dataDir: string): string | null {
  const pointer = pointerPath(dataDir);
  if (!existsSync(pointer)) return null;
  const name = readFileSync(pointer, 'utf8').trim();
  if (!/^catalog-[\w.-]+\.db$/.test(name)) return null;
  const path = join(catalogDir(dataDir), name);
  return existsSync(path) ? path : null;
}

/** A fresh path in the catalog folder (same filesystem, so the publish rename is atomic). */
export function newSnapshotPath(dataDir: string): string {
  mkdirSync(catalogDir(dataDir), { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return join(catalogDir(dataDir), `catalog-${stamp}-${randomBytes(3).toString('hex')}.db`);
}

/** Makes `path` the published snapshot and prunes old ones. */
export function publishSnapshot(dataDir: string, path: string): void {
  const tmp = `${pointerPath(dataDir)}.${process.pid}.tmp`;
  writeFileSync(tmp, `${basename(path)}\n`);
  renameSync(tmp, pointerPath(dataDir));
  pruneSnapshots(dataDir, basename(path));
}

function pruneSnapshots(dataDir: string, keep: string): void {
  const dir = catalogDir(dataDir);
  const files = readdirSync(dir)
    .filter((f) => /^catalog-.*\.db$/.test(f) && f !== keep)
    .map((f) => ({ f, mtime: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { f } of files.slice(KEEP_SNAPSHOTS - 1)) {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(join(dir, f + suffix), { force: true });
  }
}

/** Removes an unpublished snapshot after a failed build. */
export function discardSnapshot(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
}
