import createFetchClient, { type Client, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, MediaType, PathsWithMethod } from 'openapi-typescript-helpers';
import { authorizerOf, type OAuthOptions } from './auth.js';
import { errorOf } from './errors.js';
import { notModifiedOf, type NotModified } from './not-modified.js';
import { rememberResponse } from './response-of.js';
import type { paths } from './generated/openapi.js';
import { nextLink, queryOf } from './pagination.js';
import type { RetryOptions } from './retry.js';
import { createTransport } from './transport.js';
import { webhooks } from './webhooks.js';

export interface ClientOptions {
  /** The API's URL, with or without `/v1`: `https://abc.execute-api.eu-west-1.amazonaws.com/v1`. Default `http://localhost:3000`. */
  baseUrl?: string;
  /** An API key or personal access token (`svc_live_…`, `svc_test_…`, `svc_ro_…`, `svc_pat_…`). */
  apiKey?: string;
  /** OAuth 2.0 tokens, refreshed through `/oauth/token` before they expire and once after a 401. */
  oauth?: OAuthOptions;
  /** Per attempt; default 30 s. */
  timeoutMs?: number;
  /** Retries of 429, 5xx, timeouts and connection failures; see `RetryOptions`. */
  retry?: RetryOptions;
  /** A fetch of your own (tests, proxies); default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

type Paths = paths;
type Method = Extract<HttpMethod, 'get' | 'post' | 'patch' | 'delete'>;
/** openapi-fetch's own rule: the init argument is optional exactly when nothing in it is required. */
type InitArgs<Init> = [Init] extends [undefined] ? [Init?] : undefined extends Init ? [Init?] : [Init];

/** The success body of an operation: `{ data }`, or `{ data, meta }` for a list. */
export type SuccessBody<P extends PathsWithMethod<Paths, M>, M extends Method> = NonNullable<
  FetchResponse<Paths[P][M] & Record<string | number, unknown>, object, MediaType>['data']
>;

/**
 * A conditional GET (`If-None-Match`, as `params.header` or `headers`) of an operation that declares
 * a 304 may answer `NotModified` instead of the body.
 */
type Revalidates<Init> = Init extends { params: { header: { 'If-None-Match'?: unknown } } } | { headers: unknown } ? true : false;
export type Answer<P extends PathsWithMethod<Paths, M>, M extends Method, Init> =
  // An answer with no body (204: a DELETE) resolves to undefined.
  | ([SuccessBody<P, M>] extends [never] ? undefined : SuccessBody<P, M>)
  | (Paths[P][M] extends { responses: { 304: unknown } } ? (true extends Revalidates<Init> ? NotModified : never) : never);

type Call<M extends Method> = <P extends PathsWithMethod<Paths, M>, Init extends MaybeOptionalInit<Paths[P], M>>(
  path: P,
  ...init: InitArgs<Init>
) => Promise<Answer<P, M, Init>>;

/** Paths whose GET answers a page: `{ data: [...], meta }` with a `Link` header. */
export type ListPath = {
  [P in PathsWithMethod<Paths, 'get'>]: SuccessBody<P, 'get'> extends { data: unknown[]; meta: unknown } ? P : never;
}[PathsWithMethod<Paths, 'get'>];

export type ListItem<P extends ListPath> = SuccessBody<P, 'get'> extends { data: (infer T)[] } ? T : never;

export interface ServiceClient {
  get: Call<'get'>;
  post: Call<'post'>;
  patch: Call<'patch'>;
  delete: Call<'delete'>;
  /**
   * Every item of a list, page after page, following each answer's `Link: <…>; rel="next"` (its
   * cursor makes every page cost the same). Stops after the last page; `break` stops early.
   */
  paginate<P extends ListPath, Init extends MaybeOptionalInit<Paths[P], 'get'>>(
    path: P,
    ...init: InitArgs<Init>
  ): AsyncIterable<ListItem<P>>;
  /** The openapi-fetch client underneath (answers `{ data, error, response }` instead of throwing). */
  raw: Client<Paths>;
  webhooks: typeof webhooks;
}

/** `https://host/v1/` → `https://host`: the generated paths carry `/v1` themselves. */
export const apiRootOf = (baseUrl: string): string => baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');

/**
 * A typed client of the API. Each call resolves to the answer's body (`{ data }`, `{ data, meta }`),
 * or `NotModified` for a conditional GET whose copy is still current (304); `responseOf(result)`
 * gives the answer's status and headers (its `ETag`). It throws a
 * `ServiceApiError` (status, code, message, details, request id) for an error answer.
 */
export const createClient = (options: ClientOptions = {}): ServiceClient => {
  const root = apiRootOf(options.baseUrl ?? 'http://localhost:3000');
  if (options.apiKey !== undefined && options.oauth !== undefined) throw new TypeError('Pass apiKey or oauth, not both.');
  const authorizer =
    options.apiKey !== undefined
      ? authorizerOf({ apiKey: options.apiKey }, root)
      : options.oauth
        ? authorizerOf({ oauth: options.oauth }, root)
        : undefined;
  const transport = createTransport({
    authorizer,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    retry: options.retry ?? {},
    timeoutMs: options.timeoutMs ?? 30_000,
  });
  const raw = createFetchClient<Paths>({ baseUrl: root, fetch: transport });

  const send = async (method: Uppercase<Method>, path: string, init: unknown): Promise<{ data: unknown; response: Response }> => {
    const request = raw.request as (m: string, p: string, i: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    // Read as text, then by the answer's media type: JSON for resources, the text itself for a
    // representation such as a patch (`text/x-diff`).
    const { data, error, response } = await request(method, path, { parseAs: 'text', ...(init as object) });
    if (response.status === 304) return { data: notModifiedOf(response), response };
    if (!response.ok) throw await errorOf(response, error);
    const text = data as string | undefined;
    const json = /^application\/([\w.+-]+\+)?json\b/i.test(response.headers.get('Content-Type') ?? 'application/json');
    return { data: text && json ? JSON.parse(text) : text || undefined, response };
  };
  const call =
    (method: Uppercase<Method>) =>
    async (path: string, init?: unknown): Promise<never> => {
      const { data, response } = await send(method, path, init);
      rememberResponse(data, response);
      return data as never;
    };

  async function* paginate(path: string, init?: { params?: { query?: Record<string, unknown> } } & Record<string, unknown>) {
    let current = init ?? {};
    for (;;) {
      const { data, response } = await send('GET', path, current);
      yield* (data as { data: unknown[] }).data;
      const next = nextLink(response.headers.get('Link'));
      if (!next) return;
      current = { ...current, params: { ...current.params, query: queryOf(next) } };
    }
  }

  return {
    get: call('GET') as Call<'get'>,
    post: call('POST') as Call<'post'>,
    patch: call('PATCH') as Call<'patch'>,
    delete: call('DELETE') as Call<'delete'>,
    paginate: paginate as ServiceClient['paginate'],
    raw,
    webhooks,
  };
};
