import type { RequestOrigin } from '../audit/audit';
import { type Clock, isoTime } from '../clock';
import type { KeysCreated } from '../credentials/dashboard-keys';
import { conflict, notFound, validationError } from '../errors';
import { isId, newId } from '../ids';
import type { Mailer } from '../webhooks/delivery';
import {
  type Invitation,
  invitationAuditRecord,
  invitationLifetimeMs,
  invitationPath,
  type InvitationRepository,
  invitationState,
} from './invitation';
import { type CreatedUser, createUser, removeMember, type UserAdminDeps } from './manage-users';
import { linkUrl } from './password-links';
import { isEmail, isRole, normalizeEmail, type Role, type UserRepository } from './user';

export type InviteDeps = UserAdminDeps & { mailer: Mailer; invitations: InvitationRepository };

/** What an invitation did: a new person became a member (with a link to choose a password), or someone with a user was asked. */
export type Invited = { kind: 'new_user'; created: CreatedUser } | { kind: 'invitation'; invitation: Invitation };

/** How the e-mails and pages name an account: its e-mail and id, as the account chooser does. */
export const accountName = (account: { id: string; email: string } | undefined, accountId: string): string =>
  account ? `${account.email} (${account.id})` : accountId;

/**
 * Invites a person to the account by e-mail. Someone who has a user already (signed up through
 * another account) gets an invitation, valid 7 days, that they accept or decline signed in as
 * themselves: until they accept, they are no member. A new person is created as a member with a
 * one-time link (24 h) to choose a password: nothing works for them until they use it. The e-mail
 * goes by SES in AWS and to the outbox locally; no link ever appears on the page.
 */
export const inviteMember = async (
  input: { accountId: string; email: string; role: string; actorId: string; origin: RequestOrigin; serviceOrigin: string },
  deps: InviteDeps,
): Promise<Invited> => {
  const email = normalizeEmail(input.email);
  if (!isEmail(email)) throw validationError([{ field: 'email', issue: 'must be an e-mail address' }]);
  if (!isRole(input.role)) throw validationError([{ field: 'role', issue: 'must be admin or viewer' }]);
  const [account, existing, inviter] = await Promise.all([
    deps.accounts.get(input.accountId),
    deps.users.findByEmail(email),
    deps.users.get(input.actorId),
  ]);
  if (!account) throw notFound('Account');
  const invitedBy = inviter?.email ?? 'An admin';
  const signIn = `${input.serviceOrigin}/dashboard/sign-in`;

  if (!existing) {
    const created = await createUser(
      { email, accountId: input.accountId, role: input.role, actor: { type: 'user', id: input.actorId }, origin: input.origin },
      deps,
    );
    await deps.mailer.send({
      to: created.user.email,
      subject: 'You were invited to the Project Automation Service',
      text: [
        `${invitedBy} invited you to the account ${accountName(account, input.accountId)} as ${created.membership.role}.`,
        '',
        'Choose your password here; the link works once, within 24 hours:',
        created.link ? linkUrl(input.serviceOrigin, created.link.token) : signIn,
        '',
        `Then sign in at ${signIn}.`,
      ].join('\n'),
    });
    return { kind: 'new_user', created };
  }

  const now = deps.clock.now();
  const invitation: Invitation = {
    id: newId('invitation', now),
    account_id: input.accountId,
    user_id: existing.id,
    email,
    role: input.role as Role,
    invited_by: input.actorId,
    created_at: isoTime(now),
    expires_at: isoTime(now + invitationLifetimeMs),
    status: 'pending',
    answered_at: null,
  };
  const record = invitationAuditRecord(invitation, {
    action: 'user.invited',
    actorId: input.actorId,
    origin: input.origin,
    now,
    details: { expires_at: invitation.expires_at },
  });
  const outcome = await deps.invitations.create(invitation, record, isoTime(now));
  if (outcome === 'member') throw conflict('This user is a member of the account already.');
  if (outcome === 'pending') {
    throw conflict(
      `${email} has an invitation to this account already, waiting for their answer; cancel it under Pending invitations to send a new one.`,
    );
  }
  await deps.mailer.send({
    to: email,
    subject: `Invitation to join ${account.email} on the Project Automation Service`,
    text: [
      `${invitedBy} invited you to join the account ${accountName(account, input.accountId)} as ${invitation.role}.`,
      '',
      `You join it only if you accept. See the invitation, and accept or decline it, signed in as ${email}:`,
      `${input.serviceOrigin}${invitationPath(invitation.id)}`,
      '',
      `It expires on ${invitation.expires_at}. If you do not know this account, decline it or ignore this e-mail.`,
      `No password yet? Ask for one with "Forgot your password?" at ${signIn}.`,
    ].join('\n'),
  });
  return { kind: 'invitation', invitation };
};

/** An invitation as the Team page lists it. */
export interface PendingInvitationView {
  id: string;
  email: string;
  role: Role;
  invited_by_email: string | null;
  created_at: string;
  expires_at: string;
  expired: boolean;
}

/** The account's invitations waiting for an answer (expired ones too, until cancelled or replaced), oldest first. */
export const pendingInvitationsOfAccount = async (
  accountId: string,
  deps: { invitations: InvitationRepository; users: Pick<UserRepository, 'get'>; clock: Clock },
): Promise<PendingInvitationView[]> => {
  const now = deps.clock.now();
  const pending = (await deps.invitations.ofAccount(accountId)).filter((invitation) => invitation.status === 'pending');
  const inviters = new Map<string, string | null>();
  for (const id of new Set(pending.map((invitation) => invitation.invited_by))) inviters.set(id, (await deps.users.get(id))?.email ?? null);
  return pending.map((invitation) => ({
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    invited_by_email: inviters.get(invitation.invited_by) ?? null,
    created_at: invitation.created_at,
    expires_at: invitation.expires_at,
    expired: invitationState(invitation, now) === 'expired',
  }));
};

/** The account's invitation `id`; not found for another account's. */
export const invitationOfAccount = async (
  accountId: string,
  id: string,
  deps: { invitations: InvitationRepository },
): Promise<Invitation | undefined> => {
  const invitation = isId('invitation', id) ? await deps.invitations.get(id) : undefined;
  return invitation?.account_id === accountId ? invitation : undefined;
};

const alreadyClosed = (invitation: Invitation): string => `This invitation was ${invitation.status} already; nothing was changed.`;

/** An admin withdraws an invitation: its link stops working at once. Expired ones can be cancelled too. */
export const cancelInvitation = async (
  input: { accountId: string; invitationId: string; actorId: string; origin: RequestOrigin },
  deps: { invitations: InvitationRepository; clock: Clock },
): Promise<Invitation> => {
  const invitation = await invitationOfAccount(input.accountId, input.invitationId, deps);
  if (!invitation) throw notFound('Invitation');
  if (invitation.status !== 'pending') throw conflict(alreadyClosed(invitation));
  const now = deps.clock.now();
  const record = invitationAuditRecord(invitation, {
    action: 'user.invitation_cancelled',
    actorId: input.actorId,
    origin: input.origin,
    now,
  });
  if (!(await deps.invitations.close(invitation, 'cancelled', isoTime(now), record))) {
    const current = await invitationOfAccount(input.accountId, input.invitationId, deps);
    throw current ? conflict(alreadyClosed(current)) : notFound('Invitation');
  }
  return { ...invitation, status: 'cancelled', answered_at: isoTime(now) };
};

/** Removes a member; nobody removes themselves here (that would lock the last admin out by a click). */
export const removeTeamMember = async (
  input: { accountId: string; userId: string; actorId: string; origin: RequestOrigin },
  deps: Parameters<typeof removeMember>[1],
): Promise<KeysCreated> => {
  if (input.userId === input.actorId) throw conflict('You cannot remove yourself; ask another admin of the account.');
  return removeMember(
    { accountId: input.accountId, userId: input.userId, actor: { type: 'user', id: input.actorId }, origin: input.origin },
    deps,
  );
};
