import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** redis-server on PATH, or null (tests that need it skip with a message naming the install). */
export const redisServerPath: string | null =
  spawnSync('sh', ['-c', 'command -v redis-server']).stdout.toString().trim() || null;

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });
}

/** A child process with its output collected, and a way to wait for a line in it. */
export class Proc {
  output = '';
  readonly child: ChildProcess;
  constructor(command: string, args: string[], env: Record<string, string> = {}) {
    this.child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env } });
    this.child.stdout?.on('data', (d) => {
      this.output += d;
    });
    this.child.stderr?.on('data', (d) => {
      this.output += d;
    });
  }
  /** How many times `pattern` occurs in the output so far. */
  count(pattern: RegExp): number {
    return [...this.output.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))].length;
  }
  async waitFor(pattern: RegExp, timeoutMs = 30_000, times = 1): Promise<RegExpMatchArray> {
    const started = Date.now();
    for (;;) {
      const all = [...this.output.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))];
      if (all.length >= times) return all[times - 1] as RegExpMatchArray;
      if (Date.now() - started > timeoutMs)
        throw new Error(`timed out waiting for ${pattern} in:\n${this.output.slice(-3000)}`);
      if (this.child.exitCode !== null) throw new Error(`process exited:\n${this.output.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.running) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill(signal);
    await exited;
  }
}

/**
 * A redis-server on `port`. With `dir`, it keeps an append-only file there (fsync on every
 * write), so a restart finds the keys and counters again, as a production Redis would.
 */
export async function startRedis(port: number, dir?: string): Promise<Proc> {
  const persistence = dir
    ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir]
    : ['--appendonly', 'no'];
  const redis = new Proc(redisServerPath as string, [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    ...persistence,
  ]);
  await redis.waitFor(/Ready to accept connections/);
  return redis;
}

/** A temporary folder, removed by the returned function. */
export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Runs `body` with a temporary folder and removes the folder afterwards, whatever happened. */
export async function withTempDir<T>(prefix: string, body: (dir: string) => Promise<T>): Promise<T> {
  const dir = tempDir(prefix);
  try {
    return await body(dir.path);
  } finally {
    dir.remove();
  }
}

/** `shelf serve --no-demo` as a child process; resolves with its URL once it listens. */
export async function startServe(env: Record<string, string>): Promise<{ proc: Proc; url: string }> {
  const proc = new Proc(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--no-demo'], {
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...env,
  });
  const [, url] = await proc.waitFor(/Shelf is serving on (http:\/\/\S+)/, 90_000);
  return { proc, url: url as string };
}

/** Runs the CLI (`shelf …`) to completion: its stdout, stderr and exit code. */
export function shelfCli(args: string[], env: Record<string, string>) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  return { stdout: run.stdout.toString(), stderr: run.stderr.toString(), status: run.status };
}
