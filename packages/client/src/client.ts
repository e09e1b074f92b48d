import createClient, { type Client, type MaybeOptionalInit } from 'openapi-fetch';
import type { PathsWithMethod, RequiredKeysOf, SuccessResponseJSON } from 'openapi-typescript-helpers';
import { codeForStatus, type ErrorBody, RETRYABLE_STATUSES, ShelfError } from './errors.js';
import type { paths } from './generated/openapi.js';
import { type RateLimit, rateLimitOf } from './rate-limit.js';
import { DEFAULT_RETRY, type FetchLike, type RetryEvent, type RetryOptions, retryingFetch } from './retry.js';

export type GetPath = PathsWithMethod<paths, 'get'>;
export type PostPath = PathsWithMethod<paths, 'post'>;
type Method = 'get' | 'post';

/** The options of one call: `params.path`, `params.query`, `body`, `headers`, `signal`. */
export type RequestInit<P extends keyof paths, M extends Method> = MaybeOptionalInit<paths[P], M>;
/** The init argument, optional when the operation has no required parameter. */
type InitArgs<I> = RequiredKeysOf<I> extends never ? [init?: I] : [init: I];

/** The success body (`{success: true, data, meta, …}`) of an operation. */
export type SuccessBody<P extends keyof paths, M extends Method> = SuccessResponseJSON<
  NonNullable<paths[P][M]>
>;

/** GET paths whose answer is a cursor-paginated list. */
export type PagedPath = {
  [P in GetPath]: SuccessBody<P, 'get'> extends { pagination: { nextCursor: string | null } } ? P : never;
}[GetPath];

/**
 * The query parameter that carries a list's cursor: `cursor` everywhere except the change
 * feed, which continues from `since` (its nextCursor, or the cursor an export names).
 */
const CURSOR_PARAM: Partial<Record<PagedPath, string>> = { '/v2/changes': 'since' };

/** One successful answer: the envelope's parts, the full body and what the headers say. */
export interface ShelfResponse<B> {
  data: B extends { data: infer D } ? D : never;
  meta: B extends { meta: infer M } ? M : never;
  /** the list's pagination (total, hasMore, nextCursor, …); null for single resources */
  pagination: B extends { pagination: infer P } ? P : null;
  /** the whole envelope, with top-level extras such as the facets of an advanced search */
  body: B;
  status: number;
  headers: Headers;
  /** the rate-limit and quota headers of this answer */
  rateLimit: RateLimit;
  requestId: string | null;
}

export interface ShelfClientOptions {
  /** where the API is, without `/v2` (e.g. `https://shelf.example.com`) */
  baseUrl: string;
  /** sent as `X-API-Key` on every request */
  apiKey?: string;
  /** the transport (default: the global `fetch`); tests and in-process callers pass their own */
  fetch?: FetchLike;
  /** time limit of one attempt, ms (default 15 000) */
  timeoutMs?: number;
  /** retry policy (defaults: 2 retries, 300 ms backoff, waits up to 30 s); `false` never retries */
  retry?: Partial<RetryOptions> | false;
  /** extra headers on every request */
  headers?: Record<string, string>;
  /** called before each retry, with the wait it is about to make */
  onRetry?: (event: RetryEvent) => void;
}

type Raw = Client<paths, 'application/json'>;
type Outcome = { data?: unknown; error?: unknown; response: Response };

/**
 * Shelf's REST API, typed from its OpenAPI document: `get` and `post` resolve to the
 * success envelope or throw a `ShelfError`; `paginate` walks cursor pages.
 */
export class ShelfClient {
  /** the underlying openapi-fetch client (same transport, retries and key), for anything else */
  readonly raw: Raw;
  readonly #origin: string;

  constructor(options: ShelfClientOptions) {
    const retry =
      options.retry === false ? { ...DEFAULT_RETRY, retries: 0 } : { ...DEFAULT_RETRY, ...options.retry };
    const transport = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.#origin = options.baseUrl;
    this.raw = createClient<paths, 'application/json'>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      fetch: retryingFetch(transport, {
        retry,
        timeoutMs: options.timeoutMs ?? 15_000,
        ...(options.onRetry ? { onRetry: options.onRetry } : {}),
      }),
      headers: {
        accept: 'application/json',
        ...options.headers,
        ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
      },
    });
  }

  /** GET one operation; resolves to its success envelope, throws `ShelfError` otherwise. */
  async get<P extends GetPath>(
    path: P,
    ...init: InitArgs<RequestInit<P, 'get'>>
  ): Promise<ShelfResponse<SuccessBody<P, 'get'>>> {
    return this.#settle((this.raw.GET as (...a: unknown[]) => Promise<Outcome>)(path, ...init));
  }

  /** POST one operation (the searches); resolves to its success envelope, throws `ShelfError` otherwise. */
  async post<P extends PostPath>(
    path: P,
    ...init: InitArgs<RequestInit<P, 'post'>>
  ): Promise<ShelfResponse<SuccessBody<P, 'post'>>> {
    return this.#settle((this.raw.POST as (...a: unknown[]) => Promise<Outcome>)(path, ...init));
  }

  /**
   * Every page of a cursor-paginated list, first to last:
   * `for await (const page of client.paginate('/v2/products', { params: { query: { q } } }))`.
   * Starts at `params.query.cursor` when given (`since` for the change feed, `/v2/changes`).
   */
  async *paginate<P extends PagedPath>(
    path: P,
    ...init: InitArgs<RequestInit<P, 'get'>>
  ): AsyncGenerator<ShelfResponse<SuccessBody<P, 'get'>>, void, undefined> {
    const first = (init[0] ?? {}) as { params?: { query?: Record<string, unknown> } };
    const param = CURSOR_PARAM[path] ?? 'cursor';
    let cursor = first.params?.query?.[param] as string | undefined;
    const seen = new Set<string>();
    for (;;) {
      const query = { ...first.params?.query, ...(cursor === undefined ? {} : { [param]: cursor }) };
      const args = [{ ...first, params: { ...first.params, query } }] as InitArgs<RequestInit<P, 'get'>>;
      const page = await this.get(path, ...args);
      yield page;
      const p = page.pagination as { hasMore?: boolean; nextCursor?: string | null } | null;
      // a cursor seen before would loop forever: stop rather than trust a server bug
      if (!p?.hasMore || !p.nextCursor || seen.has(p.nextCursor)) return;
      seen.add(p.nextCursor);
      cursor = p.nextCursor;
    }
  }

  /** Every item of a cursor-paginated list, page after page (`for await (const product of …)`). */
  async *items<P extends PagedPath>(
    path: P,
    ...init: InitArgs<RequestInit<P, 'get'>>
  ): AsyncGenerator<
    ShelfResponse<SuccessBody<P, 'get'>>['data'] extends (infer T)[] ? T : never,
    void,
    undefined
  > {
    for await (const page of this.paginate(path, ...init)) yield* page.data as never[];
  }

  async #settle<B>(call: Promise<Outcome>): Promise<ShelfResponse<B>> {
    let outcome: Outcome;
    try {
      outcome = await call;
    } catch (error) {
      throw this.#noAnswer(error);
    }
    const { response } = outcome;
    const rateLimit = rateLimitOf(response.headers);
    const body = (outcome.error ?? outcome.data) as
      | { success?: unknown; error?: Partial<ErrorBody>; meta?: { requestId?: string } }
      | string
      | undefined;
    const envelope = typeof body === 'object' && body !== null ? body : undefined;
    const requestId = response.headers.get('x-request-id') ?? envelope?.meta?.requestId ?? null;
    if (!response.ok || envelope?.success !== true) {
      const error = envelope?.error;
      throw new ShelfError(
        {
          code: error?.code ?? codeForStatus(response.ok ? 500 : response.status),
          message:
            error?.message ??
            (response.ok ? 'the answer is not a Shelf envelope' : `the API answered HTTP ${response.status}`),
          userMessage: error?.userMessage,
          details: error?.details ?? null,
          retryable: error?.retryable ?? (!response.ok && RETRYABLE_STATUSES.has(response.status)),
          retryAfter: error?.retryAfter ?? rateLimit.retryAfter,
        },
        { status: response.status, requestId, rateLimit },
      );
    }
    const b = envelope as { data?: unknown; meta?: unknown; pagination?: unknown };
    return {
      data: b.data,
      meta: b.meta,
      pagination: b.pagination ?? null,
      body: envelope,
      status: response.status,
      headers: response.headers,
      rateLimit,
      requestId,
    } as ShelfResponse<B>;
  }

  /** A request that got no usable answer: timed out, could not reach the API, or not JSON. */
  #noAnswer(error: unknown): ShelfError {
    if (error instanceof ShelfError) return error;
    // a 2xx whose body is not JSON (a proxy's page, or prices.svg: read that one with `raw`)
    if (error instanceof SyntaxError)
      return new ShelfError(
        { code: 'INTERNAL', message: `the answer is not JSON (${error.message})`, retryable: false },
        { status: 0, cause: error },
      );
    const e = error as Error;
    const timeout = e?.name === 'TimeoutError';
    const aborted = e?.name === 'AbortError';
    const reason = (e?.cause as Error | undefined)?.message ?? e?.message ?? String(error);
    return new ShelfError(
      {
        code: timeout ? 'TIMEOUT' : aborted ? 'ABORTED' : 'UNREACHABLE',
        message: timeout
          ? `the Shelf API at ${this.#origin} did not answer in time`
          : aborted
            ? 'the request was aborted'
            : `the Shelf API at ${this.#origin} could not be reached (${reason})`,
        retryable: !aborted,
      },
      { status: 0, cause: error },
    );
  }
}

/** A client for the Shelf API at `options.baseUrl`. */
export const createShelfClient = (options: ShelfClientOptions): ShelfClient => new ShelfClient(options);
