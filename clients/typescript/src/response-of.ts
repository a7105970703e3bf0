/** The HTTP answer a call's result came in: what the body does not carry (Stripe's `lastResponse`). */
export interface ResponseInfo {
  readonly status: number;
  /** Every header: `ETag`, `RateLimit`, `Link`, `Location`, `Idempotent-Replayed`… */
  readonly headers: Headers;
  /** The `ETag` of a resource that has one (a project, a webhook), quoted as sent: send it back in `If-Match` or `If-None-Match`. */
  readonly etag: string | undefined;
  /** The request id to quote to support (`X-Request-Id`). */
  readonly requestId: string | undefined;
}

// Kept beside the results rather than on them: a body stays exactly the JSON the API sent. One map
// for the ES module and CommonJS builds, which a process may load both of: either build's
// `responseOf` tells the answer of a call made with the other.
const registry = Symbol.for('@project-automation-service/sdk:responses');
const shared = globalThis as { [registry]?: WeakMap<object, ResponseInfo> };
const responsesMap = (): WeakMap<object, ResponseInfo> => (shared[registry] ??= new WeakMap());

export const rememberResponse = (result: unknown, response: Response): void => {
  if (typeof result !== 'object' || result === null) return;
  responsesMap().set(result, {
    status: response.status,
    headers: response.headers,
    etag: response.headers.get('etag') ?? undefined,
    requestId: response.headers.get('x-request-id') ?? undefined,
  });
};

/**
 * The answer a call's result came in (`get`, `post`, `patch` resolve to the body; this gives its
 * status and headers), or undefined for what has no object to hold it (a 204, a text body).
 */
export const responseOf = (result: unknown): ResponseInfo | undefined =>
  typeof result === 'object' && result !== null ? responsesMap().get(result) : undefined;
