import { csrfTokenIn, formFieldsIn, newPerson, outboxOf, waitForMail, webClient } from './support/web-client';

/** The path of the invitation link in an e-mail (its origin is the runtime's). */
const invitationLinkIn = (text: string): string => {
  const path = /\/dashboard\/invitations\/inv_[0-9A-Z]{26}/.exec(text)?.[0];
  if (!path) throw new Error(`no invitation link in the e-mail:\n${text}`);
  return path;
};

/**
 * Invitations of people who have a user already, through the local runtime as a browser sends its
 * forms: decline, cancel, CSRF, Post/Redirect/Get, an invitation twice, who may do what.
 */
describe('invitations on the dashboard', () => {
  const signedIn = async (person: { email: string; password: string }) => {
    const client = webClient();
    expect((await client.signIn(person.email, person.password)).status).toBe(303);
    return client;
  };

  /** An admin with a signed-in client, and someone with a user of their own account, invited by the admin. */
  const invited = async (role: 'admin' | 'viewer' = 'viewer') => {
    const admin = await newPerson({ role: 'admin' });
    const invitee = await newPerson({ role: 'admin' });
    const adminClient = await signedIn(admin);
    const sent = await adminClient.submit('/dashboard/team', '/dashboard/team', { email: invitee.email, role });
    expect([sent.status, sent.location]).toEqual([303, '/dashboard/team?done=invitation_sent']);
    const [mail] = await waitForMail(invitee.email);
    return { admin, invitee, adminClient, link: invitationLinkIn(mail!.text) };
  };

  it('an invitation is sent once: a reload of the answer sends nothing more, and inviting again while it waits is refused', async () => {
    const { invitee, adminClient } = await invited();
    const team = await adminClient.get('/dashboard/team?done=invitation_sent');
    expect(team.text).toContain('Pending invitations');
    expect(team.text).toContain(invitee.email);
    const again = await adminClient.submit('/dashboard/team', '/dashboard/team', { email: invitee.email, role: 'admin' });
    expect(again.status).toBe(409);
    expect(again.text).toContain('has an invitation to this account already');
    expect(await outboxOf(invitee.email)).toHaveLength(1);
  });

  it('signed out, the link leads through sign-in back to the invitation', async () => {
    const { invitee, link } = await invited();
    const client = webClient();
    const away = await client.get(link);
    expect([away.status, away.location]).toEqual([302, `/dashboard/sign-in?return_to=${encodeURIComponent(link)}`]);
    const signIn = await client.signIn(invitee.email, invitee.password, link);
    expect([signIn.status, signIn.location]).toEqual([303, link]);
    const page = await client.get(link);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Invitation to join an account');
  });

  it('declined: the chooser says so, it is gone from the Team page, and it cannot be accepted afterwards', async () => {
    const { admin, invitee, adminClient, link } = await invited();
    const client = await signedIn(invitee);
    const page = await client.get(link);
    const declined = await client.post(`${link}/decline`, formFieldsIn(page.text, `${link}/decline`));
    expect([declined.status, declined.location]).toEqual([303, '/dashboard/accounts?done=declined']);
    expect((await client.get(declined.location!)).text).toContain('You declined the invitation');
    const accept = await client.post(`${link}/accept`, formFieldsIn(page.text, `${link}/accept`));
    expect(accept.status).toBe(409);
    expect(accept.text).toContain('You declined this invitation');
    expect(accept.text).toContain('Nothing was changed.');
    expect(await invitee.deps.users.getMembership(invitee.user.id, admin.account.id)).toBeUndefined();
    expect((await adminClient.get('/dashboard/team')).text).not.toContain(invitee.email);
    const audit = await admin.deps.audit.list(admin.account.id, 10);
    expect(audit.map((r) => r.action)).toEqual(expect.arrayContaining(['user.invited', 'user.invitation_declined']));
  });

  it('cancelled by an admin (confirmed first): its link says so, accepting it adds nothing, a second cancel is refused', async () => {
    const { admin, invitee, adminClient, link } = await invited();
    const id = link.split('/').pop()!;
    const cancel = `/dashboard/team/invitations/${id}/cancel`;

    const team = (await adminClient.get('/dashboard/team')).text;
    const asked = await adminClient.post(cancel, formFieldsIn(team, cancel));
    expect(asked.status).toBe(200);
    expect(asked.text).toContain(`Cancel the invitation of ${invitee.email}?`);
    const cancelled = await adminClient.post(cancel, formFieldsIn(asked.text, cancel));
    expect([cancelled.status, cancelled.location]).toEqual([303, '/dashboard/team?done=invitation_cancelled']);
    expect((await adminClient.get(cancelled.location!)).text).not.toContain(invitee.email);

    const client = await signedIn(invitee);
    const page = await client.get(link);
    expect(page.status).toBe(410);
    expect(page.text).toContain('This invitation was cancelled');
    const accept = await client.post(`${link}/accept`, { csrf_token: csrfTokenIn((await client.get('/dashboard/accounts')).text) });
    expect(accept.status).toBe(410);
    expect(await invitee.deps.users.getMembership(invitee.user.id, admin.account.id)).toBeUndefined();
    expect((await adminClient.post(cancel, formFieldsIn(asked.text, cancel))).status).toBe(409);
  });

  it('a viewer of the account sees the invitation but cannot cancel it (403), and nothing changes', async () => {
    const { admin, invitee, link } = await invited();
    const viewer = await newPerson({ role: 'viewer' });
    await admin.deps.users.addMembership({
      account_id: admin.account.id,
      user_id: viewer.user.id,
      role: 'viewer',
      created_at: new Date().toISOString(),
    });
    const client = await signedIn(viewer);
    // Two accounts now: the viewer picks the admin's.
    const chooser = await client.get('/dashboard/accounts');
    expect((await client.post('/dashboard/accounts', { csrf_token: csrfTokenIn(chooser.text), account_id: admin.account.id })).status).toBe(
      303,
    );
    const team = await client.get('/dashboard/team');
    expect(team.text).toContain(invitee.email);
    expect(team.text).not.toContain('Cancel invitation');
    const id = link.split('/').pop()!;
    const refused = await client.post(`/dashboard/team/invitations/${id}/cancel`, { csrf_token: csrfTokenIn(team.text), confirmed: 'yes' });
    expect(refused.status).toBe(403);
    const invitation = await admin.deps.invitations.get(id);
    expect(invitation?.status).toBe('pending');
  });

  it('an Accept without the CSRF token, or sent from another site, is refused (403) and adds nothing', async () => {
    const { admin, invitee, link } = await invited();
    const client = await signedIn(invitee);
    const fields = formFieldsIn((await client.get(link)).text, `${link}/accept`);
    expect((await client.post(`${link}/accept`, {})).status).toBe(403);
    expect((await client.post(`${link}/accept`, fields, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect(await invitee.deps.users.getMembership(invitee.user.id, admin.account.id)).toBeUndefined();
    // The same form as it was shown: accepted, once.
    const accepted = await client.post(`${link}/accept`, fields);
    expect([accepted.status, accepted.location]).toEqual([303, `/dashboard/accounts?joined=${admin.account.id}`]);
    expect((await client.post(`${link}/accept`, fields)).status).toBe(409);
    expect(await invitee.deps.users.getMembership(invitee.user.id, admin.account.id)).toMatchObject({ role: 'viewer' });
    const added = (await admin.deps.audit.list(admin.account.id, 10)).filter(
      (r) => r.action === 'user.added' && r.target_id === invitee.user.id,
    );
    expect(added).toHaveLength(1);
  });
});
