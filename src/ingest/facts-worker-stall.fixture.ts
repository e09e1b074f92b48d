/**
 * A facts worker that dies without a word (tests of facts.ts): it claims every chunk, posts
 * none and ends, as a worker killed mid-run would.
 */
import { workerData } from 'node:worker_threads';

const { inputs, chunk, state } = workerData as { inputs: unknown[]; chunk: number; state: Int32Array };
const chunks = Math.ceil(inputs.length / chunk);
while (Atomics.add(state, 0, 1) < chunks);
process.exit(0);
