import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { conflict } from '../../functions/core/errors';
import { createProject, deleteProject, getProject, listProjects } from '../../functions/core/projects/project-use-cases';
import { handler as openApiHandler } from '../../functions/handlers/meta/openapi';
import { toListQuery } from '../../functions/http/list-query';
import { logger } from '../../functions/observability/logger';
import { maxBodyBytes } from '../../functions/http/middlewares/body-guard';
import { createApiHandler, type ApiRequest, type Reply } from '../../functions/http/pipeline';
import { writeSteps } from '../../functions/http/request-steps';
import type { HttpResponse } from '../../functions/http/response';
import { pageMeta } from '../../functions/core/pagination';
import { createProjectRoute, deleteProjectRoute, getProjectRoute, listProjectsRoute } from '../../functions/routes/projects';
import { cancelWorkflowRoute } from '../../functions/routes/workflows';
import { buildOpenApiDocument } from '../../functions/openapi/build-document';
import { apiEvent, type EventOptions, lambdaContext } from './fakes/api-gateway-event';
import { inMemoryHttpDeps } from './fakes/http-deps';
import { inMemoryProjectRepository } from './fakes/project-repository';

// Unexpected failures are logged on purpose; keep the test output readable.
logger.setLogLevel('SILENT');

type Handler = (event: APIGatewayProxyEventV2, context: typeof lambdaContext) => Promise<HttpResponse>;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: any;
  raw: string;
}

const send = async (handler: Handler, options: EventOptions): Promise<Answer> => {
  const response = await handler(apiEvent(options), lambdaContext);
  const raw = response.body ?? '';
  return { status: response.statusCode, headers: response.headers, body: raw ? JSON.parse(raw) : undefined, raw };
};

const validProject = { name: 'Checkout', repository: 'https://github.com/example/checkout' };

/**
 * The real project routes behind the real pipeline, with in-memory ports. The handle functions
 * are the production handlers' bodies; `calls` counts how often each one ran.
 */
const setUp = async () => {
  const http = inMemoryHttpDeps();
  const projectDeps = { projects: inMemoryProjectRepository(), clock: http.deps.clock, repositoryProblem: () => null };
  const account = await http.newAccount();
  const live = await http.newKey(account.id, 'live');
  const calls = { create: 0 };
  const deps = () => http.deps;

  let createBehaviour = async (request: ApiRequest<typeof createProjectRoute>): Promise<Reply> => {
    const project = await createProject(request.principal, request.body, projectDeps);
    return { data: project, location: `/v1/projects/${project.id}` };
  };
  const handlers = {
    create: createApiHandler(
      createProjectRoute,
      (request) => {
        calls.create += 1;
        return createBehaviour(request);
      },
      deps,
      writeSteps(deps),
    ),
    get: createApiHandler(
      getProjectRoute,
      async ({ principal, params }) => ({ data: await getProject(principal, params.id, projectDeps) }),
      deps,
    ),
    delete: createApiHandler(
      deleteProjectRoute,
      async ({ principal, params }) => {
        await deleteProject(principal, params.id, projectDeps);
        return { empty: true };
      },
      deps,
    ),
    list: createApiHandler(
      listProjectsRoute,
      async ({ principal, query: params }) => {
        const query = toListQuery(params, 'created_at');
        const page = await listProjects(principal, query, projectDeps);
        return { list: page.items, meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
      },
      deps,
    ),
  };
  const auth = { authorization: `Bearer ${live.key}` };
  const postProject = (json: unknown, headers: Record<string, string> = {}) =>
    send(handlers.create, { method: 'POST', path: '/v1/projects', json, headers: { ...auth, ...headers } });
  const setCreate = (behaviour: typeof createBehaviour) => {
    createBehaviour = behaviour;
  };
  return { http, account, live, auth, calls, handlers, postProject, setCreate };
};

describe('request ids', () => {
  it('every answer carries X-Request-Id, and error bodies repeat it as error.request_id', async () => {
    const { handlers, auth } = await setUp();
    const ok = await send(handlers.create, {
      method: 'POST',
      path: '/v1/projects',
      json: validProject,
      headers: auth,
      requestId: 'req-ok',
    });
    expect(ok.status).toBe(201);
    expect(ok.headers['X-Request-Id']).toBe('req-ok');

    const failures = [
      await send(handlers.create, { method: 'POST', path: '/v1/projects', json: validProject, requestId: 'req-401' }),
      await send(handlers.create, { method: 'POST', path: '/v1/projects', json: {}, headers: auth, requestId: 'req-422' }),
      await send(handlers.get, {
        method: 'GET',
        path: '/v1/projects/proj_x',
        pathParameters: { id: 'proj_x' },
        headers: auth,
        requestId: 'req-404',
      }),
    ];
    expect(failures.map((f) => f.status)).toEqual([401, 422, 404]);
    for (const failure of failures) {
      expect(failure.headers['X-Request-Id']).toMatch(/^req-/);
      expect(failure.body.error.request_id).toBe(failure.headers['X-Request-Id']);
    }
  });
});

describe('success answers', () => {
  it('create answers 201 with data and an absolute Location naming the new resource', async () => {
    const { postProject, handlers, auth } = await setUp();
    const created = await postProject(validProject);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ ...validProject, id: expect.stringMatching(/^proj_/) });
    expect(created.headers.Location).toBe(`https://api.example.test/v1/projects/${created.body.data.id}`);
    expect(created.headers['Content-Type']).toMatch(/^application\/json/);

    const id = created.body.data.id as string;
    const fetched = await send(handlers.get, { method: 'GET', path: `/v1/projects/${id}`, pathParameters: { id }, headers: auth });
    expect(fetched.body).toEqual({ data: created.body.data });
  });

  it('delete answers 204 with no body', async () => {
    const { postProject, handlers, auth } = await setUp();
    const id = (await postProject(validProject)).body.data.id as string;
    const deleted = await send(handlers.delete, { method: 'DELETE', path: `/v1/projects/${id}`, pathParameters: { id }, headers: auth });
    expect(deleted.status).toBe(204);
    expect(deleted.raw).toBe('');
  });

  it("builds Location and Link on API Gateway's domain, never on the Host or X-Forwarded-Proto headers", async () => {
    const { handlers, postProject, auth } = await setUp();
    const hostile = {
      host: 'evil.example>; rel="next", <https://attacker.example/x',
      'x-forwarded-proto': 'javascript:alert(1)//',
      'x-forwarded-host': 'attacker.example',
    };
    const created = await postProject(validProject, hostile);
    expect(created.headers.Location).toBe(`https://api.example.test/v1/projects/${created.body.data.id}`);
    await postProject(validProject);
    const listed = await send(handlers.list, { method: 'GET', path: '/v1/projects?per_page=1', headers: { ...auth, ...hostile } });
    const links = String(listed.headers.Link).split(', ');
    expect(links).toHaveLength(3);
    for (const link of links) expect(link).toMatch(/^<https:\/\/api\.example\.test\/v1\/projects\?[^<>]*>; rel="(first|next|last)"$/);
    expect(listed.headers.Link).not.toMatch(/attacker|evil|javascript/);
  });

  it('a list answers data, meta and a Link header', async () => {
    const { postProject, handlers, auth } = await setUp();
    for (let i = 0; i < 3; i += 1) await postProject({ ...validProject, name: `p${i}` });
    const listed = await send(handlers.list, { method: 'GET', path: '/v1/projects?per_page=2', headers: auth });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    expect(listed.body.meta).toEqual({ page: 1, per_page: 2, total: 3, total_pages: 2 });
    expect(listed.headers.Link).toContain('rel="next"');
  });

  it('a public route answers without any credential', async () => {
    const answer = await send(openApiHandler as Handler, { method: 'GET', path: '/v1/openapi.json', requestId: 'req-doc' });
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe('3.1.0');
    expect(answer.headers['X-Request-Id']).toBe('req-doc');
  });
});

describe('credentials and scopes', () => {
  it('answers 401 unauthorized with WWW-Authenticate when no credential is sent, and does not run the handler', async () => {
    const { handlers, calls } = await setUp();
    const answer = await send(handlers.create, { method: 'POST', path: '/v1/projects', json: validProject });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('unauthorized');
    // RFC 6750 3.1: no error code when no credential was sent; invalid_token for one that does not work.
    expect(answer.headers['WWW-Authenticate']).toBe('Bearer realm="api"');
    expect(calls.create).toBe(0);
    for (const [authorization, error] of [
      ['Bearer svc_live_notakeynotakeynotakeynotakey000000', 'invalid_token'],
      ['Basic dXNlcjpwYXNz', 'invalid_request'],
    ] as const) {
      const refused = await send(handlers.create, { method: 'POST', path: '/v1/projects', json: validProject, headers: { authorization } });
      expect([refused.status, refused.headers['WWW-Authenticate']]).toEqual([401, `Bearer realm="api", error="${error}"`]);
    }
  });

  it('accepts the key as X-API-Key too', async () => {
    const { handlers, live } = await setUp();
    const answer = await send(handlers.create, {
      method: 'POST',
      path: '/v1/projects',
      json: validProject,
      headers: { 'X-API-Key': live.key },
    });
    expect(answer.status).toBe(201);
  });

  it('answers 400 invalid_request when Authorization and X-API-Key name different keys', async () => {
    const { handlers, http, account, auth } = await setUp();
    const other = await http.newKey(account.id, 'live');
    const answer = await send(handlers.create, {
      method: 'POST',
      path: '/v1/projects',
      json: validProject,
      headers: { ...auth, 'X-API-Key': other.key },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_request');
  });

  it('answers 403 insufficient_scope naming the required scope, for a read-only key and for a key without the scope', async () => {
    const { handlers, http, account, calls } = await setUp();
    const readOnly = await http.newKey(account.id, 'ro', ['read:projects']);
    const narrow = await http.newKey(account.id, 'live', ['read:projects', 'write:workflows']);
    for (const key of [readOnly, narrow]) {
      const answer = await send(handlers.create, {
        method: 'POST',
        path: '/v1/projects',
        json: validProject,
        headers: { authorization: `Bearer ${key.key}` },
      });
      expect(answer.status).toBe(403);
      expect(answer.body.error).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'write:projects' } });
      expect(answer.headers['WWW-Authenticate']).toBe('Bearer realm="api", error="insufficient_scope", scope="write:projects"');
    }
    expect(calls.create).toBe(0);
  });

  it('keeps test-mode keys away from live-mode objects (404)', async () => {
    const { postProject, handlers, http, account } = await setUp();
    const id = (await postProject(validProject)).body.data.id as string;
    const test = await http.newKey(account.id, 'test');
    const answer = await send(handlers.get, {
      method: 'GET',
      path: `/v1/projects/${id}`,
      pathParameters: { id },
      headers: { authorization: `Bearer ${test.key}` },
    });
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('not_found');
  });

  it('answers 429 rate_limited with Retry-After when the limiter refuses, without running the handler', async () => {
    const { postProject, http, calls } = await setUp();
    http.limiter.decision = { allowed: false, retryAfterSeconds: 7, remaining: 0, resetSeconds: 7, policy: http.limiter.policy };
    const answer = await postProject(validProject);
    expect(answer.status).toBe(429);
    expect(answer.body.error.code).toBe('rate_limited');
    expect(answer.headers['Retry-After']).toBe('7');
    expect(answer.headers['RateLimit-Policy']).toBe('"credential";q=100;w=2');
    expect(answer.headers.RateLimit).toBe('"credential";r=0;t=7');
    expect(calls.create).toBe(0);
  });

  it('sends RateLimit-Policy and RateLimit on every answer to a counted request, success or error', async () => {
    const { postProject, handlers, auth, http } = await setUp();
    http.limiter.decision = { allowed: true, remaining: 42, resetSeconds: 2, policy: http.limiter.policy };
    const created = await postProject(validProject);
    const invalid = await postProject({});
    const missing = await send(handlers.get, {
      method: 'GET',
      path: '/v1/projects/proj_x',
      pathParameters: { id: 'proj_x' },
      headers: auth,
    });
    expect([created.status, invalid.status, missing.status]).toEqual([201, 422, 404]);
    for (const answer of [created, invalid, missing]) {
      expect(answer.headers['RateLimit-Policy']).toBe('"credential";q=100;w=2');
      expect(answer.headers.RateLimit).toBe('"credential";r=42;t=2');
      expect(answer.headers['Retry-After']).toBeUndefined();
    }
  });
});

describe('request bodies', () => {
  it('answers 413 payload_too_large for a body over 1 MiB, and lets exactly 1 MiB through to validation', async () => {
    const { handlers, auth } = await setUp();
    const padding = (bytes: number) =>
      JSON.stringify({ ...validProject, description: 'x'.repeat(bytes - JSON.stringify({ ...validProject, description: '' }).length) });
    const tooLarge = await send(handlers.create, {
      method: 'POST',
      path: '/v1/projects',
      raw: padding(maxBodyBytes + 1),
      headers: { ...auth, 'content-type': 'application/json' },
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe('payload_too_large');

    const atLimit = await send(handlers.create, {
      method: 'POST',
      path: '/v1/projects',
      raw: padding(maxBodyBytes),
      headers: { ...auth, 'content-type': 'application/json' },
    });
    expect(atLimit.status).toBe(422);
    expect(atLimit.body.error.details.field).toBe('description');
  });

  it('measures a base64-encoded body by its decoded size', async () => {
    const { handlers, auth } = await setUp();
    const body = Buffer.from(JSON.stringify(validProject)).toString('base64');
    const answer = await send(handlers.create, {
      method: 'POST',
      path: '/v1/projects',
      raw: body,
      isBase64Encoded: true,
      headers: { ...auth, 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(201);
  });

  it.each([undefined, 'text/plain', 'application/x-www-form-urlencoded'])(
    'answers 415 unsupported_media_type for a write with content type %p',
    async (contentType) => {
      const { handlers, auth, calls } = await setUp();
      const headers: Record<string, string> = { ...auth };
      if (contentType) headers['content-type'] = contentType;
      const answer = await send(handlers.create, { method: 'POST', path: '/v1/projects', raw: JSON.stringify(validProject), headers });
      expect(answer.status).toBe(415);
      expect(answer.body.error.code).toBe('unsupported_media_type');
      expect(calls.create).toBe(0);
    },
  );

  it('accepts application/json with a charset', async () => {
    const { postProject } = await setUp();
    expect((await postProject(validProject, { 'content-type': 'application/json; charset=utf-8' })).status).toBe(201);
  });

  it.each(['{"name":', 'not json'])('answers 400 invalid_json for the body %p', async (raw) => {
    const { handlers, auth } = await setUp();
    const answer = await send(handlers.create, {
      method: 'POST',
      path: '/v1/projects',
      raw,
      headers: { ...auth, 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_json');
  });

  it.each([
    ['no body', undefined, 'application/json'],
    ['a blank body', ' \n', 'application/json'],
    ['no body and no content type', undefined, undefined],
  ])('reads %s as {}: 422 naming every required field, not malformed JSON, and stores nothing', async (_, raw, contentType) => {
    const { handlers, auth, calls } = await setUp();
    const headers: Record<string, string> = { ...auth };
    if (contentType) headers['content-type'] = contentType;
    const answer = await send(handlers.create, { method: 'POST', path: '/v1/projects', raw, headers });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('validation_error');
    expect(answer.body.error.errors.map((error: { field: string }) => error.field).sort()).toEqual(['name', 'repository']);
    expect(calls.create).toBe(0);
  });

  it('answers 400 invalid_json for a body whose bytes are not UTF-8, and stores nothing', async () => {
    const { handlers, auth, calls } = await setUp();
    const latin1 = Buffer.from(JSON.stringify({ ...validProject, name: 'Caf\u00e9' }), 'latin1');
    const answer = await send(handlers.create, {
      method: 'POST',
      path: '/v1/projects',
      raw: latin1.toString('base64'),
      isBase64Encoded: true,
      headers: { ...auth, 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_json', message: expect.stringContaining('not valid UTF-8') });
    expect(calls.create).toBe(0);

    const utf8 = await send(handlers.create, {
      method: 'POST',
      path: '/v1/projects',
      raw: Buffer.from(JSON.stringify({ ...validProject, name: 'Caf\u00e9' }), 'utf8').toString('base64'),
      isBase64Encoded: true,
      headers: { ...auth, 'content-type': 'application/json' },
    });
    expect(utf8.status).toBe(201);
    expect(utf8.body.data.name).toBe('Caf\u00e9');
  });

  it('answers 415 before reading the bytes of a body that is neither JSON nor UTF-8', async () => {
    const { handlers, auth } = await setUp();
    const answer = await send(handlers.create, {
      method: 'POST',
      path: '/v1/projects',
      raw: Buffer.from([0xff, 0xfe, 0x00]).toString('base64'),
      isBase64Encoded: true,
      headers: { ...auth, 'content-type': 'application/octet-stream' },
    });
    expect(answer.status).toBe(415);
  });

  it('answers 400 invalid_json saying so for valid JSON nested too deeply to read', async () => {
    const { handlers, auth } = await setUp();
    const depth = 50_000;
    const answer = await send(handlers.create, {
      method: 'POST',
      path: '/v1/projects',
      raw: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
      headers: { ...auth, 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_json', message: expect.stringContaining('too deeply') });
  });

  it.each([
    ['__proto__', '{"name":"x","__proto__":{"admin":true}}'],
    ['constructor', '{"name":"x","constructor":{"prototype":{"admin":true}}}'],
  ])('refuses the prototype key %s anywhere in the body with 422, before the use case runs', async (field, raw) => {
    const { handlers, auth, calls } = await setUp();
    const answer = await send(handlers.create, {
      method: 'POST',
      path: '/v1/projects',
      raw,
      headers: { ...auth, 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({ code: 'validation_error', details: { field, issue: 'is not a known field' } });
    expect(calls.create).toBe(0);
  });

  it('reads the body of a JSON-based media type as JSON', async () => {
    const { postProject } = await setUp();
    expect((await postProject(validProject, { 'content-type': 'application/vnd.api+json' })).status).toBe(201);
  });

  it('answers 422 validation_error with details { field, issue } for one bad field, and no errors array', async () => {
    const { postProject } = await setUp();
    const answer = await postProject({ ...validProject, repository: 'ftp://example.test/repo' });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({ code: 'validation_error', details: { field: 'repository', issue: expect.any(String) } });
    expect(answer.body.error).not.toHaveProperty('errors');
  });

  it('answers 422 with an errors array naming every issue when there are several', async () => {
    const { postProject, calls } = await setUp();
    const answer = await postProject({ name: '' });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('validation_error');
    expect(answer.body.error.details).toEqual(answer.body.error.errors[0]);
    const fields = (answer.body.error.errors as { field: string }[]).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'repository']));
    expect(calls.create).toBe(0);
  });

  it('answers 422 saying a missing field "is required"', async () => {
    const { postProject } = await setUp();
    const answer = await postProject({ name: validProject.name });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details).toEqual({ field: 'repository', issue: 'is required' });
  });

  it('answers 422 naming an unknown body field', async () => {
    const { postProject } = await setUp();
    const answer = await postProject({ ...validProject, colour: 'red' });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details).toEqual({ field: 'colour', issue: 'is not a known field' });
  });

  it('answers 422 for a body that is not a JSON object', async () => {
    const { postProject } = await setUp();
    const answer = await postProject([validProject]);
    expect(answer.status).toBe(422);
    expect(answer.body.error.details.issue).toBe('must be a JSON object');
  });

  it('answers 422 naming a query parameter out of range or unknown, never clamping', async () => {
    const { handlers, auth } = await setUp();
    const tooMany = await send(handlers.list, { method: 'GET', path: '/v1/projects?per_page=101', headers: auth });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.details).toEqual({ field: 'per_page', issue: 'must be at most 100' });
    const unknown = await send(handlers.list, { method: 'GET', path: '/v1/projects?colour=red', headers: auth });
    expect(unknown.status).toBe(422);
    // The allowed ones named, as an unknown value names the allowed values (`must be one of asc, desc`).
    expect(unknown.body.error.details).toEqual({
      field: 'colour',
      issue: 'is not a known parameter; must be one of page, per_page, sort, order, created_after, created_before, cursor',
    });
    expect(unknown.body.error.message).toBe(
      'Invalid colour: is not a known parameter; must be one of page, per_page, sort, order, created_after, created_before, cursor',
    );
  });

  it('answers 422 for a query parameter of an operation that takes none, as the document declares', async () => {
    const { handlers, auth, postProject } = await setUp();
    const { id } = (await postProject(validProject)).body.data;
    const answer = await send(handlers.get, {
      method: 'GET',
      path: `/v1/projects/${id}?expand=repository`,
      pathParameters: { id },
      headers: auth,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details).toEqual({ field: 'expand', issue: 'is not a known parameter; this operation takes none' });
    expect((await send(handlers.get, { method: 'GET', path: `/v1/projects/${id}`, pathParameters: { id }, headers: auth })).status).toBe(
      200,
    );
  });
});

describe('unexpected faults', () => {
  it('answer 500 internal_error without the stack or the error message', async () => {
    const { postProject, setCreate } = await setUp();
    const fault = new Error('connection to db-internal.example:5432 refused, password=hunter2');
    setCreate(async () => {
      throw fault;
    });
    const answer = await postProject(validProject, { 'Idempotency-Key': 'fault-1' });
    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe('internal_error');
    expect(answer.body.error.request_id).toBe(answer.headers['X-Request-Id']);
    expect(answer.raw).not.toContain('hunter2');
    expect(answer.raw).not.toContain('db-internal');
    expect(answer.raw).not.toContain(' at ');
    expect(answer.raw).not.toMatch(/stack/i);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer to the same key and body, with Idempotent-Replayed: true, running the handler once', async () => {
    const { postProject, calls } = await setUp();
    const first = await postProject(validProject, { 'Idempotency-Key': 'create-1' });
    const again = await postProject({ repository: validProject.repository, name: validProject.name }, { 'Idempotency-Key': 'create-1' });
    expect(first.status).toBe(201);
    expect(first.headers['Idempotent-Replayed']).toBeUndefined();
    expect(again.status).toBe(201);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers.Location).toBe(first.headers.Location);
    expect(calls.create).toBe(1);
  });

  it('without a key, two identical requests create two resources', async () => {
    const { postProject, calls } = await setUp();
    const a = await postProject(validProject);
    const b = await postProject(validProject);
    expect(a.body.data.id).not.toBe(b.body.data.id);
    expect(calls.create).toBe(2);
  });

  it('answers 422 idempotency_key_reused for the same key with another body', async () => {
    const { postProject, calls } = await setUp();
    await postProject(validProject, { 'Idempotency-Key': 'create-1' });
    const other = await postProject({ ...validProject, name: 'Other' }, { 'Idempotency-Key': 'create-1' });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency_key_reused');
    expect(calls.create).toBe(1);
  });

  it('answers 409 idempotency_key_in_use while the first request is still running', async () => {
    const { postProject, setCreate } = await setUp();
    let finish: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    setCreate(async () => {
      started();
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      return { data: { id: 'proj_slow' } };
    });
    const first = postProject(validProject, { 'Idempotency-Key': 'slow' });
    await running;
    const second = await postProject(validProject, { 'Idempotency-Key': 'slow' });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('idempotency_key_in_use');
    finish();
    expect((await first).status).toBe(201);
  });

  it('does not keep a 5xx answer: the claim is released and a retry runs the handler again', async () => {
    const { postProject, setCreate, http, calls } = await setUp();
    setCreate(async () => {
      throw new Error('transient');
    });
    const failed = await postProject(validProject, { 'Idempotency-Key': 'retry-me' });
    expect(failed.status).toBe(500);
    expect(http.deps.idempotency.entries.size).toBe(0);

    setCreate(async () => ({ data: { id: 'proj_ok' } }));
    const retried = await postProject(validProject, { 'Idempotency-Key': 'retry-me' });
    expect(retried.status).toBe(201);
    expect(retried.headers['Idempotent-Replayed']).toBeUndefined();
    expect(calls.create).toBe(2);
  });

  it('keeps a 4xx answer of the handler and replays it', async () => {
    const { postProject, setCreate, calls } = await setUp();
    setCreate(async () => {
      throw conflict('A project with this repository exists.');
    });
    const first = await postProject(validProject, { 'Idempotency-Key': 'dup' });
    expect(first.status).toBe(409);
    setCreate(async () => ({ data: { id: 'proj_should_not_run' } }));
    const again = await postProject(validProject, { 'Idempotency-Key': 'dup' });
    expect(again.status).toBe(409);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.body.error).toMatchObject({ code: first.body.error.code, message: first.body.error.message });
    expect(calls.create).toBe(1);
  });

  it('keeps a 422 validation answer and replays it', async () => {
    const { postProject } = await setUp();
    const first = await postProject({ name: 'x' }, { 'Idempotency-Key': 'invalid' });
    const again = await postProject({ name: 'x' }, { 'Idempotency-Key': 'invalid' });
    expect([first.status, again.status]).toEqual([422, 422]);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
  });

  it('scopes keys to the mode: the same key with a test key creates a second resource', async () => {
    const { postProject, http, account, handlers, calls } = await setUp();
    const test = await http.newKey(account.id, 'test');
    await postProject(validProject, { 'Idempotency-Key': 'shared' });
    const inTest = await send(handlers.create, {
      method: 'POST',
      path: '/v1/projects',
      json: validProject,
      headers: { authorization: `Bearer ${test.key}`, 'Idempotency-Key': 'shared' },
    });
    expect(inTest.status).toBe(201);
    expect(inTest.headers['Idempotent-Replayed']).toBeUndefined();
    expect(calls.create).toBe(2);
  });

  it('refuses a malformed key with 422 naming Idempotency-Key', async () => {
    const { postProject, calls } = await setUp();
    const answer = await postProject(validProject, { 'Idempotency-Key': 'k'.repeat(256) });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details.field).toBe('Idempotency-Key');
    expect(calls.create).toBe(0);
  });
});

describe('an operation that takes no body (POST /v1/workflows/{id}/cancel)', () => {
  const setUpCancel = async () => {
    const http = inMemoryHttpDeps();
    const account = await http.newAccount();
    const live = await http.newKey(account.id, 'live');
    const deps = () => http.deps;
    const runs = { count: 0 };
    const handler = createApiHandler(
      cancelWorkflowRoute,
      async ({ params }) => {
        runs.count += 1;
        return { data: { id: params.id, status: 'cancelled' } };
      },
      deps,
      writeSteps(deps),
    );
    const cancel = (options: Partial<EventOptions> = {}) =>
      send(handler, {
        method: 'POST',
        path: '/v1/workflows/wf_1/cancel',
        pathParameters: { id: 'wf_1' },
        ...options,
        headers: { authorization: `Bearer ${live.key}`, ...options.headers },
      });
    return { cancel, runs };
  };

  it('takes no body, a blank one, or {} (as clients often send), whatever the content type of a blank body', async () => {
    const { cancel, runs } = await setUpCancel();
    const answers = [
      await cancel(),
      await cancel({ raw: '' }),
      await cancel({ raw: ' \r\n\t', headers: { 'content-type': 'text/plain' } }),
      await cancel({ raw: Buffer.from('  ').toString('base64'), isBase64Encoded: true }),
      await cancel({ json: {} }),
      await cancel({ raw: ' {} ', headers: { 'content-type': 'application/json; charset=utf-8' } }),
      await cancel({ raw: '{}', headers: { 'content-type': 'application/merge-patch+json' } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202, 202, 202]);
    expect(runs.count).toBe(7);
  });

  it('refuses a body that is not JSON with 415, as any write does, without running the operation', async () => {
    const { cancel, runs } = await setUpCancel();
    const answer = await cancel({ raw: 'not json', headers: { 'content-type': 'text/plain' } });
    expect([answer.status, answer.body.error.code]).toEqual([415, 'unsupported_media_type']);
    const untyped = await cancel({ raw: '{}' });
    expect([untyped.status, untyped.body.error.code]).toEqual([415, 'unsupported_media_type']);
    const malformed = await cancel({ raw: '{"reason":', headers: { 'content-type': 'application/json' } });
    expect([malformed.status, malformed.body.error.code]).toEqual([400, 'invalid_json']);
    const large = await cancel({ raw: `{"a":"${'x'.repeat(maxBodyBytes)}"}`, headers: { 'content-type': 'application/json' } });
    expect([large.status, large.body.error.code]).toEqual([413, 'payload_too_large']);
    expect(runs.count).toBe(0);
  });

  it('refuses fields with 422 naming each, in the wording of any unknown field, without running the operation', async () => {
    const { cancel, runs } = await setUpCancel();
    const answer = await cancel({ json: { reason: 'x', force: true } });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({
      code: 'validation_error',
      message: 'Invalid reason: is not a known field',
      details: { field: 'reason', issue: 'is not a known field' },
      errors: [
        { field: 'reason', issue: 'is not a known field' },
        { field: 'force', issue: 'is not a known field' },
      ],
    });
    const notAnObject = await cancel({ json: ['reason'] });
    expect([notAnObject.status, notAnObject.body.error.details]).toEqual([422, { field: 'body', issue: 'must be a JSON object' }]);
    const scalar = await cancel({ json: 'now' });
    expect([scalar.status, scalar.body.error.details]).toEqual([422, { field: 'body', issue: 'must be a JSON object' }]);
    expect(runs.count).toBe(0);
  });

  it('refuses a body before Idempotency-Key is claimed, and replays an accepted request as before', async () => {
    const { cancel, runs } = await setUpCancel();
    const refused = await cancel({ json: { reason: 'x' }, headers: { 'idempotency-key': 'cancel-1' } });
    expect(refused.status).toBe(422);
    const first = await cancel({ headers: { 'idempotency-key': 'cancel-1' } });
    expect([first.status, first.headers['Idempotent-Replayed']]).toEqual([202, undefined]);
    const again = await cancel({ headers: { 'idempotency-key': 'cancel-1' } });
    expect([again.status, again.headers['Idempotent-Replayed']]).toEqual([202, 'true']);
    expect(runs.count).toBe(1);
  });

  it('replays a request whose blank body or {} came base64-encoded (as API Gateway hands a body it takes for binary) under the same key as one without a body', async () => {
    const { cancel, runs } = await setUpCancel();
    const first = await cancel({ headers: { 'idempotency-key': 'cancel-2' } });
    expect(first.status).toBe(202);
    const encoded = (text: string) => ({ raw: Buffer.from(text).toString('base64'), isBase64Encoded: true });
    const blank = await cancel({ ...encoded(' \n'), headers: { 'idempotency-key': 'cancel-2' } });
    const empty = await cancel({ ...encoded('{}'), headers: { 'idempotency-key': 'cancel-2', 'content-type': 'application/json' } });
    expect([blank.status, blank.headers['Idempotent-Replayed']]).toEqual([202, 'true']);
    expect([empty.status, empty.headers['Idempotent-Replayed']]).toEqual([202, 'true']);
    expect(runs.count).toBe(1);
  });
});

describe('steps a route takes', () => {
  it('a route with a body built without the body and idempotency steps answers 500 and never runs its adapter', async () => {
    const http = inMemoryHttpDeps();
    const account = await http.newAccount();
    const live = await http.newKey(account.id, 'live');
    let ran = false;
    const handler = createApiHandler(
      createProjectRoute,
      async () => {
        ran = true;
        return { empty: true };
      },
      () => http.deps,
    );
    const answer = await send(handler, {
      method: 'POST',
      path: '/v1/projects',
      json: validProject,
      headers: { authorization: `Bearer ${live.key}` },
    });
    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe('internal_error');
    expect(ran).toBe(false);
  });
});

describe('deprecation', () => {
  it('announces a deprecated operation on every answer: Deprecation (RFC 9745), Sunset (RFC 8594) and a deprecation link', async () => {
    const http = inMemoryHttpDeps();
    const account = await http.newAccount();
    const live = await http.newKey(account.id, 'live');
    const route = {
      ...listProjectsRoute,
      deprecation: { since: '2027-01-01T00:00:00Z', sunset: '2027-07-01T00:00:00Z', link: 'https://docs.example.test/v2-migration' },
    };
    const handler = createApiHandler(
      route,
      async () => ({ list: [], meta: { page: 1, per_page: 20, total: 0, total_pages: 0 } }),
      () => http.deps,
    );
    const ok = await send(handler, { method: 'GET', path: '/v1/projects', headers: { authorization: `Bearer ${live.key}` } });
    const refused = await send(handler, { method: 'GET', path: '/v1/projects' });
    for (const answer of [ok, refused]) {
      expect(answer.headers.Deprecation).toBe(`@${Date.parse('2027-01-01T00:00:00Z') / 1000}`);
      expect(answer.headers.Sunset).toBe('Thu, 01 Jul 2027 00:00:00 GMT');
      expect(answer.headers.Link).toContain('<https://docs.example.test/v2-migration>; rel="deprecation"');
    }
    expect(ok.headers.Link).toContain('rel="first"');
    expect((buildOpenApiDocument([route]) as any).paths['/v1/projects'].get.deprecated).toBe(true);
    expect((buildOpenApiDocument([listProjectsRoute]) as any).paths['/v1/projects'].get.deprecated).toBeUndefined();
  });
});
