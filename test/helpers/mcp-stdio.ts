import { resolve } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** The `shelf-mcp` stdio server as an agent starts it, calling the REST API at `apiUrl` with `key`. */
export const stdioTransport = (apiUrl: string, key: string): StdioClientTransport =>
  new StdioClientTransport({
    command: process.execPath,
    args: [resolve(import.meta.dirname, '../../bin/shelf-mcp.js')],
    env: { ...(process.env as Record<string, string>), SHELF_API_URL: apiUrl, SHELF_API_KEY: key },
    stderr: 'pipe',
  });
