import { createAccount } from '../../../functions/core/credentials/manage-credentials';
import { acceptInvitation, declineInvitation, openInvitation, openInvitationsOf } from '../../../functions/core/users/answer-invitation';
import { invitationLifetimeMs } from '../../../functions/core/users/invitation';
import { cancelInvitation, inviteMember, pendingInvitationsOfAccount } from '../../../functions/core/users/invitations';
import { createUser } from '../../../functions/core/users/manage-users';
import { inMemoryPeople } from '../fakes/people';

const origin = { ip: '127.0.0.1', userAgent: 'test' };

/** An account with an admin, and a person who has a user through another account. */
const setUp = async () => {
  const deps = inMemoryPeople();
  const account = await createAccount({ email: 'acme-security@example.com' }, deps);
  const admin = (await createUser({ email: 'admin@example.com', accountId: account.id, role: 'admin' }, deps)).user;
  const theirs = await createAccount({ email: 'their-own@example.com' }, deps);
  const invitee = (await createUser({ email: 'invitee@example.com', accountId: theirs.id, role: 'admin' }, deps)).user;
  const stranger = (await createUser({ email: 'stranger@example.com', accountId: theirs.id, role: 'viewer' }, deps)).user;
  const invite = async (role = 'viewer') => {
    const invited = await inviteMember(
      { accountId: account.id, email: invitee.email, role, actorId: admin.id, origin, serviceOrigin: 'http://127.0.0.1:3460' },
      deps,
    );
    if (invited.kind !== 'invitation') throw new Error('someone with a user gets an invitation');
    return invited.invitation;
  };
  return { deps, account, admin, invitee, stranger, invite };
};

describe('inviting someone who has a user already', () => {
  it('makes no member: it stores a pending invitation (7 days) and e-mails its link, audited as user.invited', async () => {
    const { deps, account, admin, invitee, invite } = await setUp();
    const invitation = await invite('admin');
    expect(invitation).toMatchObject({
      account_id: account.id,
      user_id: invitee.id,
      role: 'admin',
      invited_by: admin.id,
      status: 'pending',
    });
    expect(Date.parse(invitation.expires_at) - Date.parse(invitation.created_at)).toBe(invitationLifetimeMs);
    expect(await deps.users.getMembership(invitee.id, account.id)).toBeUndefined();
    const mail = deps.mailer.sent.at(-1)!;
    expect(mail.to).toBe(invitee.email);
    expect(mail.text).toContain(`http://127.0.0.1:3460/dashboard/invitations/${invitation.id}`);
    expect(mail.text).toContain('admin@example.com invited you to join the account acme-security@example.com');
    expect(deps.audit.records.at(-1)).toMatchObject({
      account_id: account.id,
      action: 'user.invited',
      actor: { type: 'user', id: admin.id },
      target_id: invitee.id,
      details: { role: 'admin', invitation_id: invitation.id },
    });
    expect(await pendingInvitationsOfAccount(account.id, deps)).toEqual([
      expect.objectContaining({ id: invitation.id, email: invitee.email, invited_by_email: 'admin@example.com', expired: false }),
    ]);
    expect((await openInvitationsOf(invitee.id, deps)).map((d) => d.invitation.id)).toEqual([invitation.id]);
  });

  it('a second invitation while one waits is a conflict and sends nothing; after a decline a new one may be sent', async () => {
    const { deps, invitee, invite } = await setUp();
    const first = await invite();
    const sent = deps.mailer.sent.length;
    await expect(invite()).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('has an invitation') });
    expect(deps.mailer.sent).toHaveLength(sent);
    await declineInvitation({ id: first.id, userId: invitee.id, origin }, deps);
    const second = await invite();
    expect(second.id).not.toBe(first.id);
  });
});

describe('answering an invitation', () => {
  it('accept adds the membership with the role, once: a second accept says it was accepted and writes nothing', async () => {
    const { deps, account, invitee, invite } = await setUp();
    const invitation = await invite('admin');
    const accepted = await acceptInvitation({ id: invitation.id, userId: invitee.id, origin }, deps);
    expect(accepted.membership).toMatchObject({ account_id: account.id, user_id: invitee.id, role: 'admin' });
    expect(await deps.users.getMembership(invitee.id, account.id)).toMatchObject({ role: 'admin' });
    expect(deps.audit.records.at(-1)).toMatchObject({
      action: 'user.added',
      actor: { type: 'user', id: invitee.id },
      details: { invitation_id: invitation.id, role: 'admin' },
    });
    const records = deps.audit.records.length;
    await expect(acceptInvitation({ id: invitation.id, userId: invitee.id, origin }, deps)).rejects.toMatchObject({ reason: 'accepted' });
    expect(deps.audit.records).toHaveLength(records);
    expect(await pendingInvitationsOfAccount(account.id, deps)).toEqual([]);
    expect(await openInvitationsOf(invitee.id, deps)).toEqual([]);
  });

  it('two accepts at once add one membership; the other is told it was accepted', async () => {
    const { deps, account, invitee, invite } = await setUp();
    const invitation = await invite();
    const results = await Promise.allSettled([
      acceptInvitation({ id: invitation.id, userId: invitee.id, origin }, deps),
      acceptInvitation({ id: invitation.id, userId: invitee.id, origin }, deps),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { reason: 'accepted' } });
    expect(
      deps.audit.records.filter((r) => r.action === 'user.added' && r.account_id === account.id && r.target_id === invitee.id),
    ).toHaveLength(1);
  });

  it('only the invited user can see or answer it: anyone else learns nothing of it and changes nothing', async () => {
    const { deps, account, stranger, invitee, invite } = await setUp();
    const invitation = await invite();
    await expect(openInvitation(invitation.id, stranger.id, deps)).rejects.toMatchObject({ reason: 'someone_else', invitation: undefined });
    await expect(acceptInvitation({ id: invitation.id, userId: stranger.id, origin }, deps)).rejects.toMatchObject({
      reason: 'someone_else',
      code: 'insufficient_scope',
    });
    await expect(declineInvitation({ id: invitation.id, userId: stranger.id, origin }, deps)).rejects.toMatchObject({
      reason: 'someone_else',
    });
    expect(await deps.users.getMembership(stranger.id, account.id)).toBeUndefined();
    expect((await openInvitation(invitation.id, invitee.id, deps)).invitation.status).toBe('pending');
    await expect(openInvitation('inv_01ARZ3NDEKTSV4RRFFQ69G5FAV', invitee.id, deps)).rejects.toMatchObject({ reason: 'not_found' });
    await expect(openInvitation('../../etc', invitee.id, deps)).rejects.toMatchObject({ reason: 'not_found' });
  });

  it('an expired invitation cannot be accepted or declined; the admin still sees it, marked expired, and may invite again', async () => {
    const { deps, account, invitee, invite } = await setUp();
    const invitation = await invite();
    deps.clock.advance(invitationLifetimeMs);
    await expect(acceptInvitation({ id: invitation.id, userId: invitee.id, origin }, deps)).rejects.toMatchObject({ reason: 'expired' });
    await expect(declineInvitation({ id: invitation.id, userId: invitee.id, origin }, deps)).rejects.toMatchObject({ reason: 'expired' });
    expect(await deps.users.getMembership(invitee.id, account.id)).toBeUndefined();
    expect(await openInvitationsOf(invitee.id, deps)).toEqual([]);
    expect(await pendingInvitationsOfAccount(account.id, deps)).toEqual([expect.objectContaining({ id: invitation.id, expired: true })]);
    expect((await invite()).id).not.toBe(invitation.id);
  });

  it('an invitation that expires between the page and the write is refused as expired', async () => {
    const { deps, account, invitee, invite } = await setUp();
    const invitation = await invite();
    // The repository sees the later instant, as a slow request would reach the table after the expiry.
    const accept = deps.invitations.accept.bind(deps.invitations);
    deps.invitations.accept = (i, membership, _now, record) => accept(i, membership, invitation.expires_at, record);
    await expect(acceptInvitation({ id: invitation.id, userId: invitee.id, origin }, deps)).rejects.toMatchObject({ reason: 'expired' });
    expect(await deps.users.getMembership(invitee.id, account.id)).toBeUndefined();
  });

  it('a cancelled invitation cannot be accepted; cancel is audited, and a second cancel is a conflict', async () => {
    const { deps, account, admin, invitee, invite } = await setUp();
    const invitation = await invite();
    await cancelInvitation({ accountId: account.id, invitationId: invitation.id, actorId: admin.id, origin }, deps);
    expect(deps.audit.records.at(-1)).toMatchObject({
      action: 'user.invitation_cancelled',
      actor: { type: 'user', id: admin.id },
      details: { invitation_id: invitation.id },
    });
    await expect(acceptInvitation({ id: invitation.id, userId: invitee.id, origin }, deps)).rejects.toMatchObject({ reason: 'cancelled' });
    expect(await deps.users.getMembership(invitee.id, account.id)).toBeUndefined();
    await expect(
      cancelInvitation({ accountId: account.id, invitationId: invitation.id, actorId: admin.id, origin }, deps),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect(await pendingInvitationsOfAccount(account.id, deps)).toEqual([]);
  });

  it('an admin of another account cannot cancel it (not found), and an accepted one cannot be cancelled', async () => {
    const { deps, account, admin, invitee, invite } = await setUp();
    const invitation = await invite();
    const elsewhere = await createAccount({ email: 'elsewhere@example.com' }, deps);
    await expect(
      cancelInvitation({ accountId: elsewhere.id, invitationId: invitation.id, actorId: admin.id, origin }, deps),
    ).rejects.toMatchObject({ code: 'not_found' });
    await acceptInvitation({ id: invitation.id, userId: invitee.id, origin }, deps);
    await expect(
      cancelInvitation({ accountId: account.id, invitationId: invitation.id, actorId: admin.id, origin }, deps),
    ).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('accepted') });
    expect(await deps.users.getMembership(invitee.id, account.id)).toBeDefined();
  });

  it('a declined invitation cannot be accepted afterwards; the decline is audited and adds nothing', async () => {
    const { deps, account, invitee, invite } = await setUp();
    const invitation = await invite();
    await declineInvitation({ id: invitation.id, userId: invitee.id, origin }, deps);
    expect(deps.audit.records.at(-1)).toMatchObject({
      account_id: account.id,
      action: 'user.invitation_declined',
      actor: { type: 'user', id: invitee.id },
    });
    await expect(acceptInvitation({ id: invitation.id, userId: invitee.id, origin }, deps)).rejects.toMatchObject({ reason: 'declined' });
    await expect(declineInvitation({ id: invitation.id, userId: invitee.id, origin }, deps)).rejects.toMatchObject({ reason: 'declined' });
    expect(await deps.users.getMembership(invitee.id, account.id)).toBeUndefined();
  });

  it('someone who became a member meanwhile (the CLI) is told so, and nothing is written', async () => {
    const { deps, account, invitee, invite } = await setUp();
    const invitation = await invite('admin');
    await deps.users.addMembership({ account_id: account.id, user_id: invitee.id, role: 'viewer', created_at: new Date().toISOString() });
    await expect(acceptInvitation({ id: invitation.id, userId: invitee.id, origin }, deps)).rejects.toMatchObject({ reason: 'member' });
    expect(await deps.users.getMembership(invitee.id, account.id)).toMatchObject({ role: 'viewer' });
    expect((await deps.invitations.get(invitation.id))?.status).toBe('pending');
  });
});
