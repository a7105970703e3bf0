import { type AuditLog, auditRecordOf, type RequestOrigin } from '../audit/audit';
import { type Clock, isoTime } from '../clock';
import { validationError } from '../errors';
import { newId } from '../ids';
import { hashSecretToken, isSecretTokenShaped } from '../secret-token';
import type { SessionRepository } from '../sessions/session';
import { endSessionsOfUser } from '../sessions/manage-sessions';
import { type OneTimeLink, type OneTimeLinkRepository, passwordFingerprint, setPasswordPath } from './one-time-links';
import { passwordIssue } from './password-policy';
import { hashPassword } from './passwords';
import type { SignInThrottleStore } from './sign-in-throttle';
import type { User, UserRepository } from './user';

export interface PasswordLinkDeps {
  users: UserRepository;
  links: OneTimeLinkRepository;
  sessions: SessionRepository;
  throttle: SignInThrottleStore;
  audit: AuditLog;
  clock: Clock;
}

/** The address of a one-time link. */
export const linkUrl = (origin: string, token: string): string => `${origin}${setPasswordPath}?token=${encodeURIComponent(token)}`;

/**
 * The link behind a token and its user, while it can still be used: not expired, and sent since the
 * user's password last changed (a reset makes every link sent before it worthless, as a used one).
 */
export const findUsableLink = async (
  token: string | undefined,
  deps: { links: OneTimeLinkRepository; users: Pick<UserRepository, 'get'>; clock: Clock },
): Promise<{ link: OneTimeLink; user: User } | undefined> => {
  if (!token || !isSecretTokenShaped(token)) return undefined;
  const link = await deps.links.find(hashSecretToken(token));
  if (!link || Date.parse(link.expires_at) <= deps.clock.now()) return undefined;
  const user = await deps.users.get(link.user_id);
  if (!user) return undefined;
  if (link.password_fingerprint !== undefined && link.password_fingerprint !== passwordFingerprint(user)) return undefined;
  return { link, user };
};

export class LinkUnusable extends Error {
  constructor() {
    super('This link has expired or was used already. Ask for a new one.');
    this.name = 'LinkUnusable';
  }
}

/**
 * Sets the password through a one-time link: the link is used up in the same write. Every session
 * of the user ends (a reset means the old password may be known to someone else).
 */
export const setPasswordWithLink = async (
  input: { token: string; password: string; origin: RequestOrigin },
  deps: PasswordLinkDeps,
): Promise<{ user: User; link: OneTimeLink }> => {
  const usable = await findUsableLink(input.token, deps);
  if (!usable) throw new LinkUnusable();
  const { link, user } = usable;
  const issue = await passwordIssue(input.password, user.email);
  if (issue) throw validationError([issue]);
  const now = deps.clock.now();
  const updated: User = {
    ...user,
    password_hash: await hashPassword(input.password),
    updated_at: isoTime(now),
    revision: user.revision + 1,
  };
  const outcome = await deps.links.redeem(link.hash, updated, isoTime(now));
  if (outcome !== 'redeemed') throw new LinkUnusable();
  await endSessionsOfUser(user.id, undefined, deps);
  for (const membership of await deps.users.membershipsOfUser(user.id)) {
    await deps.audit.record(
      auditRecordOf(
        {
          accountId: membership.account_id,
          action: 'user.password_changed',
          actor: { type: 'user', id: user.id },
          targetId: user.id,
          details: { through: link.purpose },
          origin: input.origin,
        },
        newId('auditRecord', now),
        isoTime(now),
      ),
    );
  }
  return { user: updated, link };
};
