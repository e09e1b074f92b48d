/** Worker thread entry of build-index.ts: computes the search vectors of the data it is started with. */
import { parentPort, workerData } from 'node:worker_threads';
import { computeSearchVectors, type SearchVectorsInput, transferables } from './search-vectors.js';

try {
  const result = computeSearchVectors(workerData as SearchVectorsInput);
  parentPort?.postMessage({ result }, transferables(result));
} catch (error) {
  parentPort?.postMessage({ error: String((error instanceof Error && error.stack) || error) });
}
