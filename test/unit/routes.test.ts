import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isScope } from '../../functions/core/credentials/scopes';
import { handler as fallback } from '../../functions/handlers/meta/fallback';
import { fallbackHandler, matchRoute, routes } from '../../functions/routes';
import { testingRoutes } from '../../functions/routes/testing';
import { testingEndpoints } from '../../functions/routes/testing-endpoints';
import { apiEvent } from './fakes/api-gateway-event';

const handlerFile = (name: string): string => fileURLToPath(new URL(`../../functions/handlers/${name}.ts`, import.meta.url));

/** Routes anyone may call: the OpenAPI document, and nothing else. */
const publicOperations = ['getOpenApiDocument', 'listEventTypes', 'getApiReference', 'getApiReferenceAsset'];

describe('matchRoute', () => {
  it('finds the route of a method and path, with its decoded parameters', () => {
    const match = matchRoute('GET', '/v1/projects/proj_01J%2Fodd%20id');
    expect(match.route?.operationId).toBe('getProject');
    expect(match.params).toEqual({ id: 'proj_01J/odd id' });
    expect(match.allowed.sort()).toEqual(['DELETE', 'GET', 'PATCH']);
  });

  it('tells a collection path from an item path', () => {
    expect(matchRoute('GET', '/v1/projects').route?.operationId).toBe('listProjects');
    expect(matchRoute('POST', '/v1/projects').route?.operationId).toBe('createProject');
    expect(matchRoute('PATCH', '/v1/projects/proj_1').route?.operationId).toBe('updateProject');
    expect(matchRoute('DELETE', '/v1/projects/proj_1').route?.operationId).toBe('deleteProject');
    expect(matchRoute('GET', '/v1/openapi.json').route?.operationId).toBe('getOpenApiDocument');
  });

  it('for a known path with another method: no route, and the methods the path allows (405 data)', () => {
    const match = matchRoute('PUT', '/v1/projects/proj_1');
    expect(match.route).toBeUndefined();
    expect(match.allowed.sort()).toEqual(['DELETE', 'GET', 'PATCH']);
    expect(matchRoute('DELETE', '/v1/projects').allowed.sort()).toEqual(['GET', 'POST']);
  });

  it('gives a literal path to its own routes: GET /v1/tests/run is 405 with POST allowed, not a look-up of a test named run', () => {
    for (const path of ['/v1/tests/run', '/v1/tests/generate']) {
      const match = matchRoute('GET', path);
      expect(match.route).toBeUndefined();
      expect(match.allowed).toEqual(['POST']);
    }
    expect(matchRoute('POST', '/v1/tests/run').route?.operationId).toBe('runTests');
    expect(matchRoute('GET', '/v1/tests/run_01JD2QE4J8K0M2N4P6R8S0T2V4').route?.operationId).toBe('getTest');
    expect(matchRoute('GET', '/v1/tests/run/results').route?.operationId).toBe('getTestResults');
  });

  it.each(['/v1/nothing', '/v1/projects/proj_1/extra', '/v1/projects/', '/projects', '/v1/openapiXjson'])(
    'matches nothing for the unknown path %p',
    (path) => {
      const match = matchRoute('GET', path);
      expect(match.route).toBeUndefined();
      expect(match.allowed).toEqual([]);
      expect(match.params).toEqual({});
    },
  );

  // A malformed id is an unknown id (DESIGN.md: 404), never a failure of the router itself.
  it('does not throw on a path parameter whose percent-encoding does not decode', () => {
    expect(() => matchRoute('GET', '/v1/projects/%E0%A4%A')).not.toThrow();
  });
});

describe('the fallback function ($default route)', () => {
  it('answers 405 method_not_allowed with Allow for a known path', async () => {
    const response = await fallback(apiEvent({ method: 'PUT', path: '/v1/projects', requestId: 'req-405' }));
    expect(response.statusCode).toBe(405);
    expect(response.headers.Allow?.split(', ').sort()).toEqual(['GET', 'POST']);
    expect(response.headers['X-Request-Id']).toBe('req-405');
    expect(JSON.parse(response.body ?? '')).toMatchObject({ error: { code: 'method_not_allowed', request_id: 'req-405' } });
  });

  it('answers a wrong method at /oauth/token and /oauth/revoke with an RFC 6749 error object, never cached', async () => {
    for (const path of ['/oauth/token', '/oauth/revoke']) {
      const response = await fallback(apiEvent({ method: 'GET', path, requestId: 'req-oauth' }));
      expect([path, response.statusCode, response.headers.Allow, response.headers['Cache-Control']]).toEqual([
        path,
        405,
        'POST',
        'no-store',
      ]);
      expect(JSON.parse(response.body ?? '')).toEqual({ error: 'invalid_request', error_description: `Send POST to ${path}.` });
      expect(response.headers['X-Request-Id']).toBe('req-oauth');
    }
  });

  it('answers 404 not_found in the error envelope for an unknown path', async () => {
    const response = await fallback(apiEvent({ method: 'GET', path: '/v1/nowhere', requestId: 'req-404' }));
    expect(response.statusCode).toBe(404);
    expect(response.headers['X-Request-Id']).toBe('req-404');
    expect(JSON.parse(response.body ?? '')).toMatchObject({ error: { code: 'not_found', request_id: 'req-404' } });
  });

  it("answers an unknown dashboard address with the HTML 404 page, with the pages' security headers", async () => {
    const response = await fallback(apiEvent({ method: 'GET', path: '/dashboard/nonexistent', requestId: 'req-page' }));
    expect(response.statusCode).toBe(404);
    expect(response.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(response.headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['X-Request-Id']).toBe('req-page');
    expect(response.body).toMatch(/^<!doctype html>/);
    expect(response.body).toContain('No page of the dashboard has this address.');
    expect(response.body).toContain('req-page');
    expect(response.body).toContain('href="/dashboard"');
  });

  it('sends the address of a dashboard action, opened as a page, to the page the action belongs to', async () => {
    for (const [path, page] of [
      ['/dashboard/developers/api-keys/key_01JD2Q7A0B1C2D3E4F5G6H7J8K/revoke', '/dashboard/developers/api-keys'],
      ['/dashboard/sessions/sign-out', '/dashboard/sessions'],
      ['/dashboard/sign-out', '/dashboard'],
    ] as const) {
      const response = await fallback(apiEvent({ method: 'GET', path, requestId: 'req-action' }));
      expect([path, response.statusCode, response.headers.Location]).toEqual([path, 303, page]);
      expect(response.headers['X-Request-Id']).toBe('req-action');
    }
    // Another method than the action's is its 405 (the dashboard's page), not a redirect.
    const put = await fallback(apiEvent({ method: 'PUT', path: '/dashboard/sign-out', requestId: 'req-put' }));
    expect([put.statusCode, put.headers.Allow, put.headers['Content-Type']]).toEqual([405, 'POST', 'text/html; charset=utf-8']);
  });

  it('answers a method a dashboard address does not take with the HTML 405 page and Allow, as its 404, never the JSON envelope', async () => {
    for (const [method, path, allow] of [
      ['PUT', '/dashboard/projects', 'GET, POST'],
      ['DELETE', '/dashboard/webhooks/wh_01JD2Q7A0B1C2D3E4F5G6H7J8K', 'GET, POST'],
      ['PATCH', '/dashboard', 'GET'],
    ] as const) {
      const response = await fallback(apiEvent({ method, path, requestId: 'req-405-page' }));
      expect([path, response.statusCode, response.headers.Allow]).toEqual([path, 405, allow]);
      expect(response.headers['Content-Type']).toBe('text/html; charset=utf-8');
      expect(response.headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['X-Request-Id']).toBe('req-405-page');
      expect(response.body).toMatch(/^<!doctype html>/);
      expect(response.body).toContain(`This address of the dashboard takes ${allow.replace(', ', ' and ')}, not ${method}`);
      expect(response.body).toContain('req-405-page');
      expect(response.body).toContain('href="/dashboard"');
    }
  });

  it('answers a write to an unknown dashboard address with the HTML 404 page; a path that only starts like the dashboard keeps the envelope', async () => {
    const page = await fallback(apiEvent({ method: 'POST', path: '/dashboard/nonexistent', requestId: 'req-page' }));
    expect([page.statusCode, page.headers['Content-Type']]).toEqual([404, 'text/html; charset=utf-8']);
    expect(page.body).toContain('No page of the dashboard has this address.');
    const response = await fallback(apiEvent({ method: 'GET', path: '/dashboards', requestId: 'req-json' }));
    expect([response.statusCode, JSON.parse(response.body ?? '').error.code]).toEqual([404, 'not_found']);
  });
});

describe('the route table', () => {
  it("lists every testing operation's method and path for testing/get's 405, as the testing routes have them", () => {
    expect(testingEndpoints).toEqual(testingRoutes.map(({ method, path }) => ({ method, path })));
  });

  it('names a handler file that exists for every route, and for the fallback', () => {
    for (const route of routes) expect([route.handler, existsSync(handlerFile(route.handler))]).toEqual([route.handler, true]);
    expect(existsSync(handlerFile(fallbackHandler))).toBe(true);
  });

  it('gives every route but the public ones exactly one known scope', () => {
    for (const route of routes) {
      if (publicOperations.includes(route.operationId)) {
        expect([route.operationId, route.scope]).toEqual([route.operationId, null]);
      } else {
        expect([route.operationId, route.scope !== null && isScope(route.scope)]).toEqual([route.operationId, true]);
      }
    }
  });

  it('has unique operationIds', () => {
    const ids = routes.map((r) => r.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('has each (method, path) once', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });

  it('reads a write scope for every route that writes, and a read scope for every GET', () => {
    for (const route of routes.filter((r) => r.scope !== null)) {
      const expected = route.method === 'GET' ? 'read:' : 'write:';
      expect([route.operationId, route.scope?.startsWith(expected)]).toEqual([route.operationId, true]);
    }
  });
});
