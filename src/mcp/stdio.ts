import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Config } from '../config.js';
import { RestClient } from './rest-client.js';
import { registerTools } from './tools.js';

export const SERVER_INFO = { name: 'shelf', version: '0.1.0' };

/** An MCP server whose tools call the REST API with `apiKey`. */
export function createMcpServer(baseUrl: string, apiKey: string): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions: 'Shelf answers product questions: search, specs, prices across retailers. Prices are USD.',
  });
  registerTools(server, new RestClient(baseUrl, apiKey));
  return server;
}

/** Runs the MCP server on stdin/stdout; the key comes from SHELF_API_KEY or SERVICE_API_KEY. */
export async function runStdioServer(config: Config): Promise<void> {
  if (!config.SHELF_API_KEY) {
    process.stderr.write('shelf-mcp: set SHELF_API_KEY (or SERVICE_API_KEY) to your Shelf API key\n');
    process.exit(2);
  }
  const server = createMcpServer(config.SHELF_API_URL, config.SHELF_API_KEY);
  await server.connect(new StdioServerTransport());
}
