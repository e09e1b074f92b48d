import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on a module of this program: `entry` is the module's path without
 * extension, relative to `from` (the caller's `import.meta.url`). From TypeScript sources
 * (tsx, tests) that is `<entry>.ts`, and as a worker does not inherit the tsx loader it
 * registers tsx before it loads its entry; in the compiled build it is `<entry>.js`.
 */
export function startModuleWorker(
  from: string,
  entry: string,
  options: Pick<WorkerOptions, 'workerData' | 'transferList'> = {},
): Worker {
  const source = from.endsWith('.ts');
  const url = new URL(`${entry}.${source ? 'ts' : 'js'}`, from);
  if (!source) return new Worker(url, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`,
    { ...options, eval: true },
  );
}
