import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
} from 'fastify';
import { type ApiKeyRecord, type KeyDirectory, type Limiter, PLANS } from '../../access/index.js';
import { type ApiFetcher, createMcpServer, type McpCaller, McpSessions } from '../../mcp/index.js';
import { AppError } from '../errors.js';
import { authFailure, presentedKey } from './auth.js';

/** Only path and query of this base are used: tool calls never leave the process. */
const IN_PROCESS_BASE = 'http://shelf.internal/';

/**
 * Tool calls reach the REST API through `app.inject`: the full request pipeline (auth, plan
 * checks, rate limits, quotas, cache) runs exactly as for an HTTP request with the caller's
 * key and address, without the MCP mount having to know the server's own public URL.
 */
function injectFetcher(app: FastifyInstance, remoteAddress: string): ApiFetcher {
  return async (request) => {
    const url = new URL(request.url);
    const body = request.body === null ? undefined : await request.text();
    const res = await app.inject({
      method: request.method as 'GET' | 'POST',
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      remoteAddress,
      ...(body === undefined ? {} : { payload: body }),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers))
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    return new Response(res.rawPayload, { status: res.statusCode, headers });
  };
}

/**
 * The remote MCP server on the API's own port: Streamable HTTP at `/mcp`, the legacy HTTP+SSE
 * transport at `/sse` + `/messages`. The key comes by X-API-Key, Authorization: Bearer or
 * `?api_key=`; publishable keys may not open sessions.
 */
export const mcpPlugin: FastifyPluginAsync<{
  keys: KeyDirectory;
  limiter: Limiter;
  idleMs?: number;
}> = async (app, { keys, limiter, idleMs }) => {
  const sessions = new McpSessions({
    idleMs,
    createServer: (apiKey, req) =>
      createMcpServer(IN_PROCESS_BASE, apiKey, injectFetcher(app, req.socket.remoteAddress ?? '127.0.0.1')),
  });
  // preClose: open SSE streams would otherwise keep the HTTP server from closing
  app.addHook('preClose', async () => sessions.closeAll());

  /** One protocol message of `record`, against its plan's MCP message budget (429 past it). */
  const countMessage = async (record: ApiKeyRecord) => {
    const budget = await limiter.mcpMessage(record);
    if (budget.blocked)
      throw new AppError(
        'RATE_LIMITED',
        `the ${record.plan} plan allows ${budget.limit} MCP protocol messages per minute; retry in ${budget.retryAfter} s`,
        { limit: budget.limit, window: 'minute', plan: record.plan, scope: 'mcp messages' },
        budget.retryAfter,
      );
  };

  /**
   * The REST auth rules, plus: publishable keys may not open sessions. Failures count per
   * address; each message counts against the key's MCP message budget.
   */
  const authenticate = async (request: FastifyRequest, reply: FastifyReply): Promise<McpCaller> => {
    const key = presentedKey(request);
    const record = key ? (keys.authenticate(key) ?? (await keys.resolve?.(key)) ?? null) : null;
    if (key && record) {
      if (record.type === 'publishable')
        throw new AppError(
          'KEY_NOT_ALLOWED',
          'publishable keys may not open MCP sessions; use a secret key (sk_shelf_…)',
          { keyType: 'publishable', reason: 'operation' },
        );
      await countMessage(record);
      return { key, keyId: record.id, maxSessions: PLANS[record.plan].mcpSessions };
    }
    throw await authFailure(
      request,
      reply,
      limiter,
      key,
      'as X-API-Key, Authorization: Bearer <key> or the api_key query parameter',
    );
  };

  // Not REST resources: kept out of the OpenAPI document.
  const schema = { hide: true } as FastifySchema;
  const streamable = async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = await authenticate(request, reply);
    reply.hijack();
    await sessions.handleStreamable(request.raw, reply.raw, request.body, caller);
  };
  app.post('/mcp', { schema }, streamable);
  app.get('/mcp', { schema }, streamable);
  app.delete('/mcp', { schema }, streamable);

  app.get('/sse', { schema }, async (request, reply) => {
    const caller = await authenticate(request, reply);
    const record = (keys.authenticate(caller.key) ?? (await keys.resolve?.(caller.key))) as ApiKeyRecord;
    reply.hijack();
    await sessions.openSse(request.raw, reply.raw, caller, (sessionId) => {
      plans.set(sessionId, record);
      return () => plans.delete(sessionId);
    });
  });

  // the plan of a session's key, for messages that come without the key (legacy SSE)
  const plans = new Map<string, ApiKeyRecord>();
  app.post('/messages', { schema }, async (request, reply) => {
    const key = presentedKey(request);
    const sessionId = (request.query as { sessionId?: string }).sessionId;
    if (key !== null) await authenticate(request, reply);
    else {
      const owner = plans.get(sessionId ?? '');
      if (owner && sessions.ownerOf(sessionId) === owner.id) await countMessage(owner);
    }
    reply.hijack();
    await sessions.postSseMessage(request.raw, reply.raw, request.body, sessionId, key);
  });
};
