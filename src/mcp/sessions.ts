import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

export interface McpSessionsOptions {
  /** an MCP server whose tools call the REST API with this caller's key */
  createServer(apiKey: string, req: IncomingMessage): McpServer;
  /** where legacy SSE clients POST their messages (default `/messages`) */
  messagesPath?: string;
  /** sessions without a message this long are closed, SSE streams included (default 5 minutes) */
  idleMs?: number;
  /** most open sessions of all keys at once; further initializations get 503 (default 1,000) */
  maxSessions?: number;
}

/** Who opens a session: the authenticated key, its id, and how many sessions it may hold. */
export interface McpCaller {
  key: string;
  keyId: string;
  /** the key's plan's cap: opening one more closes the key's least recently used session */
  maxSessions: number;
}

interface Session {
  transport: StreamableHTTPServerTransport | SSEServerTransport;
  server: McpServer;
  keyHash: string;
  keyId: string;
  lastSeen: number;
}

/** Default idle time of a session: an agent between two tool calls rarely waits this long. */
export const MCP_IDLE_MS = 5 * 60_000;

const sha = (key: string) => createHash('sha256').update(key).digest('hex');

function jsonRpcError(res: ServerResponse, status: number, message: string, code = -32000): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * The remote MCP sessions of one API process: Streamable HTTP (`/mcp`) and the legacy HTTP+SSE
 * transport (`/sse` + `/messages`) in one map, as the SDK's own dual-transport example does.
 * Each session is bound to the key that opened it; framework-neutral (Node req/res).
 *
 * One key holds at most its plan's number of sessions: opening one more closes that key's
 * least recently used one, so no key can fill the process-wide cap and lock others out.
 * Sessions without a message for `idleMs` are closed (an open SSE stream included: the
 * client reconnects when it needs the server again), and their servers are dropped.
 */
export class McpSessions {
  readonly #sessions = new Map<string, Session>();
  readonly #options: Required<Pick<McpSessionsOptions, 'messagesPath' | 'idleMs' | 'maxSessions'>> &
    McpSessionsOptions;
  readonly #sweeper: NodeJS.Timeout;

  constructor(options: McpSessionsOptions) {
    this.#options = { messagesPath: '/messages', idleMs: MCP_IDLE_MS, maxSessions: 1_000, ...options };
    this.#sweeper = setInterval(
      () => this.#sweep(),
      Math.min(30_000, Math.max(100, this.#options.idleMs / 4)),
    );
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Open sessions of one key. */
  sizeOf(keyId: string): number {
    let n = 0;
    for (const s of this.#sessions.values()) if (s.keyId === keyId) n++;
    return n;
  }

  /** The key id a session belongs to (legacy SSE messages may come without their key). */
  ownerOf(sessionId: string | undefined): string | null {
    return (sessionId && this.#sessions.get(sessionId)?.keyId) || null;
  }

  /** POST, GET and DELETE of the Streamable HTTP transport; `apiKey` is already authenticated. */
  async handleStreamable(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    caller: McpCaller,
  ): Promise<void> {
    const apiKey = caller.key;
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId) {
      const session = this.#sessions.get(sessionId);
      if (!session || !(session.transport instanceof StreamableHTTPServerTransport))
        return jsonRpcError(res, 404, 'Session not found; initialize a new session', -32001);
      if (session.keyHash !== sha(apiKey))
        return jsonRpcError(res, 403, 'This session belongs to another API key');
      session.lastSeen = Date.now();
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body))
      return jsonRpcError(
        res,
        400,
        'Bad request: send an initialize request first (no Mcp-Session-Id header)',
      );
    if (!this.#makeRoom(caller)) return jsonRpcError(res, 503, 'Too many open MCP sessions; try again later');
    const server = this.#options.createServer(apiKey, req);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.#sessions.set(id, {
          transport,
          server,
          keyHash: sha(apiKey),
          keyId: caller.keyId,
          lastSeen: Date.now(),
        });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** GET /sse: opens a legacy SSE stream and tells the client where to POST its messages. */
  async openSse(
    req: IncomingMessage,
    res: ServerResponse,
    caller: McpCaller,
    /** called with the new session's id; what it returns is called when the session ends */
    onOpen?: (sessionId: string) => () => void,
  ): Promise<void> {
    if (!this.#makeRoom(caller)) return jsonRpcError(res, 503, 'Too many open MCP sessions; try again later');
    const transport = new SSEServerTransport(this.#options.messagesPath, res);
    const server = this.#options.createServer(caller.key, req);
    this.#sessions.set(transport.sessionId, {
      transport,
      server,
      keyHash: sha(caller.key),
      keyId: caller.keyId,
      lastSeen: Date.now(),
    });
    const ended = onOpen?.(transport.sessionId);
    const forget = () => {
      this.#sessions.delete(transport.sessionId);
      ended?.();
    };
    transport.onclose = forget;
    res.on('close', () => {
      forget();
      void server.close();
    });
    await server.connect(transport);
  }

  /**
   * POST /messages?sessionId=…: one message of a legacy SSE session. The session id (random,
   * known only to whoever opened the stream) identifies the caller; a key sent along must be
   * the session's key. Clients that pass the key as `/sse?api_key=` cannot repeat it here,
   * because the SDK resolves the message endpoint without the query string.
   */
  async postSseMessage(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    sessionId: string | undefined,
    apiKey: string | null,
  ): Promise<void> {
    const session = sessionId ? this.#sessions.get(sessionId) : undefined;
    if (!session || !(session.transport instanceof SSEServerTransport))
      return jsonRpcError(res, 404, 'Session not found; open a new stream at /sse', -32001);
    if (apiKey !== null && session.keyHash !== sha(apiKey))
      return jsonRpcError(res, 403, 'This session belongs to another API key');
    session.lastSeen = Date.now();
    await session.transport.handlePostMessage(req, res, body);
  }

  /** Closes every session (server shutdown). */
  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(sessions.map((s) => s.server.close()));
  }

  /**
   * Room for one more session of `caller`: past its plan's cap, its least recently used
   * session is closed. False when the process-wide cap is reached by other keys.
   */
  #makeRoom(caller: McpCaller): boolean {
    let oldest: [string, Session] | null = null;
    let own = 0;
    for (const entry of this.#sessions) {
      if (entry[1].keyId !== caller.keyId) continue;
      own++;
      if (!oldest || entry[1].lastSeen < oldest[1].lastSeen) oldest = entry;
    }
    if (oldest && own >= caller.maxSessions) this.#close(oldest[0], oldest[1]);
    return this.#sessions.size < this.#options.maxSessions;
  }

  #close(id: string, s: Session): void {
    this.#sessions.delete(id);
    void s.server.close();
  }

  #sweep(): void {
    const cutoff = Date.now() - this.#options.idleMs;
    for (const [id, s] of this.#sessions) if (s.lastSeen < cutoff) this.#close(id, s);
  }
}
