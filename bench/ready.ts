import type { ChildProcess } from 'node:child_process';

/**
 * Waits until `url` answers 200, the child serving it exits, or `timeoutS` seconds pass
 * (`--ready-timeout`): a server opening the full demo on a loaded machine took more than
 * the 30 s the benches used to allow, and then failed the whole run.
 */
export async function waitForServer(
  url: string,
  child: ChildProcess | null,
  timeoutS: number,
  headers: Record<string, string> = {},
): Promise<void> {
  const deadline = Date.now() + timeoutS * 1000;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new Error(`the server for ${url} exited (code ${child.exitCode}) before it was ready`);
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      // not listening yet, or too busy to answer in time
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} was not ready after ${timeoutS} s (--ready-timeout; last: ${last})`);
}
