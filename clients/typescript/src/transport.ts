import type { Authorizer } from './auth.js';
import { errorOf, ServiceConnectionError, ServiceTimeoutError } from './errors.js';
import { backoffDelay, retryableStatus, retryAfterMs, retryDefaults, type RetryOptions, sleep } from './retry.js';

export interface TransportOptions {
  authorizer: Authorizer | undefined;
  fetch: typeof fetch;
  retry: RetryOptions;
  /** Per attempt. */
  timeoutMs: number;
}

/** A random UUID v4, also where `crypto.randomUUID` is missing (browser pages served over plain http). */
export const newIdempotencyKey = (): string => {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/**
 * Whether a request whose answer was lost (a timeout, a dropped connection: it may have been
 * applied) can be sent again and mean the same: a read, or a POST under its `Idempotency-Key`. A
 * DELETE sent again would answer 404 for a deletion that worked, a change under `If-Match` 412 for
 * one that was stored, so those are not sent again: the error says it may have been applied.
 */
const repeatableAfterLostAnswer = (method: string, headers: Headers): boolean =>
  method === 'GET' || method === 'HEAD' || method === 'POST' || (method === 'PATCH' && !headers.has('If-Match'));

/** The answer with its body read within the attempt's time: a body that stalls is a timeout of the attempt, not of the caller's read. */
const buffered = async (response: Response): Promise<Response> => {
  const bytes = response.status === 204 || response.status === 304 ? null : await response.arrayBuffer();
  return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
};

/** 409 `idempotency_key_in_use`: the first attempt of this POST is still running; its answer will be replayed. */
const isKeyInUse = async (response: Response): Promise<boolean> =>
  response.status === 409 && (await errorOf(response)).code === 'idempotency_key_in_use';

/**
 * The fetch every SDK request goes through: the credential, an `Idempotency-Key` generated once per
 * POST and sent on each of its attempts, a timeout per attempt (the answer's body read within it),
 * and retries with exponential backoff and full jitter on 429, 5xx, a POST still in flight, and
 * timeouts and connection failures of a request that means the same sent again
 * (`repeatableAfterLostAnswer`), waiting `Retry-After` when the answer gives one. A rejected OAuth
 * token is refreshed once.
 */
export const createTransport = (options: TransportOptions) => {
  const retry = { ...retryDefaults, ...options.retry };
  const fetchImpl = options.fetch;

  return async (request: Request): Promise<Response> => {
    const headers = new Headers(request.headers);
    if (request.method === 'POST' && !headers.has('Idempotency-Key')) headers.set('Idempotency-Key', newIdempotencyKey());
    // Read once, sent on every attempt.
    const body = request.body ? await request.arrayBuffer() : undefined;
    const caller = request.signal;
    let refreshed = false;

    for (let attempt = 0; ; attempt += 1) {
      caller.throwIfAborted();
      const authorization = await options.authorizer?.authorization(fetchImpl);
      if (authorization) headers.set('Authorization', authorization);
      const timeout = AbortSignal.timeout(options.timeoutMs);
      let response: Response;
      try {
        response = await buffered(
          await fetchImpl(request.url, {
            method: request.method,
            headers,
            body,
            signal: AbortSignal.any([caller, timeout]),
            redirect: request.redirect,
          }),
        );
      } catch (error) {
        if (caller.aborted) throw caller.reason ?? error;
        const repeatable = repeatableAfterLostAnswer(request.method, headers);
        if (attempt < retry.maxRetries && repeatable) {
          await sleep(backoffDelay(attempt, retry), caller);
          continue;
        }
        const what = `${request.method} ${new URL(request.url).pathname}`;
        const unsure = repeatable ? '' : ' It may have been applied: read the resource to see, rather than send it again.';
        throw timeout.aborted
          ? new ServiceTimeoutError(`${what} got no answer within ${options.timeoutMs} ms (${attempt + 1} attempts).${unsure}`, {
              cause: error,
            })
          : new ServiceConnectionError(`${what} could not reach the API (${attempt + 1} attempts): ${(error as Error).message}.${unsure}`, {
              cause: error,
            });
      }

      if (
        response.status === 401 &&
        !refreshed &&
        authorization &&
        (await options.authorizer?.refreshAfterRejection(fetchImpl, authorization))
      ) {
        refreshed = true;
        attempt -= 1;
        await response.body?.cancel();
        continue;
      }
      if (
        attempt >= retry.maxRetries ||
        !(retryableStatus(response.status) || (request.method === 'POST' && (await isKeyInUse(response))))
      ) {
        return response;
      }
      const after = retryAfterMs(response.headers.get('Retry-After'));
      if (after !== undefined && after > retry.maxRetryAfterMs) return response;
      await response.body?.cancel();
      await sleep(after ?? backoffDelay(attempt, retry), caller);
    }
  };
};
