import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { as } from './support/http';
import { accessibilityViolations, launchChromium, screenshot } from './support/browser';
import { oauthApp, registerApp } from './support/oauth-app';
import { eventually, startReceiver, type Receiver } from './support/receiver';
import { newPerson, origin } from './support/web-client';

/**
 * The whole flow as a person and a client application live it: Debian's Chromium driven by
 * playwright-core signs in and consents; oauth4webapi is the application; the redirect lands on an
 * HTTP server of the test on 127.0.0.1.
 */
describe('OAuth in a real browser', () => {
  let browser: Browser;
  let callback: Receiver;
  let callbackUri: string;

  beforeAll(async () => {
    browser = await launchChromium();
    callback = await startReceiver({ status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'signed in to the application' });
    callbackUri = callback.url('/callback');
  });

  afterAll(async () => {
    await browser?.close();
    await callback?.close();
  });

  /** What the browser asked of the application, but the favicon it fetches on its own after a page loads. */
  const navigations = () => callback.requests.filter((request) => !request.path.startsWith('/favicon.ico'));

  /** The URL of the next request the application's callback receives. */
  const nextCallback = async (before: number): Promise<URL> => {
    const request = await eventually(
      () => navigations()[before],
      15_000,
      () => 'the browser never reached the callback',
    );
    return new URL(request.path, callback.url('/'));
  };

  const signIn = async (page: Page, email: string, password: string) => {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  it('sign-in, consent, code, token, API call, refresh; the reused refresh token revokes the grant (screenshots of both pages)', async () => {
    const person = await newPerson();
    const app = await oauthApp(await registerApp(callbackUri), callbackUri);
    const pending = await app.start('read:projects write:projects');
    const context = await browser.newContext();
    const page = await context.newPage();

    await page.goto(pending.url.toString());
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await expect(page.getByText('Sign in to continue to CI Bot.').count()).resolves.toBe(1);
    expect(existsSync(await screenshot(page, 'sign-in'))).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);

    await signIn(page, person.email, person.password);
    await page.getByRole('heading', { name: 'Authorize CI Bot' }).waitFor();
    await expect(page.getByText('View projects and their settings').count()).resolves.toBe(1);
    expect(existsSync(await screenshot(page, 'consent'))).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);

    const before = navigations().length;
    await page.getByRole('button', { name: 'Allow' }).click();
    const redirect = await nextCallback(before);
    const tokens = await app.finish(redirect, pending);
    expect(tokens.scope).toBe('read:projects write:projects');
    expect((await as(tokens.access_token).get('/projects')).status).toBe(200);

    const refreshed = await app.refresh(tokens.refresh_token!);
    expect((await as(refreshed.access_token).get('/projects')).status).toBe(200);
    await expect(app.refresh(tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await as(refreshed.access_token).get('/projects')).status).toBe(401);
    await context.close();
  });

  it('Deny sends access_denied; a tampered state is refused by the application; a tampered redirect URI never leaves the service', async () => {
    const person = await newPerson();
    const app = await oauthApp(await registerApp(callbackUri), callbackUri);
    const context = await browser.newContext();
    const page = await context.newPage();

    const denied = await app.start('read:projects');
    await page.goto(denied.url.toString());
    await signIn(page, person.email, person.password);
    let before = navigations().length;
    await page.getByRole('button', { name: 'Deny' }).click();
    const deniedAt = await nextCallback(before);
    expect(deniedAt.searchParams.get('error')).toBe('access_denied');
    expect(deniedAt.searchParams.get('state')).toBe(denied.state);

    const pending = await app.start('read:projects');
    before = navigations().length;
    await page.goto(pending.url.toString());
    await page.getByRole('button', { name: 'Allow' }).click();
    const redirect = await nextCallback(before);
    await expect(app.finish(redirect, { ...pending, state: 'another-state' })).rejects.toThrow(/state/);

    const tampered = await app.start('read:projects');
    tampered.url.searchParams.set('redirect_uri', callback.url('/stolen'));
    before = navigations().length;
    const answer = await page.goto(tampered.url.toString());
    expect(answer?.status()).toBe(400);
    await page.getByRole('heading', { name: 'This authorization request is not valid' }).waitFor();
    expect(navigations().length).toBe(before);
    await context.close();
  });

  it('a PKCE verifier that does not match gets no token', async () => {
    const person = await newPerson();
    const app = await oauthApp(await registerApp(callbackUri), callbackUri);
    const context = await browser.newContext();
    const page = await context.newPage();
    const pending = await app.start('read:projects');
    await page.goto(pending.url.toString());
    await signIn(page, person.email, person.password);
    const before = navigations().length;
    await page.getByRole('button', { name: 'Allow' }).click();
    const redirect = await nextCallback(before);
    const other = await app.start('read:projects');
    await expect(app.finish(redirect, { state: pending.state, verifier: other.verifier })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await context.close();
  });

  it('a viewer sees which scopes will not be granted, and the token gets the narrower set', async () => {
    const person = await newPerson({ role: 'viewer' });
    const app = await oauthApp(await registerApp(callbackUri), callbackUri);
    const context = await browser.newContext();
    const page = await context.newPage();
    const pending = await app.start('read:projects write:projects');
    await page.goto(pending.url.toString());
    await signIn(page, person.email, person.password);
    await page.getByText('Not granted: you are a viewer, who can grant only read access').waitFor();
    const before = navigations().length;
    await page.getByRole('button', { name: 'Allow' }).click();
    const tokens = await app.finish(await nextCallback(before), pending);
    expect(tokens.scope).toBe('read:projects');
    expect((await as(tokens.access_token).post('/projects', { name: 'x', repository: 'https://github.com/acme/x' })).status).toBe(403);
    await context.close();
  });

  it('no page of the service can be framed by another site (frame-ancestors)', async () => {
    const framer = await startReceiver({
      status: 200,
      headers: { 'Content-Type': 'text/html' },
      body: `<!doctype html><title>framer</title><iframe id="victim" src="${origin()}/dashboard/sign-in"></iframe>`,
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(framer.url('/'), { waitUntil: 'load' });
      const frame = page.frames().find((f) => f !== page.mainFrame());
      expect(frame).toBeDefined();
      expect(await frame!.locator('input[name="email"]').count()).toBe(0);
    } finally {
      await context.close();
      await framer.close();
    }
  });
});
