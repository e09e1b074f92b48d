import { isTTY } from '../config.js';

/** Prints ingest progress: a live line on a terminal, one line per phase otherwise. */
export function progressPrinter(): (event: { phase: string; done?: number; total?: number }) => void {
  let lastPhase = '';
  const tty = isTTY();
  return ({ phase, done, total }) => {
    const counts =
      done !== undefined ? ` ${done}${total ? `/${total}` : ''}` : total !== undefined ? ` (${total})` : '';
    if (tty) {
      process.stdout.write(`\r\x1b[2K  ${phase}${counts}`);
      if (phase === 'write') process.stdout.write('\n');
    } else if (phase !== lastPhase) {
      process.stdout.write(`  ${phase}${counts}\n`);
    }
    lastPhase = phase;
  };
}
