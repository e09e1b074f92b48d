import { isTTY } from '../config.js';

/**
 * Prints ingest progress: on a terminal one live line (phase, counts, elapsed seconds) that
 * ends when the run is done; otherwise one line per phase, for logs.
 */
export function progressPrinter(): (event: { phase: string; done?: number; total?: number }) => void {
  let lastPhase = '';
  const started = Date.now();
  const tty = isTTY();
  return ({ phase, done, total }) => {
    const counts =
      done !== undefined ? ` ${done}${total ? `/${total}` : ''}` : total !== undefined ? ` (${total})` : '';
    const elapsed = `${((Date.now() - started) / 1000).toFixed(1)} s`;
    if (tty) {
      process.stdout.write(`\r\x1b[2K  [${elapsed}] ${phase}${counts}`);
      if (phase === 'done') process.stdout.write('\n');
    } else if (phase !== lastPhase) {
      process.stdout.write(`  [${elapsed}] ${phase}${counts}\n`);
    }
    lastPhase = phase;
  };
}
