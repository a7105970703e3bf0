import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectAccessible as checked, launchChromium, signInThroughPage } from './support/browser';
import { as } from './support/http';
import { newPerson, origin } from './support/web-client';
import { createWebhook } from './support/webhooks';

/**
 * Where the keyboard is after a form was refused, on a phone (320 px), in Debian's Chromium: the
 * answer opens at its top, the form far below; focus goes to what is to be corrected.
 */
describe('focus after a refused form, in a real browser', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
  });

  const phone = async (): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
    contexts.push(context);
    return context.newPage();
  };

  /** The focused element's accessible name or text, and whether it is on the screen. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const box = element.getBoundingClientRect();
      const label = element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : undefined;
      return { name: label ?? element.textContent?.trim(), inView: box.top >= 0 && box.bottom <= window.innerHeight };
    });

  it('goes to the field to correct, in view, when a field was refused; to the error summary when none was', async () => {
    const person = await newPerson();
    const page = await phone();
    await signInThroughPage(page, origin(), person);

    // Typed and sent from the keyboard: a repository the service does not fetch from (ssh://).
    await page.goto(`${origin()}/dashboard/projects`);
    const form = page.getByRole('form', { name: 'Create a project' });
    await form.getByLabel('Name').fill('Checkout');
    await form.getByLabel('Repository').fill('ssh://127.0.0.1/checkout.git');
    const [answer] = await Promise.all([page.waitForNavigation(), form.getByLabel('Repository').press('Enter')]);
    expect(answer?.status()).toBe(422);
    await expect(focused(page)).resolves.toEqual({ name: 'Repository', inView: true });
    await checked(page, 'project-refused-field-phone');

    // Inviting someone who is a member already: no field is to blame, the summary says why.
    await page.goto(`${origin()}/dashboard/team`);
    const invite = page.getByRole('form', { name: 'Invite someone' });
    await invite.getByLabel('Email').fill(person.email);
    const [refused] = await Promise.all([page.waitForNavigation(), invite.getByRole('button', { name: 'Invite' }).press('Enter')]);
    expect(refused?.status()).toBe(409);
    const summary = await focused(page);
    expect(summary.inView).toBe(true);
    expect(summary.name).toMatch(/already/);
    await checked(page, 'team-refused-invitation-phone');
  });

  it('a key asked for without a scope says so under the Scopes legend, and the keyboard starts at its first box', async () => {
    const person = await newPerson();
    const page = await phone();
    await signInThroughPage(page, origin(), person);
    await page.getByRole('switch', { name: 'Test mode' }).click();
    await page.getByText('You are viewing test data').waitFor();

    /** The focused box, what describes it (its error first), and whether it is on the screen. */
    const focusedBox = () =>
      page.evaluate(() => {
        const box = document.activeElement as HTMLInputElement;
        const described = (box.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
        const rect = box.getBoundingClientRect();
        return {
          value: box.value,
          invalid: box.getAttribute('aria-invalid'),
          described,
          inView: rect.top >= 0 && rect.bottom <= innerHeight,
        };
      });

    await page.goto(`${origin()}/dashboard/developers/api-keys`);
    const keyForm = page.getByRole('form', { name: 'Create a key' });
    await keyForm.getByLabel('Name').fill('No scopes');
    const [key] = await Promise.all([page.waitForNavigation(), keyForm.getByLabel('Name').press('Enter')]);
    expect(key?.status()).toBe(422);
    await expect(focusedBox()).resolves.toEqual({
      value: 'read:projects',
      invalid: 'true',
      described: ['must name at least one scope', 'View projects and their settings'],
      inView: true,
    });
    await checked(page, 'key-without-scopes-phone');
  });

  it('goes to what an action did, in view below the navigation: a notice, a key shown once, a test event’s result', async () => {
    const person = await newPerson();
    const page = await phone();
    await signInThroughPage(page, origin(), person);
    await page.getByRole('switch', { name: 'Test mode' }).click();
    await page.getByText('You are viewing test data').waitFor();

    await page.goto(`${origin()}/dashboard/team`);
    const invite = page.getByRole('form', { name: 'Invite someone' });
    await invite.getByLabel('Email').fill(`invitee-${Date.now()}@example.com`);
    await Promise.all([page.waitForNavigation(), invite.getByLabel('Email').press('Enter')]);
    const notice = await focused(page);
    expect(notice.inView).toBe(true);
    expect(notice.name).toMatch(/^The invitation is sent/);

    await page.goto(`${origin()}/dashboard/developers/api-keys`);
    const keyForm = page.getByRole('form', { name: 'Create a key' });
    await keyForm.getByLabel('Name').fill('CI deploys');
    await keyForm.getByLabel('read:projects', { exact: true }).check();
    await Promise.all([page.waitForNavigation(), keyForm.getByRole('button', { name: 'Create' }).press('Enter')]);
    const key = await focused(page);
    expect(key.inView).toBe(true);
    expect(key.name).toMatch(/svc_test_[0-9A-Za-z]+/);
    // The next Tab is its Copy button.
    await page.keyboard.press('Tab');
    await expect(focused(page)).resolves.toEqual({ name: 'Copy', inView: true });

    // A test event to a port where nothing listens: its result (failed), far down a phone's page.
    const webhook = await createWebhook(as(person.test.key), { url: 'http://127.0.0.1:9/focus', events: ['*'] });
    await page.goto(`${origin()}/dashboard/webhooks/${webhook.id}`);
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Send test event' }).press('Enter')]);
    const result = await focused(page);
    expect(result.inView).toBe(true);
    expect(result.name).toMatch(/^Test event failed/);
    await checked(page, 'webhook-test-event-result-phone');
  });

  it('stays where a page puts it itself: the password of the sign-in page, after a wrong one', async () => {
    const person = await newPerson();
    const page = await phone();
    await page.goto(`${origin()}/dashboard/sign-in`);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill('not the pass phrase');
    const [answer] = await Promise.all([page.waitForNavigation(), page.getByLabel('Password').press('Enter')]);
    expect(answer?.status()).toBe(401);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/password/i);
    await expect(focused(page)).resolves.toEqual({ name: 'Password', inView: true });
  });
});
