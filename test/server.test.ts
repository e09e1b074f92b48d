import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/api/index.js';
import { loadConfig } from '../src/config.js';

describe('the listening server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shelf-server-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('sets its timeouts (headers after keep-alive, as Node requires) and closes gracefully', async () => {
    const server = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', SHELF_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    );
    const http = server.app.server;
    expect(http.keepAliveTimeout).toBeGreaterThan(60_000);
    expect(http.headersTimeout).toBeGreaterThan(http.keepAliveTimeout);
    expect(http.requestTimeout).toBeGreaterThan(0);
    const health = await fetch(new URL('/health', server.url));
    expect(health.status).toBe(200);
    await Promise.all([server.close(), server.close()]);
    expect(http.listening).toBe(false);
    await expect(fetch(new URL('/health', server.url))).rejects.toThrow();
  });
});
