import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { handler as asset } from '../../functions/handlers/dashboard/asset';
import { handler as metadata } from '../../functions/handlers/oauth/metadata';
import { scriptFile } from '../../functions/pages/assets/script';
import { scriptPath, stylesheetPath } from '../../functions/pages/assets/paths';
import { stylesheetFile, stylesheetText } from '../../functions/pages/assets/stylesheet';
import { matchRoute, routeTable, routes, webRoutes } from '../../functions/routes';
import { allScopes } from '../../functions/core/credentials/scopes';
import { apiEvent } from './fakes/api-gateway-event';

const handlerFile = (name: string): string => fileURLToPath(new URL(`../../functions/handlers/${name}.ts`, import.meta.url));

describe('the web rows of the route table', () => {
  it('name handler files that exist, and are matched like the API rows', () => {
    for (const route of webRoutes) expect([route.handler, existsSync(handlerFile(route.handler))]).toEqual([route.handler, true]);
    expect(matchRoute('POST', '/oauth/token').route?.operationId).toBe('oauthToken');
    expect(matchRoute('GET', '/.well-known/oauth-authorization-server').route?.operationId).toBe('oauthMetadata');
    expect(matchRoute('GET', '/dashboard/assets/dashboard.abc.css').params).toEqual({ file: 'dashboard.abc.css' });
    expect(matchRoute('PUT', '/dashboard/sign-in').allowed.sort()).toEqual(['GET', 'POST']);
  });

  it('are the whole table with the API rows, each method and path once', () => {
    expect(routeTable).toHaveLength(routes.length + webRoutes.length);
    const keys = routeTable.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('GET /.well-known/oauth-authorization-server', () => {
  it('names the origin as issuer, every endpoint, the grant types, S256 and every scope (RFC 8414)', async () => {
    process.env.PUBLIC_ORIGIN = 'http://localhost:3000';
    const response = await metadata(apiEvent({ method: 'GET', path: '/.well-known/oauth-authorization-server' }));
    delete process.env.PUBLIC_ORIGIN;
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body!)).toMatchObject({
      issuer: 'http://localhost:3000',
      authorization_endpoint: 'http://localhost:3000/oauth/authorize',
      token_endpoint: 'http://localhost:3000/oauth/token',
      revocation_endpoint: 'http://localhost:3000/oauth/revoke',
      grant_types_supported: ['authorization_code', 'refresh_token'],
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: [...allScopes],
      service_documentation: 'http://localhost:3000/docs',
    });
    // In AWS: the domain API Gateway names, over https.
    const deployed = await metadata(apiEvent({ method: 'GET', path: '/.well-known/oauth-authorization-server' }));
    expect(JSON.parse(deployed.body!).issuer).toBe('https://api.example.test');
  });

  it('may be cached for five minutes, and says nothing else about caching (no Pragma: no-cache beside it)', async () => {
    const response = await metadata(apiEvent({ method: 'GET', path: '/.well-known/oauth-authorization-server' }));
    expect(response.headers['Cache-Control']).toBe('public, max-age=300');
    expect(response.headers.Pragma).toBeUndefined();
  });
});

describe('the stylesheet', () => {
  it('pages link the names the asset function serves: asset-names.ts is not stale (`npm run assets:names`)', () => {
    expect([stylesheetPath, scriptPath]).toEqual([`/dashboard/assets/${stylesheetFile}`, `/dashboard/assets/${scriptFile}`]);
  });

  it('is served under its content hash for a year, and nothing else is', async () => {
    const response = await asset(
      apiEvent({ method: 'GET', path: `/dashboard/assets/${stylesheetFile}`, pathParameters: { file: stylesheetFile } }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(stylesheetText);
    expect(response.headers).toMatchObject({
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
    });
    const other = await asset(
      apiEvent({
        method: 'GET',
        path: '/dashboard/assets/dashboard.000000000000.css',
        pathParameters: { file: 'dashboard.000000000000.css' },
      }),
    );
    expect(other.statusCode).toBe(404);
  });
});
