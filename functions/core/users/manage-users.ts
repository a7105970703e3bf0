import { type AuditActor, type AuditLog, auditRecordOf, type RequestOrigin } from '../audit/audit';
import { type Clock, isoTime } from '../clock';
import { type AccountRepository, type CredentialRepository, viewOfCredential } from '../credentials/credential';
import { type KeysCreated, keysCreatedByPerson, noKeysCreated } from '../credentials/dashboard-keys';
import { ApiError, notFound, validationError } from '../errors';
import { newId } from '../ids';
import { hashSecretToken, newSecretToken } from '../secret-token';
import type { OAuthGrantStore } from '../oauth/grant';
import { linkLifetimesMs, type OneTimeLink, type OneTimeLinkRepository, passwordFingerprint } from './one-time-links';
import { passwordIssue } from './password-policy';
import { hashPassword } from './passwords';
import {
  isEmail,
  isRole,
  type Membership,
  normalizeEmail,
  type Role,
  type User,
  type UserRepository,
  type UserView,
  viewOfUser,
} from './user';

export interface UserAdminDeps {
  users: UserRepository;
  accounts: AccountRepository;
  links: OneTimeLinkRepository;
  audit: AuditLog;
  clock: Clock;
}

/** A one-time link's secret, for the one answer that shows it. */
export interface IssuedLink {
  token: string;
  purpose: OneTimeLink['purpose'];
  expires_at: string;
}

export interface CreatedUser {
  user: UserView;
  membership: Membership;
  /** False when the e-mail already had a user, who was added to the account. */
  created: boolean;
  /** Present when the new user has no password yet: where they set one. */
  link?: IssuedLink;
}

/** A new one-time link for `user`, not yet stored, with the secret it carries (shown or sent once). */
export const newLink = (
  user: Pick<User, 'id' | 'password_hash'>,
  purpose: OneTimeLink['purpose'],
  now: number,
): { link: OneTimeLink; issued: IssuedLink } => {
  const token = newSecretToken();
  const expiresAt = isoTime(now + linkLifetimesMs[purpose]);
  return {
    link: {
      hash: hashSecretToken(token),
      user_id: user.id,
      purpose,
      created_at: isoTime(now),
      expires_at: expiresAt,
      password_fingerprint: passwordFingerprint(user),
    },
    issued: { token, purpose, expires_at: expiresAt },
  };
};

export const issueLink = async (
  user: Pick<User, 'id' | 'password_hash'>,
  purpose: OneTimeLink['purpose'],
  deps: { links: OneTimeLinkRepository; clock: Clock },
): Promise<IssuedLink> => {
  const { link, issued } = newLink(user, purpose, deps.clock.now());
  await deps.links.create(link);
  return issued;
};

/**
 * `users create`: a new user in an account, or an existing user (same e-mail) added to it. Without a
 * password the new user gets a one-time link (24 h) to set one. Adding a member twice is a conflict.
 */
export const createUser = async (
  input: { email: string; accountId: string; role?: string; password?: string; actor?: AuditActor; origin?: RequestOrigin },
  deps: UserAdminDeps,
): Promise<CreatedUser> => {
  const email = normalizeEmail(input.email);
  if (!isEmail(email)) throw validationError([{ field: 'email', issue: 'must be an e-mail address' }]);
  const role = input.role ?? 'admin';
  if (!isRole(role)) throw validationError([{ field: 'role', issue: 'must be admin or viewer' }]);
  if (!(await deps.accounts.get(input.accountId))) throw notFound('Account');

  const now = deps.clock.now();
  const membership: Membership = { account_id: input.accountId, user_id: '', role: role as Role, created_at: isoTime(now) };
  const audit = (user: User) =>
    deps.audit.record(
      auditRecordOf(
        {
          accountId: input.accountId,
          action: 'user.added',
          actor: input.actor ?? { type: 'cli', id: null },
          targetId: user.id,
          details: { email: user.email, role },
          origin: input.origin,
        },
        newId('auditRecord', now),
        isoTime(now),
      ),
    );

  const existing = await deps.users.findByEmail(email);
  if (existing) {
    const added = { ...membership, user_id: existing.id };
    await deps.users.addMembership(added);
    await audit(existing);
    return { user: viewOfUser(existing), membership: added, created: false };
  }

  if (input.password !== undefined) {
    const issue = await passwordIssue(input.password, email);
    if (issue) throw validationError([issue]);
  }
  const user: User = {
    id: newId('user', now),
    email,
    password_hash: input.password === undefined ? null : await hashPassword(input.password),
    totp_secret: null,
    totp_enabled_at: null,
    recovery_code_hashes: [],
    totp_last_step: null,
    created_at: isoTime(now),
    updated_at: isoTime(now),
    revision: 1,
  };
  const created = { ...membership, user_id: user.id };
  await deps.users.create(user, created);
  await audit(user);
  const link = user.password_hash === null ? await issueLink(user, 'set_password', deps) : undefined;
  return { user: viewOfUser(user), membership: created, created: true, ...(link ? { link } : {}) };
};

export interface MemberView extends UserView {
  role: Role;
  member_since: string;
}

export const listUsers = async (accountId: string, deps: UserAdminDeps): Promise<MemberView[]> => {
  if (!(await deps.accounts.get(accountId))) throw notFound('Account');
  const members = await deps.users.membersOfAccount(accountId);
  const views: MemberView[] = [];
  for (const member of members) {
    const user = await deps.users.get(member.user_id);
    if (user) views.push({ ...viewOfUser(user), role: member.role, member_since: member.created_at });
  }
  return views.sort((a, b) => a.email.localeCompare(b.email));
};

/**
 * Takes a user out of an account. Their sessions no longer act for it, and every OAuth token they
 * granted and every personal access token they made for it is refused from the next request on
 * (the resolver checks the membership). The API keys they made stay the account's and keep
 * working; the audit record names how many of each there were, and so does the answer.
 */
export const removeMember = async (
  input: { accountId: string; userId: string; actor?: AuditActor; origin?: RequestOrigin },
  deps: UserAdminDeps & {
    credentials: Pick<CredentialRepository, 'listByAccount' | 'revoke'>;
    grants: Pick<OAuthGrantStore, 'grantsOfAccount' | 'revokeGrant'>;
  },
): Promise<KeysCreated> => {
  const created = await keysCreatedBy(input.accountId, input.userId, deps);
  if (!(await deps.users.removeMembership(input.userId, input.accountId))) throw notFound('Member');
  const now = deps.clock.now();
  await endWhatActsForThem(input.accountId, input.userId, now, deps);
  await deps.audit.record(
    auditRecordOf(
      {
        accountId: input.accountId,
        action: 'user.removed',
        actor: input.actor ?? { type: 'cli', id: null },
        targetId: input.userId,
        details: { api_keys_created: created.apiKeys, personal_access_tokens_revoked: created.personalAccessTokens },
        origin: input.origin,
      },
      newId('auditRecord', now),
      isoTime(now),
    ),
  );
  return created;
};

/**
 * Someone removed from an account takes along what acted for them there: their personal access
 * tokens are revoked, and so are the applications they authorized (with their remembered consent).
 * Added back later, they start afresh: nothing of before works again. (The API keys they created
 * are the account's and stay.) Each revocation is conditional, so running this twice is harmless.
 */
const endWhatActsForThem = async (
  accountId: string,
  userId: string,
  now: number,
  deps: Pick<UserAdminDeps, 'clock'> & {
    credentials: Pick<CredentialRepository, 'listByAccount' | 'revoke'>;
    grants: Pick<OAuthGrantStore, 'grantsOfAccount' | 'revokeGrant'>;
  },
): Promise<void> => {
  const at = isoTime(now);
  const tokens = (await deps.credentials.listByAccount(accountId)).filter(
    (credential) => credential.type === 'pat' && credential.created_by_user_id === userId && credential.revoked_at === null,
  );
  for (const token of tokens) await deps.credentials.revoke(token.id, at);
  const grants = (await deps.grants.grantsOfAccount(accountId)).filter((grant) => grant.user_id === userId && grant.revoked_at === null);
  for (const grant of grants) {
    await deps.grants.revokeGrant(
      grant.id,
      'member_removed',
      at,
      auditRecordOf(
        {
          accountId,
          action: 'oauth.grant_revoked',
          actor: { type: 'service', id: null },
          targetId: grant.id,
          details: { reason: 'member_removed', client_id: grant.client_id },
        },
        newId('auditRecord', now),
        at,
      ),
    );
  }
};

/** The working keys of the account this person made (before removing them, for the question and the record). */
export const keysCreatedBy = async (
  accountId: string,
  userId: string,
  deps: { credentials: Pick<CredentialRepository, 'listByAccount'>; clock: Clock },
): Promise<KeysCreated> =>
  keysCreatedByPerson((await deps.credentials.listByAccount(accountId)).map(viewOfCredential), deps.clock.now()).get(userId) ?? {
    ...noKeysCreated,
  };

/** The first admin of a fresh installation: the default account's owner, with a link to set a password. */
export const bootstrapAdminUser = async (accountId: string, email: string, deps: UserAdminDeps): Promise<CreatedUser> => {
  const created = await createUser({ email, accountId, role: 'admin', actor: { type: 'service', id: null } }, deps);
  if (!created.link) throw new ApiError('conflict', `The user ${email} exists already and has a password.`);
  return created;
};
