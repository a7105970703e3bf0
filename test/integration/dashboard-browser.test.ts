import type { Browser, BrowserContext, Page } from 'playwright-core';
import { as } from './support/http';
import { expectAccessible as checked, launchChromium, signInThroughPage } from './support/browser';
import {
  completedDeployment,
  hookConfig,
  newProject,
  startDeployTarget,
  waitForDeployment,
  type DeployTarget,
} from './support/deployments';
import { oauthApp } from './support/oauth-app';
import { eventually, startReceiver, type Receiver } from './support/receiver';
import { newPerson, origin } from './support/web-client';
import { createWebhook, recordEvent } from './support/webhooks';
import { fixtureRepository } from './support/workflows';

type Person = Awaited<ReturnType<typeof newPerson>>;

/**
 * The dashboard as people use it: Debian's Chromium driven by playwright-core against the local
 * runtime, found by the accessible names of DESIGN.md. Every page it opens is checked by axe-core
 * and saved as a screenshot (test-results/screenshots, not committed).
 */
describe('the dashboard in a real browser', () => {
  let browser: Browser;
  const closers: (() => Promise<unknown>)[] = [];

  // A webhook whose receiver always fails, and its event: the test of a failed webhook waits for
  // the whole retry schedule (about 94 s), which runs meanwhile, while the other tests use the browser.
  let failing: { person: Person; hook: Receiver; webhook: { id: string } };

  beforeAll(async () => {
    browser = await launchChromium();
    const person = await newPerson();
    const hook: Receiver = await startReceiver({ status: 500, body: 'receiver is down' });
    closers.push(() => hook.close());
    const webhook = await createWebhook(as(person.test.key), { url: hook.url(), events: ['workflow.completed'] });
    await recordEvent(person.account.id, 'test', 'workflow.completed');
    failing = { person, hook, webhook };
  });

  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
    await browser?.close();
  });

  const signedIn = async (options: { role?: 'admin' | 'viewer'; person?: Person } = {}) => {
    const person = options.person ?? (await newPerson(options));
    const context: BrowserContext = await browser.newContext();
    closers.push(() => context.close());
    const page = await context.newPage();
    await signInThroughPage(page, origin(), person);
    return { person, page, context };
  };

  const nav = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' });

  const switchToTestMode = async (page: Page) => {
    const toggle = page.getByRole('switch', { name: 'Test mode' });
    await expect(toggle.getAttribute('aria-checked')).resolves.toBe('false');
    await toggle.click();
    await expect(page.getByRole('switch', { name: 'Test mode' }).getAttribute('aria-checked')).resolves.toBe('true');
  };

  it('every page of the navigation opens, with the account and mode in view and no axe violation (screenshots)', async () => {
    const { person, page } = await signedIn();
    await expect(page.getByText(person.account.id).count()).resolves.toBeGreaterThan(0);
    await checked(page, 'home');
    // A few API requests, for the Requests page to list.
    await as(person.live.key).post('/projects', { name: 'Shown in Requests', repository: 'https://github.com/acme/requests' });
    await as(person.live.key).get('/projects');
    await as(person.live.key).get('/projects/proj_missing');
    for (const [link, heading] of [
      ['Projects', 'Projects'],
      ['Workflows', 'Workflows'],
      ['Security', 'Security'],
      ['Deployments', 'Deployments'],
      ['Webhooks', 'Webhooks'],
      ['API keys', 'API keys'],
      ['Applications', 'Applications'],
      ['Authorized applications', 'Authorized applications'],
      ['Requests', 'Requests'],
      ['Team', 'Team'],
      ['Audit log', 'Audit log'],
    ] as const) {
      await nav(page).getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 1, exact: true }).waitFor();
      await checked(page, link.toLowerCase().replace(/ /g, '-'));
    }
    await switchToTestMode(page);
    await page.getByText('You are viewing test data').waitFor();
    await checked(page, 'audit-log-test-mode');
    // A dozen pages, each checked by axe: a loaded machine needs more than the default minute.
  }, 150_000);

  it("keeps every list on a laptop's or a phone's screen: a wide table scrolls inside its card, and a key's actions are in view at 1280 px", async () => {
    const { person, page } = await signedIn();
    await switchToTestMode(page);
    const api = as(person.test.key);
    // A scan, whose id names its row in Security's table; it is listed from the moment it is queued.
    const repository = await fixtureRepository();
    const project = (await api.post('/projects', { name: 'Layout', repository: repository.url })).body.data;
    const scan = (await api.post('/security/scans', { project_id: project.id, scan_types: ['secrets'] })).body.data;
    // A webhook with a delivery, whose id and event type head its entry in the delivery log.
    const webhook = await createWebhook(api, { url: 'http://127.0.0.1:9/layout', events: ['workflow.completed'] });
    await recordEvent(person.account.id, 'test', 'workflow.completed');
    await eventually(
      async () => ((await api.get(`/webhooks/${webhook.id}/deliveries`)).body.data.length > 0 ? true : undefined),
      15_000,
      () => `no delivery of ${webhook.id} listed`,
      100,
    );
    // A key with a long name and six scopes: the widest row the keys table has.
    await page.setViewportSize({ width: 1280, height: 800 });
    await nav(page).getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByLabel('Name').fill('Nightly deploys of the checkout service');
    for (const scope of ['read:projects', 'write:projects', 'read:workflows', 'write:workflows', 'read:deployments', 'write:deployments'])
      await page.getByLabel(scope, { exact: true }).check();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('#new-key-value').waitFor();
    const row = page.getByRole('row', { name: /Nightly deploys/ });
    const revoke = await row.getByRole('button', { name: 'Revoke' }).boundingBox();
    const visible = await page.locator('.keys-table').locator('xpath=..').boundingBox();
    expect(revoke && visible && revoke.x + revoke.width <= visible.x + visible.width).toBe(true);

    // An application, whose row's actions name it in words only a screen reader hears, in the last column.
    await nav(page).getByRole('link', { name: 'Applications', exact: true }).click();
    const registration = page.getByRole('form', { name: 'Register an application' });
    await registration.getByLabel('Name').fill('Nightly release bot of the checkout service');
    await registration.getByLabel('Redirect URIs').fill('http://127.0.0.1:8765/oauth/callback');
    await registration.getByRole('button', { name: 'Create' }).click();
    await page.locator('#client-secret').waitFor();

    // A small laptop, and phones, where the navigation is a Menu above the page (320 px: WCAG 1.4.10's reflow width).
    for (const width of [1024, 390, 320]) {
      await page.setViewportSize({ width, height: 800 });
      for (const link of ['Home', 'Projects', 'Workflows', 'Security', 'Webhooks', 'API keys', 'Applications', 'Requests', 'Audit log']) {
        if (width < 768) await nav(page).locator('summary', { hasText: 'Menu' }).click();
        await nav(page).getByRole('link', { name: link, exact: true }).click();
        await page.getByRole('heading', { name: link, level: 1, exact: true }).waitFor();
        if (link === 'Security') await page.getByRole('link', { name: scan.id }).waitFor();
        const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect([width, link, sideways]).toEqual([width, link, 0]);
        // A table that scrolls inside its card can be scrolled from the keyboard too (axe: scrollable-region-focusable).
        if (width === 390) await checked(page, `${link.toLowerCase().replace(/ /g, '-')}-phone`);
      }
    }
    // Record pages, whose ids, commits and e-mails are long words: they wrap at 320 px too.
    for (const path of [
      `/dashboard/projects/${project.id}`,
      `/dashboard/security/scans/${scan.id}`,
      `/dashboard/webhooks/${webhook.id}`,
      '/dashboard/sessions',
      '/dashboard/two-factor',
      '/dashboard/accounts',
    ]) {
      await page.goto(`${origin()}${path}`);
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect([path, sideways]).toEqual([path, 0]);
    }
  }, 180_000);

  it('creates a key with scopes as checkboxes, shows it once, the key works; revoked after a confirmation, it gets 401', async () => {
    const { page } = await signedIn();
    await nav(page).getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByLabel('Name').fill('CI deploys');
    await page.getByLabel('Type').selectOption('live');
    await page.getByLabel('read:projects', { exact: true }).check();
    await page.getByLabel('write:projects', { exact: true }).check();
    await page.getByRole('button', { name: 'Create' }).click();
    const value = (await page.locator('#new-key-value').textContent())?.trim() ?? '';
    expect(value).toMatch(/^svc_live_/);
    expect(page.url()).not.toContain(value);
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await checked(page, 'api-keys-created');

    const api = as(value);
    expect((await api.get('/projects')).status).toBe(200);
    expect((await api.get('/workflows')).status).toBe(403);

    // Shown once: the list shows only the hint from now on.
    await page.goto(`${origin()}/dashboard/developers/api-keys`);
    await expect(page.content()).resolves.not.toContain(value);

    const row = page.getByRole('row', { name: /CI deploys/ });
    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Revoke the key "CI deploys"?').waitFor();
    await checked(page, 'api-keys-confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The key is revoked').waitFor();
    expect((await api.get('/projects')).status).toBe(401);
  });

  it('sends a form that makes a key once, however fast it is clicked: the answer shows the one key made', async () => {
    const { page } = await signedIn();
    await nav(page).getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByLabel('Name').fill('Double clicked');
    await page.getByLabel('Type').selectOption('test');
    await page.getByLabel('read:projects', { exact: true }).check();
    await page.getByRole('button', { name: 'Create' }).dblclick();
    const value = (await page.locator('#new-key-value').textContent())?.trim() ?? '';
    expect(value).toMatch(/^svc_test_/);
    expect((await as(value).get('/projects')).status).toBe(200);
    await page.goto(`${origin()}/dashboard/developers/api-keys`);
    await expect(page.getByRole('row', { name: /Double clicked/ }).count()).resolves.toBe(1);
  });

  it('without JavaScript, a new key is shown with no Copy button (the script is what copies)', async () => {
    const person = await newPerson();
    const context: BrowserContext = await browser.newContext({ javaScriptEnabled: false });
    closers.push(() => context.close());
    const page = await context.newPage();
    await signInThroughPage(page, origin(), person);
    await page.goto(`${origin()}/dashboard/developers/api-keys`);
    await page.getByLabel('Name').fill('No script');
    await page.getByLabel('read:projects', { exact: true }).check();
    await page.getByRole('button', { name: 'Create' }).click();
    await expect(page.locator('#new-key-value').isVisible()).resolves.toBe(true);
    const copy = page.locator('button[data-copy="new-key-value"]');
    await expect(copy.count()).resolves.toBe(1);
    await expect(copy.isVisible()).resolves.toBe(false);
  });

  it('the back button after a key is made shows the form empty: pressing Create again sends nothing', async () => {
    const { page } = await signedIn();
    await nav(page).getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByLabel('Name').fill('Backed into');
    await page.getByLabel('read:projects', { exact: true }).check();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('#new-key-value').waitFor();
    await page.goBack();
    await expect(page.getByLabel('Name').inputValue()).resolves.toBe('');
    await expect(page.getByLabel('read:projects', { exact: true }).isChecked()).resolves.toBe(false);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    await page.getByRole('button', { name: 'Create' }).click();
    // The browser refuses an empty required field before sending: the name asks for a value.
    await expect(page.getByLabel('Name').evaluate((input: HTMLInputElement) => input.validity.valueMissing)).resolves.toBe(true);
    expect(posts).toEqual([]);
  });

  it('rolls a key: a new value with the same name and scopes; the old one ends when chosen', async () => {
    const { page } = await signedIn();
    await nav(page).getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByLabel('Name').fill('Nightly');
    await page.getByLabel('read:projects', { exact: true }).check();
    await page.getByRole('button', { name: 'Create' }).click();
    const first = (await page.locator('#new-key-value').textContent())?.trim() ?? '';

    const row = page.getByRole('row', { name: /Nightly/ });
    await row.getByLabel('Old value stops working').selectOption('0');
    await row.getByRole('button', { name: 'Roll key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'New value of "Nightly"' }).waitFor();
    const second = (await page.locator('#new-key-value').textContent())?.trim() ?? '';
    expect(second).toMatch(/^svc_live_/);
    expect(second).not.toBe(first);
    expect((await as(second).get('/projects')).status).toBe(200);
    expect((await as(first).get('/projects')).status).toBe(401);
    await expect(page.getByRole('row', { name: /Nightly/ }).count()).resolves.toBe(1);
  });

  it('a viewer may create read keys only: the form offers read scopes, and the server refuses a write scope', async () => {
    const { page } = await signedIn({ role: 'viewer' });
    await nav(page).getByRole('link', { name: 'API keys', exact: true }).click();
    await expect(page.getByLabel('write:projects', { exact: true }).count()).resolves.toBe(0);
    await checked(page, 'api-keys-viewer');

    // The form as a crafted request would send it: the server decides, not the page.
    const answer = await page.evaluate(async () => {
      const form = document.querySelector('form[aria-label="Create a key"]') as HTMLFormElement;
      const body = new URLSearchParams(new FormData(form) as unknown as Record<string, string>);
      body.set('name', 'sneaky');
      body.append('scopes', 'write:projects');
      const response = await fetch(form.action, { method: 'POST', body });
      return { status: response.status, text: await response.text() };
    });
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('A viewer can manage only the keys they made with read:* scopes');

    await page.getByLabel('Name').fill('Reader');
    await page.getByLabel('read:projects', { exact: true }).check();
    await page.getByRole('button', { name: 'Create' }).click();
    expect((await page.locator('#new-key-value').textContent())?.trim()).toMatch(/^svc_live_/);
  });

  it("a workflow's stages update live, without a reload", async () => {
    const { person, page } = await signedIn();
    const api = as(person.test.key);
    const repository = await fixtureRepository();
    const project = await api.post('/projects', { name: 'Greeter', repository: repository.url });
    const created = await api.post('/workflows', {
      project_id: project.body.data.id,
      prompt: 'Add a greeting',
      config: { ai_provider: 'local' },
    });
    expect(created.status).toBe(201);
    await switchToTestMode(page);
    await page.goto(`${origin()}/dashboard/workflows/${created.body.data.id}`);
    let navigations = 0;
    page.on('framenavigated', () => (navigations += 1));
    await page.locator('#workflow-stages:not([data-live])').waitFor({ timeout: 60_000 });
    expect(navigations).toBe(0);
    await expect(page.locator('[data-stage="intake"]').textContent()).resolves.toContain('completed');
    await checked(page, 'workflow');
  }, 90_000);

  it('shows a deployment with its status, URL, version and health checks, and rolls it back after a confirmation', async () => {
    const { person, page } = await signedIn();
    const api = as(person.test.key);
    const site: DeployTarget = await startDeployTarget();
    closers.push(() => site.close());
    const projectId = await newProject(api);
    const body = { project_id: projectId, environment: 'production', provider: 'deploy-hook', config: hookConfig(site) };
    const previous = await completedDeployment(api, body);
    const done = await completedDeployment(api, body);
    await switchToTestMode(page);
    await page.goto(`${origin()}/dashboard/deployments/${done.id}`);
    await page.getByText(done.url).waitFor();
    await page.getByRole('table', { name: 'Health checks, latest last' }).getByText('health check answered 200').first().waitFor();
    await checked(page, 'deployment');

    await page.getByRole('button', { name: 'Roll back' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Roll back production to its previous deployment?').waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Rollback requested').waitFor();
    // Until the rollback has run, the deployment is still `completed` with its rollback in progress.
    const rolledBack = await waitForDeployment(api, done.id, (d) => d.rollback?.status !== 'in_progress');
    expect([rolledBack.status, rolledBack.rolled_back_to]).toEqual(['rolled_back', previous.id]);
    await page.reload();
    await page.getByRole('link', { name: previous.id }).waitFor();
    await checked(page, 'deployment-rolled-back');
  }, 120_000);

  it('registers an application, authorizes it, and revokes the grant: the token is refused on its next request', async () => {
    const { page } = await signedIn();
    const callback: Receiver = await startReceiver({ status: 200, body: 'back in the application' });
    closers.push(() => callback.close());
    await nav(page).getByRole('link', { name: 'Applications', exact: true }).click();
    await page.getByLabel('Name').fill('Chat bot');
    await page.getByLabel('Redirect URIs').fill(callback.url('/callback'));
    await page.getByRole('button', { name: 'Create' }).click();
    const clientId = (await page.locator('code', { hasText: /^oac_/ }).first().textContent())?.trim() ?? '';
    const secret = (await page.locator('#client-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^svc_oacs_/);
    await checked(page, 'applications-registered');

    const app = await oauthApp({ id: clientId, client_secret: secret }, callback.url('/callback'));
    const pending = await app.start('read:projects');
    await page.goto(pending.url.toString());
    const before = callback.requests.length;
    await page.getByRole('button', { name: 'Allow' }).click();
    // The consent's redirect is the first request after the click; the browser may ask the same
    // origin for /favicon.ico right after it.
    const redirect = (await callback.waitFor(before + 1))[before]!;
    const tokens = await app.finish(new URL(redirect.path, callback.url('/')), pending);
    expect((await as(tokens.access_token).get('/projects')).status).toBe(200);

    await page.goto(`${origin()}/dashboard/developers/authorized-applications`);
    const row = page.getByRole('row', { name: /Chat bot/ });
    await row.getByText('read:projects').waitFor();
    await checked(page, 'authorized-applications');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Revoked:').waitFor();
    expect((await as(tokens.access_token).get('/projects')).status).toBe(401);
  });

  it('a webhook that fails its whole schedule stands out (badge, banner), shows its attempts, and recovers once re-enabled', async () => {
    const { person, hook, webhook } = failing;
    const { page } = await signedIn({ person });
    const api = as(person.test.key);
    // Six attempts at 1/100 of the real delays: about 94 s from the event, recorded before the first test.
    await eventually(
      async () => (await api.get(`/webhooks/${webhook.id}`)).body?.data?.status === 'failed',
      180_000,
      () => 'the webhook never failed',
      500,
    );

    await switchToTestMode(page);
    await nav(page).getByText('1 failed', { exact: true }).waitFor();
    await page.goto(`${origin()}/dashboard`);
    await page.getByText('1 webhook has failed').waitFor();
    await checked(page, 'home-failed-webhook');

    await page.getByRole('link', { name: 'see the failed webhooks' }).click();
    await page.getByRole('link', { name: hook.url() }).click();
    await page.getByText('This webhook has failed').waitFor();
    const attempts = page.getByRole('table', { name: /Attempts of dlv_/ });
    await expect(attempts.getByRole('row').count()).resolves.toBe(7);
    await expect(attempts.getByText('receiver is down').count()).resolves.toBe(6);
    await checked(page, 'webhook-failed');

    hook.respondWith({ status: 200, body: 'ok' });
    const before = hook.requests.length;
    await page.getByRole('button', { name: 'Re-enable' }).click();
    await page.getByText('The webhook is enabled again').waitFor();
    await expect(nav(page).getByText('1 failed', { exact: true }).count()).resolves.toBe(0);
    await page.getByLabel('Since (UTC)').fill(new Date(Date.now() - 3_600_000).toISOString().slice(0, 19));
    await page.getByRole('button', { name: 'Recover' }).click();
    await page.getByText('1 delivery is queued again.').waitFor();
    await checked(page, 'webhook-recovered');
    await hook.waitFor(before + 1, 15_000);
    await page.reload();
    await page.locator('.delivery__head .badge', { hasText: 'succeeded' }).first().waitFor();
  }, 240_000);
});
