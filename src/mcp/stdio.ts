import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config.js';
import { type ApiFetcher, restClient } from './rest-client.js';
import { inputValidationError } from './tool-errors.js';
import { registerTools } from './tools/index.js';

export const SERVER_INFO = { name: 'shelf', version: '0.1.0' };

export const INSTRUCTIONS =
  'Shelf answers product questions with catalog facts: search (search_products, semantic_search), one product ' +
  '(lookup_product, get_product_specs), prices across retailers (compare_prices, get_price_history), similar products ' +
  '(find_alternatives) and ownership knowledge (get_product_knowledge, lookup_error_code). Prices are USD. ' +
  "Product ids come from search results. Each tool call is one API request on the user's plan, except lookup_product by " +
  'model_number and get_product_knowledge by product_id (two each) and find_alternatives (two, or three when it falls back ' +
  'to products of the same type); results show the quota left.';

/**
 * An MCP server whose tools call the REST API with `apiKey` through the TypeScript client:
 * over HTTP (the global fetch), or in-process when `fetcher` is given.
 */
export function createMcpServer(baseUrl: string, apiKey: string, fetcher?: ApiFetcher): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  // the SDK's own tool-error hook (private in its types): schema failures become INVALID_ARGUMENT
  const sdk = server as unknown as { createToolError(message: string): CallToolResult };
  const sdkToolError = sdk.createToolError.bind(server);
  sdk.createToolError = (message) => inputValidationError(message) ?? sdkToolError(message);
  registerTools(server, restClient(baseUrl, apiKey, fetcher));
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
