export { type ApiResult, RestClient, ShelfApiError } from './rest-client.js';
export { createMcpServer, runStdioServer, SERVER_INFO } from './stdio.js';
export { registerTools, toolError } from './tools.js';
