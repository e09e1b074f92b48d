import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../util/index.js';

/** Starts one of ingest's worker threads (`<entry>.ts` beside this file, `<entry>.js` in the build). */
export function startWorker(entry: string, workerData: unknown): Worker {
  return startModuleWorker(import.meta.url, `./${entry}`, { workerData });
}
