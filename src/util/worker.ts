import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread on the module `entry` (a path without extension, relative to the
 * module whose `import.meta.url` is `from`): `<entry>.ts` when that module runs from the
 * TypeScript sources, `<entry>.js` in the compiled build. From sources (tsx, tests) a worker
 * does not inherit the tsx loader, so it registers tsx before it loads its entry.
 */
export function startWorker(from: string, entry: string, workerData: unknown): Worker {
  const source = from.endsWith('.ts');
  const url = new URL(`./${entry}.${source ? 'ts' : 'js'}`, from);
  if (!source) return new Worker(url, { workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`,
    { eval: true, workerData },
  );
}
