export { FrequencySketch } from './frequency.js';
export { argMax, mostCommon, round2 } from './numbers.js';
export { DisjointSets } from './union-find.js';
export { startWorker } from './worker.js';
