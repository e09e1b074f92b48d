/**
 * Worker thread entry of `startFacts` (facts.ts): claims chunks of the records it was given,
 * one at a time, and posts each chunk's facts on the port it is sent.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { encodeFacts } from './facts.js';
import { type FactInput, recordFacts } from './resolve/index.js';

const { inputs, chunk, state } = workerData as { inputs: FactInput[]; chunk: number; state: Int32Array };
const chunks = Math.ceil(inputs.length / chunk);

parentPort?.once('message', ({ port }: { port: MessagePort }) => {
  for (;;) {
    const c = Atomics.add(state, NEXT, 1);
    if (c >= chunks) break;
    try {
      const facts = inputs.slice(c * chunk, (c + 1) * chunk).map((r) => encodeFacts(recordFacts(r)));
      port.postMessage({ chunk: c, facts: JSON.stringify(facts) });
    } catch (error) {
      // the main thread computes this chunk itself
      port.postMessage({ chunk: c, error: String(error) });
    }
    Atomics.add(state, POSTED, 1);
    Atomics.notify(state, POSTED);
  }
  port.close();
});

// the layout of `state`, shared with facts.ts
const NEXT = 0;
const POSTED = 1;
