import { Worker } from 'node:worker_threads';

/**
 * Starts one of ingest's worker threads (`<entry>.ts` beside this file, `<entry>.js` in the
 * compiled build). From TypeScript sources (tsx, tests) a worker does not inherit the tsx
 * loader, so it registers tsx before it loads its entry.
 */
export function startWorker(entry: string, workerData: unknown): Worker {
  const source = import.meta.url.endsWith('.ts');
  const url = new URL(`./${entry}.${source ? 'ts' : 'js'}`, import.meta.url);
  if (!source) return new Worker(url, { workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`,
    { eval: true, workerData },
  );
}
