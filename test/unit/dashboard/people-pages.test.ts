import { createAccount } from '../../../functions/core/credentials/manage-credentials';
import { newId } from '../../../functions/core/ids';
import { listAuthorizedApplications, revokeAuthorizedApplication } from '../../../functions/core/oauth/authorized-applications';
import { deleteClient, registerClient } from '../../../functions/core/oauth/manage-clients';
import { inviteMember, removeTeamMember } from '../../../functions/core/users/invitations';
import { createUser } from '../../../functions/core/users/manage-users';
import { inMemoryPeople } from '../fakes/people';

const origin = { ip: '127.0.0.1', userAgent: 'test' };

const setUp = async () => {
  const deps = inMemoryPeople();
  const account = await createAccount({ email: 'owner@example.com' }, deps);
  const admin = await createUser(
    { email: 'admin@example.com', accountId: account.id, role: 'admin', password: 'a long pass phrase 1' },
    deps,
  );
  const viewer = await createUser(
    { email: 'viewer@example.com', accountId: account.id, role: 'viewer', password: 'a long pass phrase 2' },
    deps,
  );
  return { deps, account, admin: admin.user, viewer: viewer.user };
};

/** A live grant of `accountId` to a fresh application, given by `userId`. */
const grantOf = async (deps: ReturnType<typeof inMemoryPeople>, accountId: string, userId: string, name = 'Chat bot') => {
  const client = await registerClient({ accountId, name, redirectUris: ['https://app.example.com/cb'] }, deps);
  const now = deps.clock.now();
  const grant = {
    id: newId('oauthGrant', now),
    account_id: accountId,
    client_id: client.id,
    user_id: userId,
    scopes: ['read:projects' as const],
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + 365 * 86_400_000).toISOString(),
    revoked_at: null,
    revoked_reason: null,
    last_used_at: null,
  };
  deps.grants.grants.set(grant.id, grant);
  return { grant, client };
};

describe('authorized applications', () => {
  it('lists the live grants of the account with the application’s name; a revoke ends the grant and is audited', async () => {
    const { deps, account, admin, viewer } = await setUp();
    const { grant } = await grantOf(deps, account.id, viewer.id);
    expect(await listAuthorizedApplications(account.id, deps)).toEqual([
      expect.objectContaining({ grant_id: grant.id, application: 'Chat bot', user_id: viewer.id, scopes: ['read:projects'] }),
    ]);
    await revokeAuthorizedApplication({ accountId: account.id, userId: admin.id, role: 'admin', origin }, grant.id, deps);
    expect(deps.grants.grants.get(grant.id)?.revoked_reason).toBe('revoked_by_user');
    expect(await listAuthorizedApplications(account.id, deps)).toEqual([]);
    expect(deps.audit.records.at(-1)).toMatchObject({
      action: 'oauth.grant_revoked',
      actor: { type: 'user', id: admin.id },
      target_id: grant.id,
    });
  });

  it('one application authorized twice by one person is one row, revoked together; another person’s stays', async () => {
    const { deps, account, admin, viewer } = await setUp();
    const first = await grantOf(deps, account.id, viewer.id);
    deps.clock.advance(60_000);
    const again = {
      ...first.grant,
      id: newId('oauthGrant', deps.clock.now()),
      created_at: new Date(deps.clock.now()).toISOString(),
      scopes: ['read:workflows' as const],
    };
    deps.grants.grants.set(again.id, again);
    const byAdmin = { ...first.grant, id: newId('oauthGrant', deps.clock.now() + 1), user_id: admin.id };
    deps.grants.grants.set(byAdmin.id, byAdmin);
    const listed = await listAuthorizedApplications(account.id, deps);
    expect(listed.filter((a) => a.user_id === viewer.id)).toEqual([
      expect.objectContaining({
        grant_id: again.id,
        grants: 2,
        scopes: ['read:projects', 'read:workflows'],
        created_at: first.grant.created_at,
      }),
    ]);
    await revokeAuthorizedApplication({ accountId: account.id, userId: viewer.id, role: 'viewer' }, again.id, deps);
    expect(deps.grants.grants.get(first.grant.id)?.revoked_reason).toBe('revoked_by_user');
    expect(deps.grants.grants.get(again.id)?.revoked_reason).toBe('revoked_by_user');
    expect(deps.grants.grants.get(byAdmin.id)?.revoked_at).toBeNull();
    expect((await listAuthorizedApplications(account.id, deps)).map((a) => a.user_id)).toEqual([admin.id]);
  });

  it('a viewer revokes only what they granted; nobody revokes another account’s grant', async () => {
    const { deps, account, admin, viewer } = await setUp();
    const byAdmin = await grantOf(deps, account.id, admin.id);
    await expect(
      revokeAuthorizedApplication({ accountId: account.id, userId: viewer.id, role: 'viewer' }, byAdmin.grant.id, deps),
    ).rejects.toMatchObject({ code: 'insufficient_scope' });
    const byViewer = await grantOf(deps, account.id, viewer.id, 'Other');
    await revokeAuthorizedApplication({ accountId: account.id, userId: viewer.id, role: 'viewer' }, byViewer.grant.id, deps);
    const other = await createAccount({ email: 'other@example.com' }, deps);
    await expect(
      revokeAuthorizedApplication({ accountId: other.id, userId: admin.id, role: 'admin' }, byAdmin.grant.id, deps),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(deps.grants.grants.get(byAdmin.grant.id)?.revoked_at).toBeNull();
  });

  it('lists only grants whose tokens still work: not those of a deleted application, nor of someone no longer a member', async () => {
    const { deps, account, admin, viewer } = await setUp();
    const kept = await grantOf(deps, account.id, admin.id, 'Kept');
    const ofDeletedApp = await grantOf(deps, account.id, admin.id, 'Deleted later');
    const ofRemovedMember = await grantOf(deps, account.id, viewer.id, 'Granted by a leaver');
    expect((await listAuthorizedApplications(account.id, deps)).map((a) => a.grant_id).sort()).toEqual(
      [kept.grant.id, ofDeletedApp.grant.id, ofRemovedMember.grant.id].sort(),
    );

    await deleteClient({ accountId: account.id, clientId: ofDeletedApp.client.id }, deps);
    await removeTeamMember({ accountId: account.id, userId: viewer.id, actorId: admin.id, origin }, deps);
    expect(await listAuthorizedApplications(account.id, deps)).toEqual([
      expect.objectContaining({ grant_id: kept.grant.id, application: 'Kept' }),
    ]);
  });
});

describe('team invitations', () => {
  it('a new person gets an e-mail with a one-time link to set a password; the link is nowhere else', async () => {
    const { deps, account, admin } = await setUp();
    const invited = await inviteMember(
      {
        accountId: account.id,
        email: 'New@Example.com',
        role: 'viewer',
        actorId: admin.id,
        origin,
        serviceOrigin: 'http://localhost:3000',
      },
      deps,
    );
    if (invited.kind !== 'new_user') throw new Error('a new person is created as a member');
    expect(invited.created.membership.role).toBe('viewer');
    expect(deps.mailer.sent).toHaveLength(1);
    expect(deps.mailer.sent[0]).toMatchObject({ to: 'new@example.com' });
    expect(deps.mailer.sent[0]!.text).toContain(
      `http://localhost:3000/dashboard/set-password?token=${encodeURIComponent(invited.created.link!.token)}`,
    );
    expect(deps.audit.records.at(-1)).toMatchObject({ action: 'user.added', actor: { type: 'user', id: admin.id } });
  });

  it('someone with a user already is invited, not added; a member cannot be invited; nobody removes themselves', async () => {
    const { deps, account, admin, viewer } = await setUp();
    const other = await createAccount({ email: 'other@example.com' }, deps);
    const known = await createUser(
      { email: 'known@example.com', accountId: other.id, role: 'admin', password: 'another long phrase' },
      deps,
    );
    const input = {
      accountId: account.id,
      email: 'known@example.com',
      role: 'admin',
      actorId: admin.id,
      origin,
      serviceOrigin: 'http://x',
    };
    const invited = await inviteMember(input, deps);
    expect(invited.kind).toBe('invitation');
    expect(await deps.users.getMembership(known.user.id, account.id)).toBeUndefined();
    expect(deps.mailer.sent.at(-1)!.text).toContain('You join it only if you accept.');
    await expect(inviteMember({ ...input, email: viewer.email }, deps)).rejects.toMatchObject({ code: 'conflict' });
    await expect(removeTeamMember({ accountId: account.id, userId: admin.id, actorId: admin.id, origin }, deps)).rejects.toMatchObject({
      code: 'conflict',
    });
    await removeTeamMember({ accountId: account.id, userId: viewer.id, actorId: admin.id, origin }, deps);
    expect(await deps.users.getMembership(viewer.id, account.id)).toBeUndefined();
  });
});
