import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectAccessible as checked, launchChromium, signInThroughPage } from './support/browser';
import { csrfTokenIn, newPerson, origin, waitForMail, webClient } from './support/web-client';

/** The path of the invitation link in an e-mail (its origin is the runtime's). */
const invitationLinkIn = (text: string): string => {
  const path = /\/dashboard\/invitations\/inv_[0-9A-Z]{26}/.exec(text)?.[0];
  if (!path) throw new Error(`no invitation link in the e-mail:\n${text}`);
  return path;
};

/**
 * An admin invites someone who already has a user (through another account): nothing changes for
 * them until they accept, signed in as themselves, in Debian's Chromium against the local runtime;
 * then the account is in their account chooser. Someone else signed in cannot accept it. Each page
 * is checked by axe-core.
 */
describe('inviting someone who has a user already, in a real browser', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const signedIn = async (person: { email: string; password: string }): Promise<Page> => {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    await signInThroughPage(page, origin(), person);
    return page;
  };

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
  });

  it('they join only by accepting it, once; another person signed in is told it is not theirs and changes nothing', async () => {
    const admin = await newPerson({ role: 'admin' });
    const invitee = await newPerson({ role: 'admin' });
    const stranger = await newPerson({ role: 'admin' });
    const accountLabel = `${admin.account.email} (${admin.account.id})`;

    const adminPage = await signedIn(admin);
    await adminPage.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Team', exact: true }).click();
    const inviteForm = adminPage.getByRole('form', { name: 'Invite someone' });
    await inviteForm.getByLabel('Email').fill(invitee.email.toUpperCase());
    await inviteForm.getByLabel('Role').selectOption('viewer');
    await inviteForm.getByRole('button', { name: 'Invite' }).click();
    await adminPage.getByText('They already have a user, so they join the account only when they accept it').waitFor();
    await adminPage
      .getByRole('row', { name: new RegExp(invitee.email) })
      .getByRole('button', { name: 'Cancel invitation' })
      .waitFor();
    await checked(adminPage, 'team-pending-invitation');
    // Not a member: the members' table does not name them.
    await expect(adminPage.getByRole('table', { name: 'Members of the account' }).textContent()).resolves.not.toContain(invitee.email);

    const [mail] = await waitForMail(invitee.email);
    expect(mail!.text).toContain(`${admin.email} invited you to join the account ${accountLabel} as viewer.`);
    const link = `${origin()}${invitationLinkIn(mail!.text)}`;

    // Someone else, signed in, opens the link: not theirs, and nothing of it is shown.
    const strangerPage = await signedIn(stranger);
    await strangerPage.goto(link);
    await strangerPage.getByRole('heading', { name: 'This invitation is for someone else', level: 1 }).waitFor();
    await expect(strangerPage.locator('main').textContent()).resolves.not.toContain(admin.account.id);
    await expect(strangerPage.getByRole('button', { name: 'Accept' }).count()).resolves.toBe(0);
    await checked(strangerPage, 'invitation-someone-else');
    // Nor can they send the Accept form themselves (their own session's token): 403, no membership.
    const strangerClient = webClient();
    await strangerClient.signIn(stranger.email, stranger.password);
    const token = csrfTokenIn((await strangerClient.get('/dashboard/accounts')).text);
    const refused = await strangerClient.post(`${invitationLinkIn(mail!.text)}/accept`, { csrf_token: token });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Nothing was changed.');
    expect(await stranger.deps.users.getMembership(stranger.user.id, admin.account.id)).toBeUndefined();

    // The invitee: not a member before accepting; the chooser and the link both offer the invitation.
    expect(await invitee.deps.users.getMembership(invitee.user.id, admin.account.id)).toBeUndefined();
    const inviteePage = await signedIn(invitee);
    await inviteePage.goto(`${origin()}/dashboard/accounts`);
    await inviteePage.getByRole('heading', { name: 'Invitations', level: 2 }).waitFor();
    await expect(inviteePage.getByRole('button', { name: accountLabel }).count()).resolves.toBe(0);
    await checked(inviteePage, 'accounts-with-invitation');
    await inviteePage.goto(link);
    await inviteePage.getByRole('heading', { name: 'Invitation to join an account', level: 1 }).waitFor();
    await checked(inviteePage, 'invitation');
    // Long e-mails and ids wrap on a phone (320 px: WCAG 1.4.10's reflow width) rather than push the page sideways.
    await inviteePage.setViewportSize({ width: 320, height: 800 });
    await adminPage.setViewportSize({ width: 320, height: 800 });
    for (const [page, path] of [
      [inviteePage, '/dashboard/accounts'],
      [inviteePage, invitationLinkIn(mail!.text)],
      [adminPage, '/dashboard/team'],
    ] as const) {
      await page.goto(`${origin()}${path}`);
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect([path, sideways]).toEqual([path, 0]);
    }
    await adminPage.setViewportSize({ width: 1280, height: 800 });
    await inviteePage.getByRole('button', { name: 'Accept' }).click();

    // Post/Redirect/Get: the chooser says so, and the account is in it.
    await inviteePage.getByText(`You joined the account ${accountLabel} as viewer.`).waitFor();
    expect(new URL(inviteePage.url()).pathname).toBe('/dashboard/accounts');
    await checked(inviteePage, 'invitation-accepted');
    await inviteePage.getByRole('button', { name: accountLabel }).click();
    await inviteePage.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await expect(inviteePage.locator('.account-bar').textContent()).resolves.toContain(admin.account.id);
    await expect(inviteePage.locator('.account-bar').textContent()).resolves.toContain(`${invitee.email} (viewer)`);

    // The link again: accepted already, nothing written twice.
    const again = await inviteePage.goto(link);
    expect(again?.status()).toBe(409);
    await inviteePage.getByRole('heading', { name: 'You accepted this invitation already', level: 1 }).waitFor();
    await checked(inviteePage, 'invitation-accepted-already');

    // The admin's Team page: a member now, no longer pending.
    await adminPage.reload();
    await adminPage.getByRole('table', { name: 'Members of the account' }).getByText(invitee.email).waitFor();
    await expect(adminPage.getByRole('heading', { name: 'Pending invitations' }).count()).resolves.toBe(0);
  }, 90_000);
});
