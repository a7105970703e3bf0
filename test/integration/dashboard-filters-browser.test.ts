import type { Browser, BrowserContext, Page } from 'playwright-core';
import { as } from './support/http';
import { expectAccessible as checked, launchChromium, signInThroughPage } from './support/browser';
import { newPerson, origin } from './support/web-client';
import { fixtureRepository } from './support/workflows';

/**
 * A refused list filter as a person meets it, in Debian's Chromium (playwright-core): the error is
 * said beside the filter (its accessible description), what was given stays to be corrected, and
 * correcting it lists again. Each state checked by axe-core.
 */
describe('a refused list filter, in a real browser', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
  });

  const signedIn = async () => {
    const person = await newPerson();
    const context = await browser.newContext();
    contexts.push(context);
    const page: Page = await context.newPage();
    await signInThroughPage(page, origin(), person);
    const toggle = page.getByRole('switch', { name: 'Test mode' });
    await toggle.click();
    await expect(page.getByRole('switch', { name: 'Test mode' }).getAttribute('aria-checked')).resolves.toBe('true');
    return { person, page };
  };

  it('is said beside the filter with the value kept; choosing one it takes lists again', async () => {
    const { page } = await signedIn();
    const answer = await page.goto(`${origin()}/dashboard/workflows?status=bogus`);
    expect(answer?.status()).toBe(400);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Nothing is listed: a filter has a value it does not take.');
    const status = page.getByRole('combobox', { name: 'Status' });
    await expect(status.inputValue()).resolves.toBe('bogus');
    await expect(status.getAttribute('aria-invalid')).resolves.toBe('true');
    const describedBy = (await status.getAttribute('aria-describedby')) ?? '';
    await expect(page.locator(`[id="${describedBy}"]`).textContent()).resolves.toMatch(/^must be one of queued, /);
    // Nothing was counted: no "0 items" under the list, as if no workflow matched.
    await expect(page.locator('main').textContent()).resolves.not.toMatch(/\d+ items?\b/);
    await checked(page, 'workflows-refused-filter');

    await status.selectOption('running');
    const [listed] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Filter' }).click()]);
    expect(listed?.status()).toBe(200);
    expect(new URL(page.url()).searchParams.get('status')).toBe('running');
    await expect(page.getByRole('combobox', { name: 'Status' }).getAttribute('aria-invalid')).resolves.toBeNull();
    await expect(page.getByText('No workflows match.').count()).resolves.toBe(1);
    await expect(page.getByText('0 items', { exact: true }).count()).resolves.toBe(1);
  });

  it("a workflow's stages still update live on its page whose log filter was refused", async () => {
    const { person, page } = await signedIn();
    const api = as(person.test.key);
    const project = await api.post('/projects', { name: 'Greeter', repository: (await fixtureRepository()).url });
    const created = await api.post('/workflows', {
      project_id: project.body.data.id,
      prompt: 'Add a greeting',
      config: { ai_provider: 'local' },
    });
    expect(created.status).toBe(201);
    const answer = await page.goto(`${origin()}/dashboard/workflows/${created.body.data.id}?level=loud`);
    expect(answer?.status()).toBe(400);
    // Opened while it runs: its stages are live.
    await expect(page.locator('#workflow-stages[data-live]').count()).resolves.toBe(1);
    await expect(page.getByRole('combobox', { name: 'Level' }).inputValue()).resolves.toBe('loud');
    await expect(page.locator('main').textContent()).resolves.not.toMatch(/\d+ items?\b/);
    let navigations = 0;
    page.on('framenavigated', () => (navigations += 1));
    await page.locator('#workflow-stages:not([data-live])').waitFor({ timeout: 60_000 });
    expect(navigations).toBe(0);
    await expect(page.locator('[data-stage="intake"]').textContent()).resolves.toContain('completed');
    await checked(page, 'workflow-refused-log-filter');
  }, 90_000);
});
