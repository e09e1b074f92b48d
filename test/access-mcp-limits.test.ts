import { describe, expect, it } from 'vitest';
import { createKey } from './helpers/access-server.js';
import { expectError } from './helpers/assertions.js';
import { servedFixtureCatalog } from './helpers/served-catalog.js';

/** One JSON-RPC message over Streamable HTTP: status, session id, and the body (JSON or SSE). */
async function rpc(base: string, key: string, message: object, sessionId?: string) {
  const res = await fetch(new URL('/mcp', base), {
    method: 'POST',
    headers: {
      'x-api-key': key,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // an SSE answer: kept as text
  }
  return { status: res.status, sessionId: res.headers.get('mcp-session-id'), body, headers: res.headers };
}

const initialize = (base: string, key: string, id = 1) =>
  rpc(base, key, {
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'limits', version: '1' } },
  });

describe('remote MCP: sessions and protocol messages limited per key', () => {
  const served = servedFixtureCatalog({ SHELF_MCP_IDLE_S: '2' });

  it('a Free key holds at most 10 sessions: an 11th closes its least recently used one (was 964 of the global 1,000)', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'free' });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await initialize(served.server.url, key, i + 1);
      expect(res.status).toBe(200);
      ids.push(res.sessionId as string);
    }
    const statuses = [];
    for (const id of ids)
      statuses.push((await rpc(served.server.url, key, { id: 99, method: 'ping' }, id)).status);
    // the two oldest were closed to make room; the ten newest answer
    expect(statuses).toEqual([404, 404, ...Array(10).fill(200)]);
    // another key is not locked out
    const other = createKey(served.catalog.dataDir, { plan: 'free' });
    expect((await initialize(served.server.url, other.key)).status).toBe(200);
  });

  it('protocol messages have their own budget per key (60 a minute on Free): then 429 with Retry-After', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'free' });
    const session = (await initialize(served.server.url, key)).sessionId as string;
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++)
      statuses.push((await rpc(served.server.url, key, { id: i + 2, method: 'ping' }, session)).status);
    // the initialize was the first of the 60
    expect(statuses.slice(0, 59).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(59)).toEqual([429, 429, 429]);
    const refused = await rpc(served.server.url, key, { id: 100, method: 'tools/list' }, session);
    expectError(refused as never, 429, 'RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('an idle session is closed after SHELF_MCP_IDLE_S (was 30 minutes)', async () => {
    const { key } = createKey(served.catalog.dataDir, { plan: 'pro' });
    const session = (await initialize(served.server.url, key)).sessionId as string;
    expect((await rpc(served.server.url, key, { id: 2, method: 'ping' }, session)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 3500));
    const gone = await rpc(served.server.url, key, { id: 3, method: 'ping' }, session);
    expect(gone.status).toBe(404);
  });
});
