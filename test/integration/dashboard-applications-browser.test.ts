import type { Browser, BrowserContext } from 'playwright-core';
import { expectAccessible as checked, launchChromium, signInThroughPage } from './support/browser';
import { newPerson, origin } from './support/web-client';

/** Editing an OAuth application in Debian's Chromium, found by accessible names; axe on every state. */
describe('editing an application in a real browser', () => {
  let browser: Browser;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it("changes an application's name and redirect URIs from its Edit button, fields prefilled, errors beside the field", async () => {
    const person = await newPerson();
    context = await browser.newContext();
    const page = await context.newPage();
    await signInThroughPage(page, origin(), person);

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Applications', exact: true }).click();
    await page.getByLabel('Name').fill('Chat bot');
    await page.getByLabel('Redirect URIs').fill('https://chat.example.com/callback');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Chat bot is registered' }).waitFor();

    await page.getByRole('link', { name: 'Edit Chat bot' }).click();
    await page.getByRole('heading', { name: 'Chat bot', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'Edit Chat bot' });
    await expect(form.getByLabel('Name').inputValue()).resolves.toBe('Chat bot');
    await expect(form.getByLabel('Redirect URIs').inputValue()).resolves.toBe('https://chat.example.com/callback');
    await checked(page, 'application');

    await form.getByLabel('Redirect URIs').fill('http://chat.example.com/callback');
    await form.getByRole('button', { name: 'Save changes' }).click();
    const redirectField = page.getByRole('form', { name: 'Edit Chat bot' }).getByLabel('Redirect URIs');
    await expect(redirectField.getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByText('http://chat.example.com/callback must use https').first().waitFor();
    await checked(page, 'application-invalid');

    const edit = page.getByRole('form', { name: 'Edit Chat bot' });
    await edit.getByLabel('Name').fill('Chat bot 2');
    await edit.getByLabel('Redirect URIs').fill('https://chat.example.com/v2/callback\nhttp://127.0.0.1/callback');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Chat bot 2', level: 1 }).waitFor();
    await page.getByText('Saved.').waitFor();
    await expect(page.getByRole('form', { name: 'Edit Chat bot 2' }).getByLabel('Redirect URIs').inputValue()).resolves.toBe(
      'https://chat.example.com/v2/callback\nhttp://127.0.0.1/callback',
    );
    await checked(page, 'application-saved');

    await page.getByRole('link', { name: 'All applications' }).click();
    const row = page.getByRole('row', { name: /Chat bot 2/ });
    await row.getByText('https://chat.example.com/v2/callback').waitFor();
    await expect(row.getByText('https://chat.example.com/callback', { exact: true }).count()).resolves.toBe(0);
  });
});
