import type { Browser } from 'playwright-core';
import { createKey } from '../../functions/core/credentials/dashboard-keys';
import { createUser } from '../../functions/core/users/manage-users';
import { as } from './support/http';
import { expectAccessible as checked, launchChromium, signInThroughPage } from './support/browser';
import { newPerson, origin } from './support/web-client';

/**
 * The keys page's creators and the team page's removal, in Debian's Chromium (playwright-core)
 * against the local runtime, each state checked by axe-core.
 */
describe('keys made by a member, in a real browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows who made each key; removing the member says what happens, and only their personal access token stops', async () => {
    const admin = await newPerson({ role: 'admin' });
    const memberEmail = `member-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const member = (await createUser({ email: memberEmail, accountId: admin.account.id, role: 'viewer' }, admin.deps)).user;
    // What the member's **Create** does in the dashboard.
    const actor = { accountId: admin.account.id, userId: member.id, role: 'viewer' as const };
    const pat = await createKey(actor, { type: 'pat', name: 'member laptop', scopes: ['read:projects'] }, admin.deps);
    const readOnly = await createKey(actor, { type: 'ro', name: 'member dashboards', scopes: ['read:projects'] }, admin.deps);

    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signInThroughPage(page, origin(), admin);
      const nav = page.getByRole('navigation', { name: 'Dashboard' });

      await nav.getByRole('link', { name: 'API keys', exact: true }).click();
      await page.getByRole('columnheader', { name: 'Created by' }).waitFor();
      await page
        .getByRole('row', { name: /member laptop/ })
        .getByRole('cell', { name: memberEmail, exact: true })
        .waitFor();
      await page
        .getByRole('row', { name: /live key/ })
        .getByRole('cell', { name: '—', exact: true })
        .waitFor();
      await checked(page, 'api-keys-creators');

      await nav.getByRole('link', { name: 'Team', exact: true }).click();
      await page
        .getByRole('row', { name: new RegExp(memberEmail) })
        .getByRole('button', { name: 'Remove' })
        .click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(`Remove ${memberEmail} from the account?`, { exact: false }).waitFor();
      await dialog.getByText('API keys they created: 1', { exact: false }).waitFor();
      await dialog.getByText('Their personal access tokens are revoked: 1.', { exact: false }).waitFor();
      await checked(page, 'team-remove-confirm');
      expect((await as(pat.key).get('/projects')).status).toBe(200);

      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText('The member is removed from the account.', { exact: false }).waitFor();
      await checked(page, 'team-member-removed');
      expect((await as(pat.key).get('/projects')).status).toBe(401);
      expect((await as(readOnly.key).get('/projects')).status).toBe(200);
    } finally {
      await context.close();
    }
  });
});
