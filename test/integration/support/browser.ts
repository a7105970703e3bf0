import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (`.ci/run` installs it); Playwright's own browser downloads are not used. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * A headless Chromium with a fresh profile (Playwright makes one per launch) that talks to
 * nothing but the servers the test starts on this machine.
 */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-features=Translate,OptimizationHints,MediaRouter',
    ],
  });

/** Where screenshots go: test-results/screenshots (git-ignored). */
export const screenshotDir = fileURLToPath(new URL('../../../test-results/screenshots/', import.meta.url));

export const screenshot = async (page: Page, name: string): Promise<string> => {
  await mkdir(screenshotDir, { recursive: true });
  const path = `${screenshotDir}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
};

/** axe-core's WCAG 2.1 A and AA rules on the page as it is; the violations, by rule and element. */
export const accessibilityViolations = async (page: Page): Promise<string[]> => {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
};

/** The page as it is now: saved as a screenshot under `dashboard-<name>`, and no axe violation. */
export const expectAccessible = async (page: Page, name: string): Promise<void> => {
  await screenshot(page, `dashboard-${name}`);
  expect({ page: name, violations: await accessibilityViolations(page) }).toEqual({ page: name, violations: [] });
};

/** Signs `person` in through the dashboard's sign-in page and waits for Home. */
export const signInThroughPage = async (page: Page, origin: string, person: { email: string; password: string }): Promise<void> => {
  await page.goto(`${origin}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
};
