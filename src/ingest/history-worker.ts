/** Worker thread entry of `stageHistoryFile` (history.ts): stages one history file, posts the counts. */
import { parentPort, workerData } from 'node:worker_threads';
import { stageHistory } from './history-stage.js';

const { path, stagePath } = workerData as { path: string; stagePath: string };
parentPort?.postMessage(await stageHistory(path, stagePath));
