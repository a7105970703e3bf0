/** A scripted fetch: records every request it is sent and answers from a list of responders. */
export interface SentRequest {
  url: string;
  method: string;
  headers: Headers;
  body: string;
  signal: AbortSignal | undefined;
}

export type Responder = (request: SentRequest) => Response | Promise<Response>;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req_fake', ...headers },
  });

export const apiError = (status: number, code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  json(status, { error: { code, message: `${code} happened`, request_id: 'req_1', ...extra } }, headers);

export const fakeFetch = (...responders: Responder[]) => {
  const sent: SentRequest[] = [];
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const request: SentRequest = {
      url: String(input instanceof Request ? input.url : input),
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body:
        init.body === undefined || init.body === null
          ? ''
          : typeof init.body === 'string'
            ? init.body
            : new TextDecoder().decode(init.body as ArrayBuffer),
      signal: init.signal ?? undefined,
    };
    sent.push(request);
    const responder = responders[Math.min(sent.length - 1, responders.length - 1)];
    if (!responder) throw new Error('no responder');
    return responder(request);
  };
  return { fetch: fetch as typeof globalThis.fetch, sent };
};

/** A fetch that never answers: it rejects only when its signal aborts. */
export const hang: Responder = (request) =>
  new Promise((_resolve, reject) => {
    if (request.signal?.aborted) reject(request.signal.reason);
    request.signal?.addEventListener('abort', () => reject(request.signal?.reason));
  });
