import {
  createClient,
  isNotModified,
  responseOf,
  ServiceApiError,
  ServiceConnectionError,
  ServiceTimeoutError,
} from '@project-automation-service/sdk';
import { apiError, fakeFetch, hang, json } from './fake-fetch';

const project = { id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G', name: 'Shop', repository: 'https://github.com/acme/shop', description: '' };
const fast = { initialDelayMs: 1, maxDelayMs: 5 };

describe('createClient', () => {
  it('sends the key as a bearer token to the /v1 path, with or without /v1 in the base URL, and answers the body', async () => {
    for (const baseUrl of ['http://api.test', 'http://api.test/v1', 'http://api.test/v1/']) {
      const { fetch, sent } = fakeFetch(() => json(200, { data: project }));
      const api = createClient({ baseUrl, apiKey: 'svc_test_abc', fetch });
      const { data } = await api.get('/v1/projects/{id}', { params: { path: { id: project.id } } });
      expect(data.name).toBe('Shop');
      expect(sent[0]?.url).toBe(`http://api.test/v1/projects/${project.id}`);
      expect(sent[0]?.headers.get('authorization')).toBe('Bearer svc_test_abc');
    }
  });

  it('throws a typed error with status, code, message, details and request id', async () => {
    const { fetch } = fakeFetch(() =>
      apiError(422, 'validation_error', {
        details: { field: 'name', issue: 'is required' },
        errors: [{ field: 'name', issue: 'is required' }],
      }),
    );
    const api = createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch });
    const error = await api.post('/v1/projects', { body: { name: '', repository: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceApiError);
    expect(error).toMatchObject({
      status: 422,
      code: 'validation_error',
      message: 'validation_error happened',
      details: { field: 'name', issue: 'is required' },
      // This answer's X-Request-Id: a replayed answer's body names the request that first made it (req_1).
      requestId: 'req_fake',
    });
  });

  it('answers a representation that is not JSON (a patch) as its text', async () => {
    const diff = 'diff --git a/package.json b/package.json\n-  "lib": "^1.2.0"\n+  "lib": "^1.2.5"\n';
    const { fetch } = fakeFetch(() => new Response(diff, { status: 200, headers: { 'Content-Type': 'text/x-diff; charset=utf-8' } }));
    const api = createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch });
    const patch: string = await api.get('/v1/security/findings/{id}/patch', { params: { path: { id: 'fnd_1' } } });
    expect(patch).toBe(diff);
  });

  it("gives a text answer's ETag through the raw client, as the README shows", async () => {
    const etag = '"5d41402abc4b2a76b9719d911017c592"';
    const { fetch } = fakeFetch(() => new Response('diff', { status: 200, headers: { 'Content-Type': 'text/x-diff', ETag: etag } }));
    const api = createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch });
    const answer = await api.raw.GET('/v1/security/findings/{id}/patch', { params: { path: { id: 'fnd_1' } }, parseAs: 'text' });
    expect(answer.response.headers.get('ETag')).toBe(etag);
    expect(answer.data).toBe('diff');
  });

  it('answers a conditional GET whose copy is current (304) as NotModified with the ETag, not as an error', async () => {
    const etag = '"5d41402abc4b2a76b9719d911017c592"';
    const { fetch, sent } = fakeFetch(
      () => new Response(null, { status: 304, headers: { ETag: etag, 'X-Request-Id': 'req_304' } }),
      () =>
        new Response('diff --git a/x b/x\n', { status: 200, headers: { 'Content-Type': 'text/x-diff; charset=utf-8', ETag: '"other"' } }),
    );
    const api = createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch, retry: fast });
    const held = { params: { path: { id: 'fnd_1' }, header: { 'If-None-Match': etag } } };
    const unchanged = await api.get('/v1/security/findings/{id}/patch', held);
    expect(unchanged).toEqual({ notModified: true, status: 304, etag, requestId: 'req_304' });
    expect(isNotModified(unchanged)).toBe(true);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers.get('if-none-match')).toBe(etag);

    const changed = await api.get('/v1/security/findings/{id}/patch', held);
    expect(isNotModified(changed)).toBe(false);
    expect(changed).toBe('diff --git a/x b/x\n');
  });

  it("gives a result's ETag by responseOf, for a change made only while it is current (If-Match; 412 is an error, not retried)", async () => {
    const etag = '"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"';
    const { fetch, sent } = fakeFetch(
      () => json(200, { data: project }, { ETag: etag, 'X-Request-Id': 'req_get' }),
      () => apiError(412, 'precondition_failed'),
    );
    const api = createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch, retry: fast });
    const read = await api.get('/v1/projects/{id}', { params: { path: { id: project.id } } });
    expect(read.data).toEqual(project);
    expect(responseOf(read)).toMatchObject({ status: 200, etag, requestId: 'req_get' });
    expect(JSON.stringify(read)).toBe(JSON.stringify({ data: project }));

    const error = await api
      .patch('/v1/projects/{id}', {
        params: { path: { id: project.id }, header: { 'If-Match': responseOf(read)!.etag! } },
        body: { name: 'Store' },
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 412, code: 'precondition_failed' });
    expect(sent).toHaveLength(2);
    expect(sent[1]?.headers.get('if-match')).toBe(etag);
    expect(responseOf(undefined)).toBeUndefined();
  });

  it('gives an answer that is not the envelope a code from its status', async () => {
    const { fetch } = fakeFetch(() => new Response('Bad gateway', { status: 418 }));
    const error = await createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch })
      .get('/v1/projects')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 418, code: 'http_418' });
  });
});

describe('retries', () => {
  it('retries 429 and 5xx, reusing one Idempotency-Key across the attempts of a POST', async () => {
    const { fetch, sent } = fakeFetch(
      () => apiError(503, 'internal_error'),
      () => apiError(429, 'rate_limited', {}, { 'Retry-After': '0' }),
      () => apiError(502, 'internal_error'),
      () => json(201, { data: project }),
    );
    const api = createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch, retry: fast });
    const { data } = await api.post('/v1/projects', { body: { name: 'Shop', repository: project.repository } });
    expect(data.id).toBe(project.id);
    expect(sent).toHaveLength(4);
    const keys = sent.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).toBe(1);
    expect(new Set(sent.map((r) => r.body))).toEqual(new Set([JSON.stringify({ name: 'Shop', repository: project.repository })]));
  });

  it('gives every logical POST its own key, and keeps a key the caller chose', async () => {
    const { fetch, sent } = fakeFetch(() => json(201, { data: project }));
    const api = createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch });
    const body = { name: 'Shop', repository: project.repository };
    await api.post('/v1/projects', { body });
    await api.post('/v1/projects', { body });
    await api.post('/v1/projects', { body, params: { header: { 'Idempotency-Key': 'mine-1' } } });
    const keys = sent.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe('mine-1');
    await api.get('/v1/projects');
    expect(sent[3]?.headers.has('idempotency-key')).toBe(false);
  });

  it('waits Retry-After seconds before the next attempt', async () => {
    const { fetch, sent } = fakeFetch(
      () => apiError(429, 'rate_limited', {}, { 'Retry-After': '1' }),
      () => json(200, { data: [], meta: { page: 1, per_page: 20, total: 0, total_pages: 0 } }),
    );
    const started = Date.now();
    const at: number[] = [];
    const timed: typeof globalThis.fetch = (input, init) => {
      at.push(Date.now());
      return fetch(input, init);
    };
    await createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch: timed, retry: fast }).get('/v1/projects');
    expect(sent).toHaveLength(2);
    expect((at[1] as number) - started).toBeGreaterThanOrEqual(1000);
  });

  it('answers at once when Retry-After is longer than it may wait, and when retries run out', async () => {
    const tooLong = fakeFetch(() => apiError(429, 'rate_limited', {}, { 'Retry-After': '3600' }));
    await expect(createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch: tooLong.fetch }).get('/v1/projects')).rejects.toMatchObject(
      {
        status: 429,
        code: 'rate_limited',
        // What it asked to wait, for the caller to schedule its own retry.
        retryAfterMs: 3_600_000,
      },
    );
    expect(tooLong.sent).toHaveLength(1);

    const down = fakeFetch(() => apiError(500, 'internal_error'));
    await expect(
      createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch: down.fetch, retry: { ...fast, maxRetries: 2 } }).get('/v1/projects'),
    ).rejects.toMatchObject({ status: 500 });
    expect(down.sent).toHaveLength(3);
  });

  it('retries a POST whose first attempt is still running (409 idempotency_key_in_use), but no other 409 or 4xx', async () => {
    const inUse = fakeFetch(
      () => apiError(409, 'idempotency_key_in_use'),
      () => json(201, { data: project }),
    );
    await createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch: inUse.fetch, retry: fast }).post('/v1/projects', {
      body: { name: 'Shop', repository: 'r' },
    });
    expect(inUse.sent).toHaveLength(2);

    for (const [status, code] of [
      [409, 'conflict'],
      [422, 'validation_error'],
      [404, 'not_found'],
      [403, 'insufficient_scope'],
    ] as const) {
      const once = fakeFetch(() => apiError(status, code));
      await expect(
        createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch: once.fetch, retry: fast }).post('/v1/projects', {
          body: { name: 'Shop', repository: 'r' },
        }),
      ).rejects.toMatchObject({ status, code });
      expect(once.sent).toHaveLength(1);
    }
  });

  it('retries connection failures, then throws a ServiceConnectionError', async () => {
    const refused = fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    const error = await createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch: refused.fetch, retry: { ...fast, maxRetries: 2 } })
      .get('/v1/projects')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceConnectionError);
    expect(error).not.toBeInstanceOf(ServiceTimeoutError);
    expect(refused.sent).toHaveLength(3);
  });

  it('ends an attempt at the timeout, retries it, then throws a ServiceTimeoutError', async () => {
    const slow = fakeFetch(hang);
    const error = await createClient({
      baseUrl: 'http://api.test',
      apiKey: 'k',
      fetch: slow.fetch,
      timeoutMs: 50,
      retry: { ...fast, maxRetries: 1 },
    })
      .get('/v1/projects')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceTimeoutError);
    expect(slow.sent).toHaveLength(2);
  });

  it('a body that stalls after the headers is a timeout of the attempt: retried, then a ServiceTimeoutError', async () => {
    const stalled = fakeFetch(
      (request) =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"data":'));
              request.signal?.addEventListener('abort', () => controller.error(request.signal?.reason));
            },
          }),
          { status: 200, headers: { 'Content-Type': 'application/json' } },
        ),
    );
    const error = await createClient({
      baseUrl: 'http://api.test',
      apiKey: 'k',
      fetch: stalled.fetch,
      timeoutMs: 50,
      retry: { ...fast, maxRetries: 1 },
    })
      .get('/v1/projects')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceTimeoutError);
    expect(stalled.sent).toHaveLength(2);
  });

  it('sends a DELETE or a change under If-Match once when its answer is lost: it may have been applied, and a repeat would answer 404 or 412', async () => {
    for (const call of [
      (api: ReturnType<typeof createClient>) => api.delete('/v1/projects/{id}', { params: { path: { id: project.id } } }),
      (api: ReturnType<typeof createClient>) =>
        api.patch('/v1/projects/{id}', {
          params: { path: { id: project.id }, header: { 'If-Match': '"abc"' } },
          body: { description: 'x' },
        }),
    ]) {
      const lost = fakeFetch(() => Promise.reject(new TypeError('socket hang up')));
      const error = await call(createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch: lost.fetch, retry: fast })).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ServiceConnectionError);
      expect((error as Error).message).toContain('It may have been applied');
      expect(lost.sent).toHaveLength(1);
    }
    // A change without If-Match sets the same values again: it is retried.
    const lost = fakeFetch(
      () => Promise.reject(new TypeError('socket hang up')),
      () => json(200, { data: project }),
    );
    await createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch: lost.fetch, retry: fast }).patch('/v1/projects/{id}', {
      params: { path: { id: project.id } },
      body: { description: 'x' },
    });
    expect(lost.sent).toHaveLength(2);
  });

  it('resolves a DELETE (204, no body) to undefined, and types it so', async () => {
    const { fetch } = fakeFetch(() => new Response(null, { status: 204, headers: { 'X-Request-Id': 'req_fake' } }));
    const api = createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch });
    const deleted: undefined = await api.delete('/v1/projects/{id}', { params: { path: { id: project.id } } });
    expect(deleted).toBeUndefined();
    // @ts-expect-error: a DELETE answers no body, so its result is not a number (or anything else).
    const wrong: number = await api.delete('/v1/projects/{id}', { params: { path: { id: project.id } } });
    expect(wrong).toBeUndefined();
  });

  it("stops at once when the caller's signal aborts", async () => {
    const slow = fakeFetch(hang);
    const controller = new AbortController();
    const pending = createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch: slow.fetch }).get('/v1/projects', {
      signal: controller.signal,
    });
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    expect(slow.sent.length).toBeLessThanOrEqual(1);
  });
});

describe('paginate', () => {
  it('yields every item, following the Link header to the next page until there is none', async () => {
    const page = (ids: string[], next?: string) =>
      json(
        200,
        { data: ids.map((id) => ({ ...project, id })), meta: { page: 1, per_page: 2, total: 5, total_pages: 3 } },
        next ? { Link: `<http://api.test/v1/projects?page=1>; rel="first", <${next}>; rel="next", <http://x/last>; rel="last"` } : {},
      );
    const { fetch, sent } = fakeFetch(
      () => page(['p1', 'p2'], 'http://api.test/v1/projects?per_page=2&sort=name&page=2&cursor=c2'),
      () => page(['p3', 'p4'], 'http://api.test/v1/projects?per_page=2&sort=name&page=3&cursor=c3'),
      () => page(['p5']),
    );
    const api = createClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch });
    const ids: string[] = [];
    for await (const item of api.paginate('/v1/projects', { params: { query: { per_page: 2, sort: 'name' } } })) ids.push(item.id);
    expect(ids).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(sent.map((r) => new URL(r.url).search)).toEqual([
      '?per_page=2&sort=name',
      '?per_page=2&sort=name&page=2&cursor=c2',
      '?per_page=2&sort=name&page=3&cursor=c3',
    ]);
  });
});
