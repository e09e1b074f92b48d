/** A bounded request load against a loopback server, for tests of what clients see meanwhile. */

export interface LoadFailure {
  path: string;
  /** the HTTP status and the error code of the body, or the network error */
  status: string;
}

export interface LoadResult {
  requests: number;
  failures: LoadFailure[];
}

/**
 * Runs `concurrency` loops, each sending GET requests (paths from `next`, keys in turn) one
 * after another until stopped, together at most `perSecond` requests a second (bounded, so a
 * test on a shared machine stays a test). Every answer but 200 and every network error is
 * a failure.
 */
export function startLoad(
  base: string,
  keys: readonly string[],
  next: (i: number) => string,
  { concurrency = 6, perSecond = 200 } = {},
): { stop(): Promise<LoadResult>; requests(): number } {
  const interval = (1000 * concurrency) / perSecond;
  let stopped = false;
  let n = 0;
  const failures: LoadFailure[] = [];
  const loop = async () => {
    while (!stopped) {
      const started = performance.now();
      const i = n++;
      const path = next(i);
      try {
        const response = await fetch(new URL(path, base), {
          headers: { 'x-api-key': keys[i % keys.length] as string },
        });
        const body = await response.text();
        if (response.status !== 200)
          failures.push({
            path,
            status: `${response.status} ${body.match(/"code":"(\w+)"/)?.[1] ?? ''}`.trim(),
          });
      } catch (error) {
        failures.push({ path, status: (error as Error).message });
      }
      const rest = interval - (performance.now() - started);
      if (rest > 0) await new Promise((r) => setTimeout(r, rest));
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    requests: () => n,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return { requests: n, failures };
    },
  };
}
