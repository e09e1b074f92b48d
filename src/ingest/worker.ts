import type { Worker } from 'node:worker_threads';
import { startWorker as startModuleWorker } from '../util/index.js';

/** Starts one of ingest's worker threads (`<entry>.ts` or `.js` beside this file, see util/worker.ts). */
export const startWorker = (entry: string, workerData: unknown): Worker =>
  startModuleWorker(import.meta.url, entry, workerData);
