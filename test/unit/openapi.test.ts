import { Validator } from '@seriousme/openapi-schema-validator';
import { allScopes, scopeDescriptions } from '../../functions/core/credentials/scopes';
import { rateLimitHeaders } from '../../functions/core/rate-limiter';
import { corsSettings } from '../../functions/http/cors';
import { errorStatus } from '../../functions/http/error-status';
import { buildOpenApiDocument } from '../../functions/openapi/build-document';
import { apiRoutes as routes, responseSchemas, routes as allRoutes } from '../../functions/routes';
import { listProjectsRoute } from '../../functions/routes/projects';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Record<string, unknown>;
}

interface Operation {
  operationId: string;
  'x-required-scope': string | null;
  parameters: Parameter[];
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
  security: unknown[];
}

const document = buildOpenApiDocument(allRoutes);
const paths = document.paths as Record<string, Record<string, Operation>>;
const operation = (route: (typeof routes)[number]): Operation | undefined => paths[route.path]?.[route.method.toLowerCase()];
const listRoutes = routes.filter((r) => r.success.list);
const postRoutes = routes.filter((r) => r.method === 'POST' && r.scope !== null);

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('would be refused by the validator if it were broken (the check above can fail)', async () => {
    const broken = structuredClone(document) as Record<string, any>;
    delete broken.paths['/v1/projects'].get.responses['200'].description;
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });

  it('describes the data of every success answer with a body, from the response schema of its operation', () => {
    const withBody = routes.filter((route) => route.success.status !== 204);
    expect(Object.keys(responseSchemas).sort()).toEqual(withBody.map((route) => route.operationId).sort());
    for (const route of withBody) {
      const content = operation(route)?.responses[String(route.success.status)]?.content ?? {};
      expect([route.operationId, Object.keys(content)]).toEqual([route.operationId, [route.success.mediaType ?? 'application/json']]);
    }
  });

  it('has every route of the table under its path and method, with its operationId and x-required-scope', () => {
    for (const route of routes) {
      expect([route.method, route.path, operation(route)?.operationId, operation(route)?.['x-required-scope']]).toEqual([
        route.method,
        route.path,
        route.operationId,
        route.scope,
      ]);
    }
    const documented = Object.values(paths).reduce((count, methods) => count + Object.keys(methods).length, 0);
    expect(documented).toBe(routes.length);
  });

  it('asks for a credential with the route scope on every non-public route, and none on public ones', () => {
    for (const route of routes) {
      const op = operation(route);
      if (route.scope === null) {
        expect(op?.security).toEqual([]);
      } else {
        expect(op?.security).toEqual([{ bearerAuth: [route.scope] }, { apiKeyHeader: [route.scope] }, { oauth2: [route.scope] }]);
        for (const status of ['401', '403', '429'])
          expect([route.operationId, status, op?.responses[status] !== undefined]).toEqual([route.operationId, status, true]);
      }
    }
  });

  it('declares the OAuth 2.0 authorization code flow with its endpoints and every scope, and no operation outside /v1', () => {
    const scheme = (document.components as any).securitySchemes.oauth2;
    expect(scheme.type).toBe('oauth2');
    expect(scheme.flows).toEqual({
      authorizationCode: {
        authorizationUrl: '/oauth/authorize',
        tokenUrl: '/oauth/token',
        refreshUrl: '/oauth/token',
        scopes: Object.fromEntries(allScopes.map((scope) => [scope, scopeDescriptions[scope]])),
      },
    });
    expect(Object.keys(paths).every((path) => path.startsWith('/v1/'))).toBe(true);
  });

  it('documents page, per_page (1 to 100), sort and order on every list', () => {
    expect(listRoutes.length).toBeGreaterThan(0);
    for (const route of listRoutes) {
      const query = Object.fromEntries((operation(route)?.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p]));
      expect(Object.keys(query)).toEqual(expect.arrayContaining(['page', 'per_page', 'sort', 'order']));
      expect(query.page?.schema).toMatchObject({ minimum: 1 });
      expect(query.per_page?.schema).toMatchObject({ minimum: 1, maximum: 100 });
      expect(query.order?.schema).toMatchObject({ enum: ['asc', 'desc'] });
      // Log lines sort by when they were written; every other list by creation.
      expect(query.sort?.schema.enum).toEqual(expect.arrayContaining([route.path.endsWith('/logs') ? 'timestamp' : 'created_at']));
      expect(operation(route)?.responses['200']?.headers).toHaveProperty('Link');
    }
  });

  // A generated client sends what the schema says; the API reads these as YYYY-MM-DD strings.
  it('documents created_after and created_before as YYYY-MM-DD strings, the way the API reads them', () => {
    for (const route of listRoutes) {
      const query = Object.fromEntries((operation(route)?.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p]));
      for (const name of ['created_after', 'created_before']) {
        expect([route.operationId, name, query[name]?.schema.type]).toEqual([route.operationId, name, 'string']);
      }
    }
  });

  it('documents the Idempotency-Key header on every POST', () => {
    expect(postRoutes.length).toBeGreaterThan(0);
    for (const route of postRoutes) {
      const header = operation(route)?.parameters.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      expect([route.operationId, header?.schema]).toEqual([route.operationId, expect.objectContaining({ type: 'string', maxLength: 255 })]);
    }
  });

  it('documents Location on every 201 and the path parameters of every templated path', () => {
    for (const route of routes) {
      const op = operation(route);
      if (route.success.status === 201) expect(op?.responses['201']?.headers).toHaveProperty('Location');
      const templated = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const inPath = (op?.parameters ?? []).filter((p) => p.in === 'path');
      expect(inPath.map((p) => p.name)).toEqual(templated);
      for (const parameter of inPath) expect(parameter.required).toBe(true);
    }
  });

  it('leaves out the routes that are no API operation: the reference page and its assets', () => {
    const pages = allRoutes.filter((r) => r.inOpenApi === false);
    expect(pages.map((r) => r.path).sort()).toEqual(['/docs', '/docs/assets/{file}']);
    for (const page of pages) expect(paths[page.path]).toBeUndefined();
  });

  it('says what the server enforces: a PATCH body changes at least one field (minProperties 1); GET /v1/event-types is {data: [...]}', () => {
    const patches = routes.filter((r) => r.method === 'PATCH');
    expect(patches.length).toBeGreaterThan(0);
    for (const route of patches) {
      const body = (operation(route) as unknown as { requestBody: { content: Record<string, { schema: Record<string, unknown> }> } })
        .requestBody;
      expect([route.operationId, body.content['application/json']?.schema.minProperties]).toEqual([route.operationId, 1]);
    }
    const eventTypes = paths['/v1/event-types']?.get?.responses['200']?.content?.['application/json'] as { schema: Record<string, any> };
    expect(eventTypes.schema).toMatchObject({ type: 'object', properties: { data: { type: 'array' } } });
  });

  it('marks a request body required unless the route lets it be left out (POST /v1/webhooks/{id}/rotate-secret)', () => {
    const withBody = routes.filter((r) => r.body !== undefined);
    const optional = withBody.filter((r) => r.optionalBody).map((r) => r.operationId);
    expect(optional).toContain('rotateWebhookSecret');
    for (const route of withBody) {
      const body = (operation(route) as unknown as { requestBody?: { required?: boolean } }).requestBody;
      expect([route.operationId, body?.required]).toEqual([route.operationId, !optional.includes(route.operationId)]);
    }
    const rotate = paths['/v1/webhooks/{id}/rotate-secret']?.post as unknown as { requestBody: { required: boolean } };
    expect(rotate.requestBody.required).toBe(false);
  });

  it('declares 413 and 415 wherever a body is checked: every operation with a body, and every POST without one (cancel)', () => {
    for (const route of routes) {
      const checked = route.body !== undefined || (route.method === 'POST' && route.scope !== null);
      const declared = ['413', '415'].filter((status) => operation(route)?.responses[status] !== undefined);
      expect([route.operationId, declared]).toEqual([route.operationId, checked ? ['413', '415'] : []]);
    }
    expect(Object.keys(paths['/v1/workflows/{id}/cancel']?.post?.responses ?? {})).toEqual(expect.arrayContaining(['413', '415']));
  });

  it('lists every error code of the contract in the Error schema', () => {
    const schemas = (document.components as { schemas: Record<string, any> }).schemas;
    const codes: string[] = schemas.Error.properties.error.properties.code.enum;
    expect([...codes].sort()).toEqual(Object.keys(errorStatus).sort());
    expect(schemas.Error.properties.error.required).toEqual(expect.arrayContaining(['code', 'message', 'request_id']));
  });
});

describe('the headers the OpenAPI document declares', () => {
  type Header = { $ref?: string; required?: boolean; schema?: Record<string, unknown> };
  const shared = (document.components as { headers: Record<string, Header> }).headers;
  const responsesOf = (route: (typeof routes)[number]) =>
    Object.entries(operation(route)?.responses ?? {}) as [string, { headers?: Record<string, Header> }][];
  /** The shared header a response's header refers to. */
  const resolved = (header: Header | undefined): Header | undefined =>
    header?.$ref ? shared[header.$ref.replace('#/components/headers/', '')] : undefined;
  // The names exactly as the code sends them: the limiter's fields on a refusal, and the others'.
  const refusal = rateLimitHeaders({
    allowed: false,
    retryAfterSeconds: 3,
    policy: { quota: 100, windowSeconds: 2 },
    remaining: 0,
    resetSeconds: 3,
  });
  const [policyName, limitName] = ['RateLimit-Policy', 'RateLimit'];

  it('come from components/headers: every response header is a reference that resolves', () => {
    for (const route of routes) {
      for (const [status, response] of responsesOf(route)) {
        for (const [name, header] of Object.entries(response.headers ?? {})) {
          expect([route.operationId, status, name, resolved(header) !== undefined]).toEqual([route.operationId, status, name, true]);
        }
      }
    }
  });

  it('has the rate limiter declare the names it sends: RateLimit-Policy, RateLimit and Retry-After', () => {
    expect(Object.keys(refusal).sort()).toEqual([limitName, policyName, 'Retry-After'].sort());
  });

  it('RateLimit and RateLimit-Policy on every answer of an authenticated operation but 401; none on public ones', () => {
    for (const route of routes) {
      for (const [status, response] of responsesOf(route)) {
        const names = Object.keys(response.headers ?? {});
        const expected = route.scope !== null && status !== '401';
        expect([route.operationId, status, names.includes(limitName), names.includes(policyName)]).toEqual([
          route.operationId,
          status,
          expected,
          expected,
        ]);
      }
    }
  });

  it('Retry-After (required) on every 429, WWW-Authenticate (required) on every 401 and 403, Allow (required) on every 405', () => {
    const expectations: [string, string][] = [
      ['429', 'Retry-After'],
      ['401', 'WWW-Authenticate'],
      ['403', 'WWW-Authenticate'],
      ['405', 'Allow'],
    ];
    let seen405 = 0;
    for (const route of routes) {
      for (const [status, name] of expectations) {
        const response = operation(route)?.responses[status];
        if (!response) continue;
        if (status === '405') seen405 += 1;
        expect([route.operationId, status, name, resolved(response.headers?.[name] as Header)?.required]).toEqual([
          route.operationId,
          status,
          name,
          true,
        ]);
      }
      // Nowhere else: the service sends them on no other status.
      for (const [status, response] of responsesOf(route)) {
        for (const name of new Set(expectations.map(([, header]) => header))) {
          const declaredOn = expectations.filter(([, header]) => header === name).map(([only]) => only);
          if (!declaredOn.includes(status))
            expect([route.operationId, status, name in (response.headers ?? {})]).toEqual([route.operationId, status, false]);
        }
      }
    }
    // GET /v1/tests/{id} answers 405 for /v1/tests/run and /v1/tests/generate.
    expect(seen405).toBeGreaterThan(0);
    expect(shared.RetryAfter?.schema).toEqual({ type: 'integer', minimum: 1 });
  });

  it('Idempotent-Replayed on the success of every POST that takes Idempotency-Key, and on the errors a replay repeats', () => {
    expect(postRoutes.length).toBeGreaterThan(0);
    for (const route of postRoutes) {
      const responses = operation(route)?.responses ?? {};
      const success = responses[String(route.success.status)]?.headers ?? {};
      expect([route.operationId, 'Idempotent-Replayed' in success]).toEqual([route.operationId, true]);
      // A 422 of validation is kept and replayed; a 429, 401 or 500 never is.
      expect([route.operationId, 'Idempotent-Replayed' in (responses['422']?.headers ?? {})]).toEqual([route.operationId, true]);
      for (const status of ['401', '429', '500']) {
        expect([route.operationId, status, 'Idempotent-Replayed' in (responses[status]?.headers ?? {})]).toEqual([
          route.operationId,
          status,
          false,
        ]);
      }
    }
    for (const route of routes.filter((r) => !postRoutes.includes(r))) {
      for (const [status, response] of responsesOf(route)) {
        expect([route.operationId, status, 'Idempotent-Replayed' in (response.headers ?? {})]).toEqual([route.operationId, status, false]);
      }
    }
  });

  it('Content-Disposition and ETag on a representation that is a file (the remediation patch)', () => {
    const patch = paths['/v1/security/findings/{id}/patch']?.get?.responses['200']?.headers ?? {};
    expect(Object.keys(patch)).toEqual(expect.arrayContaining(['ETag', 'Content-Disposition']));
  });

  it('declares every header CORS exposes, Deprecation and Sunset on a deprecated operation', () => {
    const deprecated = buildOpenApiDocument([
      {
        ...listProjectsRoute,
        deprecation: { since: '2027-01-01T00:00:00Z', sunset: '2027-07-01T00:00:00Z', link: 'https://example.test/v2' },
      },
    ]);
    const declared = new Set<string>();
    for (const doc of [document, deprecated]) {
      for (const methods of Object.values(doc.paths as Record<string, Record<string, Operation>>)) {
        for (const op of Object.values(methods)) {
          for (const response of Object.values(op.responses)) Object.keys(response.headers ?? {}).forEach((name) => declared.add(name));
        }
      }
    }
    expect(corsSettings.exposeHeaders.filter((name) => !declared.has(name))).toEqual([]);
    const answers = Object.values((deprecated.paths as Record<string, Record<string, Operation>>)['/v1/projects']?.get?.responses ?? {});
    for (const response of answers)
      expect(Object.keys(response.headers ?? {})).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']));
  });
});
