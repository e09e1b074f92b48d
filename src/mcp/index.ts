export {
  type ApiFetcher,
  MCP_REQUEST_TIMEOUT_MS,
  MCP_RETRY,
  type Quota,
  quotaFrom,
  restClient,
} from './rest-client.js';
export { MCP_IDLE_MS, type McpCaller, McpSessions, type McpSessionsOptions } from './sessions.js';
export { createMcpServer, runStdioServer, SERVER_INFO } from './stdio.js';
export { InvalidArgument, TOOL_ERROR_ADVICE, ToolFailure, toolError, toolErrorCode } from './tool-errors.js';
export { registerTools, TOOL_NAMES } from './tools/index.js';
