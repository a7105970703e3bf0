import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectAccessible as checked, launchChromium, signInThroughPage } from './support/browser';
import { newPerson, origin } from './support/web-client';

/** Every link of the dashboard's navigation, in its order. */
const navLinks = [
  'Home',
  'Projects',
  'Workflows',
  'Security',
  'Deployments',
  'Tests',
  'Webhooks',
  'API keys',
  'Applications',
  'Authorized applications',
  'Requests',
  'Team',
  'Audit log',
  'Your sessions',
  'Two-factor sign-in',
];

/** Phones: WCAG 1.4.10's reflow width (320 px) on a small screen, and a common one (390 × 844). */
const phones = [
  { width: 320, height: 568 },
  { width: 390, height: 844 },
];

/**
 * The dashboard on a phone, in Debian's Chromium: the navigation folds into one "Menu" control, so
 * every page (the answers to a refused action and to a form shown for another mode too) opens with
 * its heading in the first screen, and the menu opens from the keyboard with every link reachable.
 */
describe('the dashboard navigation on a phone, in a real browser', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
  });

  const newContext = async (options: { width: number; height: number; javaScriptEnabled?: boolean }) => {
    const context = await browser.newContext({
      viewport: { width: options.width, height: options.height },
      javaScriptEnabled: options.javaScriptEnabled ?? true,
    });
    contexts.push(context);
    return context;
  };

  /** Where the page's `h1` is, whether the page scrolls sideways, and what the menu's control says. */
  const firstScreen = (page: Page) =>
    page.evaluate(() => {
      const heading = document.querySelector('h1') as HTMLElement;
      const box = heading.getBoundingClientRect();
      const toggle = document.querySelector('nav[aria-label="Dashboard"] summary') as HTMLElement;
      return {
        heading: heading.textContent,
        headingInView: box.top >= 0 && box.bottom <= window.innerHeight,
        sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        menuShown: toggle.getBoundingClientRect().height > 0,
      };
    });

  const menuName = (page: Page) => page.locator('nav[aria-label="Dashboard"] summary').evaluate((summary) => summary.textContent);

  /** The element the keyboard is on: a link's name or the menu's control. */
  const focusedName = (page: Page) =>
    page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      return element.tagName === 'SUMMARY' ? 'Menu control' : (element.textContent ?? '').trim();
    });

  it.each(phones)(
    'at $width px every page opens with its heading in view; the menu names the current page and opens from the keyboard',
    async (viewport) => {
      const person = await newPerson();
      const context = await newContext(viewport);
      const page = await context.newPage();
      await signInThroughPage(page, origin(), person);
      // Test mode: its banner is one more line above the page.
      await page.getByRole('switch', { name: 'Test mode' }).click();
      await page.getByText('You are viewing test data').waitFor();
      const tag = `phone-${viewport.width}`;

      for (const [path, heading, current] of [
        ['/dashboard', 'Home', 'Home'],
        ['/dashboard/projects', 'Projects', 'Projects'],
        ['/dashboard/tests', 'Tests', 'Tests'],
        ['/dashboard/developers/api-keys', 'API keys', 'API keys'],
        ['/dashboard/audit-log', 'Audit log', 'Audit log'],
      ] as const) {
        await page.goto(`${origin()}${path}`);
        await expect(firstScreen(page)).resolves.toEqual({ heading, headingInView: true, sideways: 0, menuShown: true });
        await expect(menuName(page)).resolves.toBe(`Menu, current page: ${current}`);
        // Closed, the links are out of the way (and out of the keyboard's path).
        await expect(page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link').count()).resolves.toBe(0);
      }
      await checked(page, `audit-log-menu-closed-${tag}`);

      // From the top of the page, Tab reaches the menu's control; Enter opens it; every link follows in order.
      await page.goto(`${origin()}/dashboard/projects`);
      let presses = 0;
      while ((await focusedName(page)) !== 'Menu control') {
        presses += 1;
        expect(presses).toBeLessThan(20);
        await page.keyboard.press('Tab');
      }
      await page.keyboard.press('Enter');
      const reached: string[] = [];
      while (reached.length < navLinks.length) {
        await page.keyboard.press('Tab');
        reached.push(await focusedName(page));
      }
      expect(reached).toEqual(navLinks);
      await expect(
        page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Projects' }).getAttribute('aria-current'),
      ).resolves.toBe('page');
      await expect(page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).resolves.toBe(0);
      await checked(page, `projects-menu-open-${tag}`);

      // Opened, a link leads to its page, whose menu is closed again and names it.
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Authorized applications' }).focus();
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      await expect(firstScreen(page)).resolves.toEqual({
        heading: 'Authorized applications',
        headingInView: true,
        sideways: 0,
        menuShown: true,
      });
      await expect(menuName(page)).resolves.toBe('Menu, current page: Authorized applications');

      // A refused action ("That did not work"): a form of the dashboard sent for a workflow that does not exist.
      const [refused] = await Promise.all([
        page.waitForNavigation(),
        page.evaluate(() => {
          const token = (document.querySelector('input[name="csrf_token"]') as HTMLInputElement).value;
          const form = document.createElement('form');
          form.method = 'post';
          form.action = '/dashboard/workflows/wf_00000000000000000000000000/cancel';
          for (const [name, value] of Object.entries({ csrf_token: token, confirmed: 'yes' })) {
            const field = document.createElement('input');
            field.type = 'hidden';
            field.name = name;
            field.value = value;
            form.append(field);
          }
          document.body.append(form);
          form.submit();
        }),
      ]);
      expect(refused?.status()).toBe(404);
      await expect(firstScreen(page)).resolves.toEqual({ heading: 'That did not work', headingInView: true, sideways: 0, menuShown: true });
      await expect(menuName(page)).resolves.toBe('Menu, current page: Workflows');
      await checked(page, `action-failed-${tag}`);

      // A form shown in Test mode, sent after another tab switched to Live (409).
      await page.goto(`${origin()}/dashboard/projects`);
      const other = await context.newPage();
      await other.goto(`${origin()}/dashboard`);
      await other.getByRole('switch', { name: 'Test mode' }).click();
      await other.getByText('Live data').waitFor();
      const form = page.getByRole('form', { name: 'Create a project' });
      await form.getByLabel('Name').fill('Never made');
      await form.getByLabel('Repository').fill('http://127.0.0.1:9/never.git');
      const [elsewhere] = await Promise.all([page.waitForNavigation(), form.getByRole('button', { name: 'Create' }).click()]);
      expect(elsewhere?.status()).toBe(409);
      await expect(firstScreen(page)).resolves.toEqual({
        heading: 'You are now in Live mode',
        headingInView: true,
        sideways: 0,
        menuShown: true,
      });
      await checked(page, `form-shown-elsewhere-${tag}`);
    },
    90_000,
  );

  it('opens without any script on a phone, and is no control at all on a wide screen, where every link is shown', async () => {
    const person = await newPerson();
    const phone = await (await newContext({ width: 320, height: 568, javaScriptEnabled: false })).newPage();
    await signInThroughPage(phone, origin(), person);
    const nav = phone.getByRole('navigation', { name: 'Dashboard' });
    await expect(nav.getByRole('link').count()).resolves.toBe(0);
    await phone.locator('nav[aria-label="Dashboard"] summary').click();
    await expect(nav.getByRole('link').allTextContents()).resolves.toEqual(navLinks);
    await nav.getByRole('link', { name: 'Team', exact: true }).click();
    await phone.getByRole('heading', { name: 'Team', level: 1 }).waitFor();

    const wide = await (await newContext({ width: 1024, height: 768 })).newPage();
    await signInThroughPage(wide, origin(), person);
    await expect(firstScreen(wide)).resolves.toMatchObject({ heading: 'Home', headingInView: true, menuShown: false });
    await expect(wide.getByRole('navigation', { name: 'Dashboard' }).getByRole('link').allTextContents()).resolves.toEqual(navLinks);
    await checked(wide, 'home-wide-menu');
  }, 60_000);
});
