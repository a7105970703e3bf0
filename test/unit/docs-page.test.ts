import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { handler as assetHandler } from '../../functions/handlers/meta/docs-asset';
import { handler as pageHandler, referencePageCsp } from '../../functions/handlers/meta/docs-page';
import { routes } from '../../functions/routes';
import { rendererBundle } from '../../functions/routes/docs';
import { apiEvent, lambdaContext } from './fakes/api-gateway-event';

const page = () => pageHandler(apiEvent({ method: 'GET', path: '/docs' }), lambdaContext);
const asset = (file: string, headers: Record<string, string> = {}) =>
  assetHandler(apiEvent({ method: 'GET', path: `/docs/assets/${file}`, pathParameters: { file }, headers }), lambdaContext);

const scriptOf = (html: string): string => /<script src="\/docs\/assets\/([^"]+)"><\/script>/.exec(html)?.[1] ?? '';

describe('GET /docs', () => {
  it('answers HTML that renders /v1/openapi.json with the bundled renderer, no inline script, under a strict CSP', async () => {
    const response = await page();
    expect(response.statusCode).toBe(200);
    expect(response.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(response.headers['Content-Security-Policy']).toBe(referencePageCsp);
    expect(referencePageCsp).toContain("script-src 'self'");
    expect(referencePageCsp).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval|https?:)/);
    expect(response.body).toContain('<redoc spec-url="/v1/openapi.json"');
    expect(scriptOf(response.body as string)).toMatch(/^redoc\.[0-9a-f]{16}\.js$/);
    // Every script is the bundled one: nothing inline, nothing from another origin.
    expect((response.body as string).match(/<script/g)).toHaveLength(1);
    expect(response.body).not.toMatch(/https?:\/\//);
  });
});

describe('GET /docs/assets/{file}', () => {
  it('serves the renderer under its content hash, cached for a year, gzipped when asked', async () => {
    const name = scriptOf((await page()).body as string);
    const bundle = readFileSync(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'), 'utf8');

    const plain = await asset(name);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['Cache-Control']).toBe('public, max-age=31536000, immutable');
    const text = Buffer.from(plain.body as string, 'base64').toString('utf8');
    expect(text.length).toBeGreaterThan(100_000);
    expect(bundle.startsWith(text.slice(0, 1000))).toBe(true);
    expect(text.trimEnd().endsWith('.map')).toBe(false);

    const gzipped = await asset(name, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(gzipped.headers['Content-Encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(gzipped.body as string, 'base64')).toString('utf8')).toBe(text);
  });

  it.each(['redoc.0000000000000000.js', 'redoc.standalone.js', '..%2Fpackage.json'])('answers 404 for %s', async (file) => {
    const response = await asset(file);
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body as string).error.code).toBe('not_found');
  });
});

describe('the functions that read the renderer', () => {
  it('ship its bundle beside theirs (a deployed function has no node_modules of its own)', () => {
    const readers = routes.filter((route) =>
      readFileSync(new URL(`../../functions/handlers/${route.handler}.ts`, import.meta.url), 'utf8').includes('reference-assets'),
    );
    expect(readers.map((r) => r.path).sort()).toEqual(['/docs', '/docs/assets/{file}']);
    for (const route of readers) expect(route.shippedFiles?.[rendererBundle.module]).toContain(rendererBundle.file);
  });
});
