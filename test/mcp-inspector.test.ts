import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/api/index.js';
import { TOOL_NAMES } from '../src/mcp/index.js';
import { createKey, startTestServer } from './helpers/access-server.js';
import { type FixtureCatalog, fixtureCatalog } from './helpers/fixture-catalog.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
/** `npx mcp-inspector-cli` resolves to this bin of the devDependency @modelcontextprotocol/inspector-cli. */
const INSPECTOR = resolve(ROOT, 'node_modules/.bin/mcp-inspector-cli');

/**
 * inspector-cli 1.0.3 reads its own package.json through `../package.json` checked against the
 * working directory, so it runs from a folder one level down (bin/), as the README says.
 */
const CWD = resolve(ROOT, 'bin');

async function inspector(args: string[]): Promise<unknown> {
  const { stdout } = await run(INSPECTOR, ['--cli', ...args], { cwd: CWD, timeout: 60_000 });
  return JSON.parse(stdout);
}

/** The MCP Inspector's CLI mode, as a user would run it from the README, lists and calls tools. */
describe('MCP Inspector CLI', () => {
  let catalog: FixtureCatalog;
  let server: RunningServer;
  let key: string;
  let unavailable: string | null = null;

  beforeAll(async () => {
    if (!existsSync(INSPECTOR)) unavailable = 'the inspector is not installed (npm install)';
    else
      await run(INSPECTOR, ['--help'], { timeout: 30_000 }).catch((error: Error) => {
        unavailable = `the inspector cannot run here: ${error.message}`;
      });
    catalog = await fixtureCatalog();
    key = createKey(catalog.dataDir, { plan: 'pro' }).key;
    server = await startTestServer(catalog.dataDir);
  });
  afterAll(async () => {
    await server?.close();
    catalog?.cleanup();
  });

  it('lists the tools of `shelf-mcp` over stdio and calls search_products', async (ctx) => {
    if (unavailable) ctx.skip(unavailable);
    const stdio = [
      '-e',
      `SHELF_API_KEY=${key}`,
      '-e',
      `SHELF_API_URL=${server.url}`,
      'node',
      resolve(ROOT, 'bin/shelf-mcp.js'),
    ];
    const listed = (await inspector([...stdio, '--method', 'tools/list'])) as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    const called = (await inspector([
      ...stdio,
      '--method',
      'tools/call',
      '--tool-name',
      'search_products',
      '--tool-arg',
      'query=SHPM88Z75N',
    ])) as { structuredContent: { products: { name: string }[] } };
    expect(called.structuredContent.products[0]?.name).toContain('SHPM88Z75N');
  });

  it('lists and calls tools on the remote Streamable HTTP endpoint /mcp with the key in a header', async (ctx) => {
    if (unavailable) ctx.skip(unavailable);
    const remote = [`${server.url}/mcp`, '--transport', 'http', '--header', `X-API-Key: ${key}`];
    const listed = (await inspector([...remote, '--method', 'tools/list'])) as {
      tools: { name: string; annotations?: { readOnlyHint?: boolean } }[];
    };
    expect(listed.tools).toHaveLength(TOOL_NAMES.length);
    expect(listed.tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    const called = (await inspector([
      ...remote,
      '--method',
      'tools/call',
      '--tool-name',
      'lookup_product',
      '--tool-arg',
      'barcode=825225978428',
    ])) as { isError?: boolean; content: { text: string }[] };
    expect(called.isError, called.content[0]?.text).toBeFalsy();
    expect(called.content[0]?.text).toContain('SHPM88Z75N');
  });
});
