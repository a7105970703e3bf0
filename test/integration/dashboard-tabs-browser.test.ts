import type { Browser } from 'playwright-core';
import { as } from './support/http';
import { expectAccessible as checked, launchChromium, signInThroughPage } from './support/browser';
import { newPerson, origin } from './support/web-client';
import { fixtureRepository } from './support/workflows';

/**
 * Two tabs of one browser share the session and the mode: a form of one acts only in the mode it
 * was shown in, whatever the other switched to meanwhile. Debian's Chromium, as people use it.
 */
describe('dashboard forms in two tabs of a real browser', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('a project form opened in Test mode and sent after the other tab switched to Live creates nothing, and says so', async () => {
    const person = await newPerson();
    const repository = await fixtureRepository();
    const context = await browser.newContext();
    try {
      const shown = await context.newPage();
      await signInThroughPage(shown, origin(), person);
      await shown.getByRole('switch', { name: 'Test mode' }).click();
      await shown.getByText('You are viewing test data').waitFor();
      await shown.goto(`${origin()}/dashboard/projects`);
      const form = shown.getByRole('form', { name: 'Create a project' });
      await form.getByLabel('Name').fill('Meant for test');
      await form.getByLabel('Repository').fill(repository.url);

      // The other tab turns Test mode off.
      const other = await context.newPage();
      await other.goto(`${origin()}/dashboard`);
      const toggle = other.getByRole('switch', { name: 'Test mode' });
      await expect(toggle.getAttribute('aria-checked')).resolves.toBe('true');
      await toggle.click();
      await expect(other.getByRole('switch', { name: 'Test mode' }).getAttribute('aria-checked')).resolves.toBe('false');

      await form.getByRole('button', { name: 'Create' }).click();
      await shown.getByRole('heading', { name: 'You are now in Live mode', level: 1 }).waitFor();
      await expect(shown.locator('main').textContent()).resolves.toContain(
        `This form was opened for the account ${person.account.id} in Test mode; you are now acting for the account ${person.account.id} in Live mode. Nothing was changed.`,
      );
      // Told inside the dashboard, as it is now: its navigation (Projects current), Live data, the switch off.
      const nav = shown.getByRole('navigation', { name: 'Dashboard' });
      await expect(nav.getByRole('link', { name: 'Projects' }).getAttribute('aria-current')).resolves.toBe('page');
      await expect(shown.locator('.account-bar').textContent()).resolves.toContain('Live data');
      await expect(shown.getByRole('switch', { name: 'Test mode' }).getAttribute('aria-checked')).resolves.toBe('false');
      await checked(shown, 'form-shown-in-another-mode');
      expect((await as(person.live.key).get('/projects')).body.data).toEqual([]);
      expect((await as(person.test.key).get('/projects')).body.data).toEqual([]);

      // Reloaded, the page is the live one, and a project made there is live.
      await shown.getByRole('link', { name: 'Reload the page' }).click();
      await shown.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
      await expect(shown.getByRole('switch', { name: 'Test mode' }).getAttribute('aria-checked')).resolves.toBe('false');
      const reloaded = shown.getByRole('form', { name: 'Create a project' });
      await reloaded.getByLabel('Name').fill('Meant for live');
      await reloaded.getByLabel('Repository').fill(repository.url);
      await reloaded.getByRole('button', { name: 'Create' }).click();
      await shown.getByRole('heading', { name: 'Meant for live', level: 1 }).waitFor();
      expect((await as(person.live.key).get('/projects')).body.data.map((p: { name: string }) => p.name)).toEqual(['Meant for live']);
      expect((await as(person.test.key).get('/projects')).body.data).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
