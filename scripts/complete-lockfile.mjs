#!/usr/bin/env node
// The npm registry this project is built against serves only Linux builds of packages with
// per-platform optional dependencies (@biomejs/cli-*, @rollup/rollup-*), so `npm install`
// leaves the other platforms out of package-lock.json and `npm ci` then rejects the lock as
// out of sync. This adds those optional entries with their os/cpu, which npm ci skips on
// other platforms without fetching. Run after any `npm install`: `npm run lock:complete`.
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPU = ['arm64', 'x64', 'arm', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'wasm32'];

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    if (packages[`node_modules/${name}`] || packages[`${location}/node_modules/${name}`]) continue;
    const parts = name.split('/').pop().split('-');
    const os = OS.find((o) => parts.includes(o));
    const cpu = CPU.find((c) => parts.includes(c));
    if (!os && !cpu) continue; // not a platform build: leave it to npm
    const version = String(range).replace(/^[\^~=]/, '');
    packages[`node_modules/${name}`] = {
      version,
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(entry.dev ? { dev: true } : {}),
      ...(parts.includes('musl') ? { libc: ['musl'] } : parts.includes('gnu') ? { libc: ['glibc'] } : {}),
      license: entry.license ?? 'MIT',
      optional: true,
      ...(os ? { os: [os] } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`complete-lockfile: added ${added} optional platform entries\n`);
