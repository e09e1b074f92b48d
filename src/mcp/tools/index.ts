import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ShelfClient } from '@shelf/client';
import { registerAlternativeTools } from './alternatives.js';
import { registerKnowledgeTools } from './knowledge.js';
import { registerPriceTools } from './prices.js';
import { registerProductTools } from './product.js';
import { registerSearchTools } from './search.js';

/** Every tool name, in the order tools/list shows them. */
export const TOOL_NAMES = [
  'search_products',
  'semantic_search',
  'lookup_product',
  'get_product_specs',
  'compare_prices',
  'get_price_history',
  'find_alternatives',
  'get_product_knowledge',
  'lookup_error_code',
] as const;

/** Registers Shelf's tools on an MCP server; each calls the REST API through `client`. */
export function registerTools(server: McpServer, client: ShelfClient): void {
  const ctx = { server, client };
  registerSearchTools(ctx);
  registerProductTools(ctx);
  registerPriceTools(ctx);
  registerAlternativeTools(ctx);
  registerKnowledgeTools(ctx);
}
