/**
 * The MCP server's only way to the data: the public REST API, called with the caller's key,
 * so every tool call counts against the caller's plan like any other request.
 */
export class ShelfApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly retryAfter: number | null = null,
    readonly details: unknown = null,
  ) {
    super(message);
  }
}

/** The caller's remaining requests, from the rate-limit headers (null when the API sends none). */
export interface Quota {
  minuteRemaining: number | null;
  monthRemaining: number | null;
}

export interface ApiResult<T> {
  data: T;
  pagination?: { total: number; hasMore: boolean; nextCursor: string | null };
  meta: Record<string, unknown>;
  /** remaining minute and month quota, from the rate-limit headers when the API sends them */
  quota: Quota;
  /** top-level keys beside data (e.g. `facets` of advanced search) */
  extra: Record<string, unknown>;
}

/** One HTTP exchange, independent of how it travels (real HTTP or Fastify's in-process inject). */
export interface ApiRequest {
  method: 'GET' | 'POST';
  /** absolute URL; only its path and query matter to in-process fetchers */
  url: URL;
  headers: Record<string, string>;
  body?: string;
}
export interface ApiResponse {
  status: number;
  header(name: string): string | null;
  text: string;
}
export type ApiFetcher = (request: ApiRequest) => Promise<ApiResponse>;

/** Real HTTP with a timeout: what the stdio server uses to reach a remote API. */
export function httpFetcher(timeoutMs = 15_000): ApiFetcher {
  return async ({ method, url, headers, body }) => {
    const response = await fetch(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: response.status, header: (n) => response.headers.get(n), text: await response.text() };
  };
}

/** A code for error responses without our envelope (a proxy's 429 or 502, say). */
function codeForStatus(status: number): string {
  if (status === 429) return 'RATE_LIMITED';
  if (status === 401) return 'AUTH_INVALID';
  if (status === 400 || status === 422) return 'VALIDATION_ERROR';
  if (status === 503) return 'CATALOG_UNAVAILABLE';
  return 'INTERNAL';
}

type Query = Record<string, string | number | boolean | undefined>;

export class RestClient {
  readonly #base: URL;

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
    private readonly fetcher: ApiFetcher = httpFetcher(),
  ) {
    this.#base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  }

  async get<T>(path: string, query: Query = {}): Promise<ApiResult<T>> {
    const url = new URL(path, this.#base);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return this.#send<T>({ method: 'GET', url, headers: {} });
  }

  async post<T>(path: string, body: unknown): Promise<ApiResult<T>> {
    return this.#send<T>({
      method: 'POST',
      url: new URL(path, this.#base),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  async #send<T>(request: ApiRequest): Promise<ApiResult<T>> {
    let response: ApiResponse;
    try {
      response = await this.fetcher({
        ...request,
        headers: { ...request.headers, 'x-api-key': this.apiKey, accept: 'application/json' },
      });
    } catch (error) {
      throw new ShelfApiError(
        'UNREACHABLE',
        `the Shelf API at ${this.#base.origin} could not be reached (${(error as Error).message})`,
        0,
      );
    }
    let body: {
      success?: boolean;
      data?: T;
      error?: { code?: string; message?: string; retryAfter?: number | null; details?: unknown };
      meta?: Record<string, unknown>;
      pagination?: ApiResult<T>['pagination'];
      [key: string]: unknown;
    } | null = null;
    try {
      body = JSON.parse(response.text);
    } catch {
      body = null;
    }
    const number = (name: string) => {
      const v = response.header(name);
      return v === null || v === '' || !Number.isFinite(Number(v)) ? null : Number(v);
    };
    if (response.status >= 400 || !body?.success) {
      const error = body?.error;
      throw new ShelfApiError(
        error?.code ?? codeForStatus(response.status),
        error?.message ?? `the API answered HTTP ${response.status}`,
        response.status,
        error?.retryAfter ?? number('retry-after'),
        error?.details ?? null,
      );
    }
    const { success: _s, data, meta, pagination, error: _e, ...extra } = body;
    return {
      data: data as T,
      pagination,
      meta: meta ?? {},
      extra,
      quota: {
        minuteRemaining: number('x-ratelimit-remaining'),
        monthRemaining: number('x-monthlyquota-remaining'),
      },
    };
  }
}
