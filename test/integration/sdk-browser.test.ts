import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { signatureHeader } from '../../functions/core/webhooks/signature';
import { apiUrl, newAccount } from './support/runtime';

/**
 * The SDK in a real browser (Debian's Chromium), with no polyfill: bundled for the browser platform
 * (a Node built-in would fail the build), served from another origin than the API (CORS), calling
 * the local runtime and verifying a webhook signature with Web Crypto.
 */

let browser: Browser;
let site: Server;
let siteUrl: string;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('../../clients/typescript/src/index.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  site = createServer((request, response) => {
    if (request.url === '/sdk.js') response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
    else response.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>SDK</title>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
});

describe('the SDK in a browser', () => {
  it('calls the API across origins, pages, throws typed errors and verifies webhook signatures', async () => {
    const { test: key } = await newAccount();
    const page = await browser.newPage();
    const local = [new URL(siteUrl).host, new URL(apiUrl()).host];
    // Nothing may leave this machine.
    await page.route(
      (url) => !local.includes(url.host),
      (route) => route.abort(),
    );
    await page.goto(siteUrl);
    const secret = 'whsec_browser-test-secret';
    const body = JSON.stringify({
      id: 'evt_01JD2Q9R7W3T0N8M4K6H5G2F1E',
      type: 'workflow.completed',
      created_at: '2026-11-21T10:00:00.000Z',
      data: {},
    });
    const header = signatureHeader(body, [secret], Math.floor(Date.now() / 1000));

    const result = await page.evaluate(
      async ({ origin, baseUrl, apiKey, body, header, secret }) => {
        // Loaded by the page like any module of an app; the SDK needs nothing Node has.
        const sdk = await import(`${origin}/sdk.js`);
        const api = sdk.createClient({ baseUrl, apiKey });
        const names: string[] = [];
        for (const name of ['One', 'Two', 'Three']) {
          const { data } = await api.post('/v1/projects', { body: { name, repository: `https://github.com/acme/${name}` } });
          names.push(data.name);
        }
        const paged: string[] = [];
        for await (const project of api.paginate('/v1/projects', { params: { query: { per_page: 2, sort: 'name', order: 'asc' } } })) {
          paged.push(project.name);
        }
        const error = await api
          .get('/v1/projects/{id}', { params: { path: { id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G' } } })
          .catch((e: any) => e);
        const event = await sdk.webhooks.constructEvent(body, header, secret);
        const forged = await sdk.webhooks.constructEvent(body, header, 'whsec_other').catch((e: any) => e.name);
        return {
          names,
          paged,
          error: { name: error.name, status: error.status, code: error.code, hasRequestId: typeof error.requestId === 'string' },
          eventType: event.type,
          forged,
        };
      },
      { origin: siteUrl, baseUrl: apiUrl(), apiKey: key.key, body, header, secret },
    );
    expect(result).toEqual({
      names: ['One', 'Two', 'Three'],
      paged: ['One', 'Three', 'Two'],
      error: { name: 'ServiceApiError', status: 404, code: 'not_found', hasRequestId: true },
      eventType: 'workflow.completed',
      forged: 'WebhookSignatureError',
    });
    await page.close();
  });
});
