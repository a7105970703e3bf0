import { chromium, type Browser } from 'playwright-core';
import { routes } from '../../functions/routes';
import { apiUrl } from './support/runtime';

/** The reference page in a real browser (Debian's Chromium), under its own Content-Security-Policy. */

const root = () => apiUrl().replace(/\/v1$/, '');
let browser: Browser;

// Playwright gives every launch a fresh, temporary profile (its own --user-data-dir).
beforeAll(async () => {
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
});

describe('GET /docs in a browser', () => {
  it('renders every operation of the document, with no request to another origin and nothing blocked but the renderer logo', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    const foreign: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    // Redoc's sidebar footer shows Redocly's logo from its CDN (no option turns it off); the CSP blocks it, and
    // the renderer then hides the image. Any other violation means the page needs something the CSP refuses.
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text()) && message.text().includes('https://cdn.redoc.ly/redoc/logo-mini.svg')) {
        violations.splice(violations.indexOf(message.text()), 1);
      }
    });
    // Nothing may leave this machine: a request to another origin that gets past the CSP is recorded and aborted here.
    await page.route(
      (url) => !['blob:', 'data:'].includes(url.protocol) && url.origin !== new URL(root()).origin,
      (route) => {
        foreign.push(route.request().url());
        return route.abort();
      },
    );
    const response = await page.goto(`${root()}/docs`);
    expect(response?.status()).toBe(200);
    // Each operation is a section with its summary as heading.
    await page.locator('h2', { hasText: 'Create a project' }).first().waitFor({ timeout: 30_000 });
    const text = (await page.locator('redoc').textContent()) ?? '';
    for (const route of routes.filter((r) => r.inOpenApi !== false)) {
      expect([route.operationId, text.includes(route.summary)]).toEqual([route.operationId, true]);
    }
    // The scope note of the description and the error answers are shown.
    expect(text).toContain('Requires the scope');
    expect(text).toMatch(/422/);
    expect(violations).toEqual([]);
    expect(foreign).toEqual([]);
    if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT });
    await page.close();
  });
});
