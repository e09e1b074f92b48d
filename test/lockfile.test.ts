import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * `npm ci` rejects a lock that lacks any platform build named in optionalDependencies. The
 * registry here serves Linux builds only, so `npm install` drops the others; run
 * `npm run lock:complete` after every install (scripts/complete-lockfile.mjs).
 */
describe('package-lock.json', () => {
  it('lists every optional platform build, so npm ci accepts it on a fresh clone', () => {
    const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as {
      packages: Record<string, { optionalDependencies?: Record<string, string> }>;
    };
    const missing: string[] = [];
    for (const [location, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        if (!lock.packages[`node_modules/${name}`] && !lock.packages[`${location}/node_modules/${name}`])
          missing.push(name);
      }
    }
    expect(missing, 'run `npm run lock:complete`').toEqual([]);
  });
});
