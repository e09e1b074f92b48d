/**
 * Remote MCP under abuse: what one Free key can take (sessions, protocol messages), how much
 * memory open sessions hold, and whether idle ones are let go. Run: `npx tsx bench/mcp-sessions.ts`.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { KeyStore } from '../src/access/index.js';
import { fixtureCatalog } from '../test/helpers/fixture-catalog.js';

const say = (s: string) => process.stdout.write(`${s}\n`);
const catalog = await fixtureCatalog();

// Remote MCP: what one Free key can take (sessions, messages), and the memory of idle sessions
const rssMb = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
const mcpServer = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--no-demo'], {
  env: {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    SHELF_DATA_DIR: catalog.dataDir,
    LOG_LEVEL: 'silent',
    SHELF_MCP_IDLE_S: '5',
  },
});
const mcpUrl = await new Promise<string>((done) => {
  let out = '';
  mcpServer.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/Shelf is serving on (http:\/\/\S+)/);
    if (m?.[1]) done(m[1]);
  });
});
const initialize = async (key: string) => {
  const res = await fetch(new URL('/mcp', mcpUrl), {
    method: 'POST',
    headers: {
      'x-api-key': key,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-03-26',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    }),
  });
  await res.arrayBuffer();
  return res.status;
};
const mcpKeys = new KeyStore(catalog.dataDir);
const makeKeys = (n: number) =>
  Array.from({ length: n }, () => mcpKeys.create({ type: 'secret', env: 'live', plan: 'free' }).key);
const pid = mcpServer.pid as number;
const before = rssMb(pid);
const [flooder] = makeKeys(1);
const statuses: number[] = [];
const floodStart = Date.now();
await Promise.all(
  Array.from({ length: 20 }, async (_, c) => {
    for (let i = c; i < 1000; i += 20) statuses.push(await initialize(flooder!));
  }),
);
const count = (s: number) => statuses.filter((x) => x === s).length;
say(
  `MCP: 1,000 initializations from one Free key in ${Date.now() - floodStart} ms: ${count(200)} × 200 (at most 10 sessions kept), ${count(429)} × 429, ${count(503)} × 503`,
);
const others = makeKeys(100);
let opened = 0;
for (const key of others) for (let i = 0; i < 10; i++) if ((await initialize(key)) === 200) opened++;
const full = rssMb(pid);
say(
  `MCP: ${opened} sessions of 100 other Free keys still open; server RSS ${before} MB before, ${full} MB with them`,
);
await new Promise((r) => setTimeout(r, 8000));
// closed indeed: 100 keys filled the cap of 1,000 sessions; a new key gets 503 unless they went
const [newcomer] = makeKeys(1);
const reopened = await initialize(newcomer!);
// some ordinary traffic lets the garbage collector run and hand pages back
for (let i = 0; i < 2000; i++) await (await fetch(new URL('/health', mcpUrl))).arrayBuffer();
say(
  `MCP: 8 s idle (SHELF_MCP_IDLE_S=5), then 2,000 GET /health: server RSS ${rssMb(pid)} MB; a new key's session: ${reopened} (503 while the 1,000 were open)`,
);
// a second wave of the same size: the freed memory is used again, the process does not grow by as much
const wave = makeKeys(100);
let again = 0;
for (const key of wave) for (let i = 0; i < 10; i++) if ((await initialize(key)) === 200) again++;
say(`MCP: a second wave of ${again} sessions of 100 new keys: server RSS ${rssMb(pid)} MB`);
mcpKeys.close();
mcpServer.kill('SIGTERM');
await new Promise((r) => mcpServer.once('exit', r));
catalog.cleanup();
