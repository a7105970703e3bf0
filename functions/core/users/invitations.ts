import type { RequestOrigin } from '../audit/audit';
import type { KeysCreated } from '../credentials/dashboard-keys';
import { conflict } from '../errors';
import type { Mailer } from '../webhooks/delivery';
import { type CreatedUser, createUser, removeMember, type UserAdminDeps } from './manage-users';
import { linkUrl } from './password-links';

/**
 * Invites a person to the account by e-mail: a new user gets a one-time link (24 h) to choose a
 * password; someone who already has a user is told they were added. The e-mail goes by SES in
 * AWS and to the outbox locally; the link never appears on the page.
 */
export const inviteMember = async (
  input: { accountId: string; email: string; role: string; actorId: string; origin: RequestOrigin; serviceOrigin: string },
  deps: UserAdminDeps & { mailer: Mailer },
): Promise<CreatedUser> => {
  const created = await createUser(
    { email: input.email, accountId: input.accountId, role: input.role, actor: { type: 'user', id: input.actorId }, origin: input.origin },
    deps,
  );
  const signIn = `${input.serviceOrigin}/dashboard/sign-in`;
  await deps.mailer.send({
    to: created.user.email,
    subject: 'You were invited to the Project Automation Service',
    text: created.link
      ? [
          `You were invited to the account ${input.accountId} as ${created.membership.role}.`,
          '',
          'Choose your password here; the link works once, within 24 hours:',
          linkUrl(input.serviceOrigin, created.link.token),
          '',
          `Then sign in at ${signIn}.`,
        ].join('\n')
      : [`You were added to the account ${input.accountId} as ${created.membership.role}.`, '', `Sign in at ${signIn}.`].join('\n'),
  });
  return created;
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
