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
  ) {
    super(message);
  }
}

export interface ApiResult<T> {
  data: T;
  pagination?: { total: number; hasMore: boolean; nextCursor: string | null };
  meta: Record<string, unknown>;
  /** remaining minute and month quota, from the rate-limit headers when the API sends them */
  quota: { minuteRemaining: number | null; monthRemaining: number | null };
}

export class RestClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly timeoutMs = 15_000,
  ) {}

  async get<T>(
    path: string,
    query: Record<string, string | number | boolean | undefined> = {},
  ): Promise<ApiResult<T>> {
    const url = new URL(path, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return this.#send<T>(url, { method: 'GET' });
  }

  async post<T>(path: string, body: unknown): Promise<ApiResult<T>> {
    const url = new URL(path, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    return this.#send<T>(url, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
  }

  async #send<T>(url: URL, init: RequestInit): Promise<ApiResult<T>> {
    let response: Response;
    try {
      response = await fetch(url, {
        ...init,
        headers: {
          ...(init.headers as Record<string, string>),
          'x-api-key': this.apiKey,
          accept: 'application/json',
        },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new ShelfApiError(
        'UNREACHABLE',
        `the Shelf API at ${this.baseUrl} could not be reached (${(error as Error).message})`,
        0,
      );
    }
    const body = (await response.json().catch(() => null)) as {
      success?: boolean;
      data?: T;
      error?: { code: string; message: string; retryAfter?: number | null };
      meta?: Record<string, unknown>;
      pagination?: ApiResult<T>['pagination'];
    } | null;
    if (!response.ok || !body?.success) {
      const error = body?.error;
      throw new ShelfApiError(
        error?.code ?? 'HTTP_ERROR',
        error?.message ?? `HTTP ${response.status}`,
        response.status,
        error?.retryAfter ?? null,
      );
    }
    const header = (name: string) => {
      const v = response.headers.get(name);
      return v === null ? null : Number(v);
    };
    return {
      data: body.data as T,
      pagination: body.pagination,
      meta: body.meta ?? {},
      quota: {
        minuteRemaining: header('x-ratelimit-remaining'),
        monthRemaining: header('x-monthlyquota-remaining'),
      },
    };
  }
}
