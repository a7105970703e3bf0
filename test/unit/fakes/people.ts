import type { AuditLog, AuditRecord } from '../../../functions/core/audit/audit';
import type { AccountRepository } from '../../../functions/core/credentials/credential';
import { conflict } from '../../../functions/core/errors';
import type { OAuthClient, OAuthClientRepository } from '../../../functions/core/oauth/client';
import type { AuthorizationCode, Consent, Grant, OAuthGrantStore, RefreshToken } from '../../../functions/core/oauth/grant';
import type { AttentionCounts, Session, SessionRepository, SignedInReads } from '../../../functions/core/sessions/session';
import type { Tenant } from '../../../functions/core/tenancy';
import type { Invitation, InvitationRepository } from '../../../functions/core/users/invitation';
import type { OneTimeLink, OneTimeLinkRepository } from '../../../functions/core/users/one-time-links';
import type { PasswordResetRequest, PasswordResetRequestStore } from '../../../functions/core/users/password-reset-requests';
import type { SignInThrottleStore, ThrottleCounter } from '../../../functions/core/users/sign-in-throttle';
import type { Membership, User, UserRepository } from '../../../functions/core/users/user';
import type { Mailer } from '../../../functions/core/webhooks/delivery';
import { inMemoryAccountRepository } from './account-repository';
import { controlledClock } from './clock';
import { inMemoryCredentialRepository } from './credential-repository';

const copy = <T>(value: T): T => structuredClone(value);

/** Users, e-mails and memberships in memory, with the table's conditions (unique e-mail, revisions). */
export const inMemoryUserRepository = (): UserRepository & { all(): User[] } => {
  const users = new Map<string, User>();
  const memberships = new Map<string, Membership>();
  const key = (userId: string, accountId: string) => `${userId}/${accountId}`;
  return {
    async create(user, membership) {
      if ([...users.values()].some((u) => u.email === user.email)) throw conflict(`A user with the e-mail ${user.email} exists already.`);
      users.set(user.id, copy(user));
      if (membership) memberships.set(key(membership.user_id, membership.account_id), copy(membership));
    },
    async get(id) {
      const user = users.get(id);
      return user && copy(user);
    },
    async findByEmail(email) {
      const user = [...users.values()].find((u) => u.email === email);
      return user && copy(user);
    },
    async update(user) {
      const stored = users.get(user.id);
      if (!stored || stored.revision !== user.revision - 1) return false;
      users.set(user.id, copy(user));
      return true;
    },
    async addMembership(membership) {
      if (!users.has(membership.user_id)) throw new Error('no such user');
      const k = key(membership.user_id, membership.account_id);
      if (memberships.has(k)) throw conflict('This user is a member of the account already.');
      memberships.set(k, copy(membership));
    },
    async getMembership(userId, accountId) {
      const found = memberships.get(key(userId, accountId));
      return found && copy(found);
    },
    async membershipsOfUser(userId) {
      return [...memberships.values()].filter((m) => m.user_id === userId).map(copy);
    },
    async membersOfAccount(accountId) {
      return [...memberships.values()].filter((m) => m.account_id === accountId).map(copy);
    },
    async removeMembership(userId, accountId) {
      return memberships.delete(key(userId, accountId));
    },
    all: () => [...users.values()].map(copy),
  };
};

export const inMemorySessionRepository = (): SessionRepository & { all(): Session[] } => {
  const sessions = new Map<string, Session>();
  return {
    async create(session) {
      sessions.set(session.hash, copy(session));
    },
    async findByHash(hash) {
      const found = sessions.get(hash);
      return found && copy(found);
    },
    async update(hash, changes) {
      const found = sessions.get(hash);
      if (!found) return false;
      sessions.set(hash, { ...found, ...changes });
      return true;
    },
    async delete(hash) {
      sessions.delete(hash);
    },
    async ofUser(userId) {
      return [...sessions.values()].filter((s) => s.user_id === userId).map(copy);
    },
    all: () => [...sessions.values()].map(copy),
  };
};

export const inMemoryLinkRepository = (users: UserRepository): OneTimeLinkRepository & { links: Map<string, OneTimeLink> } => {
  const links = new Map<string, OneTimeLink>();
  return {
    links,
    async create(link) {
      links.set(link.hash, copy(link));
    },
    async find(hash) {
      const found = links.get(hash);
      return found && copy(found);
    },
    async redeem(hash, user, now) {
      const link = links.get(hash);
      if (!link || link.user_id !== user.id || link.expires_at <= now) return 'used';
      // Both or neither, as the table's transaction.
      if (!(await users.update(user))) return 'changed';
      links.delete(hash);
      return 'redeemed';
    },
  };
};

/**
 * Invitations in memory, one per person and account, with the table's conditions: each write
 * checks and changes in the same turn, the membership and the audit record with it.
 */
export const inMemoryInvitationRepository = (
  users: UserRepository,
  audit: AuditLog,
): InvitationRepository & { stored: Map<string, Invitation> } => {
  const stored = new Map<string, Invitation>();
  const key = (userId: string, accountId: string) => `${userId}/${accountId}`;
  const byCreation = (a: Invitation, b: Invitation) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const pending = (invitation: Invitation, now: string, unexpired: boolean) => {
    const current = stored.get(key(invitation.user_id, invitation.account_id));
    return current?.id === invitation.id && current.status === 'pending' && (!unexpired || current.expires_at > now) ? current : undefined;
  };
  return {
    stored,
    async create(invitation, record, now) {
      if (await users.getMembership(invitation.user_id, invitation.account_id)) return 'member';
      const current = stored.get(key(invitation.user_id, invitation.account_id));
      if (current && current.status === 'pending' && current.expires_at > now) return 'pending';
      stored.set(key(invitation.user_id, invitation.account_id), copy(invitation));
      await audit.record(record);
      return 'created';
    },
    async get(id) {
      const found = [...stored.values()].find((invitation) => invitation.id === id);
      return found && copy(found);
    },
    async ofAccount(accountId) {
      return [...stored.values()]
        .filter((i) => i.account_id === accountId)
        .sort(byCreation)
        .map(copy);
    },
    async ofUser(userId) {
      return [...stored.values()]
        .filter((i) => i.user_id === userId)
        .sort(byCreation)
        .map(copy);
    },
    async accept(invitation, membership, now, record) {
      const member = await users.getMembership(membership.user_id, membership.account_id);
      // Checked again after the read and changed in the same turn, as the table's transaction does.
      const current = pending(invitation, now, true);
      if (!current) return 'closed';
      if (member) return 'member';
      Object.assign(current, { status: 'accepted', answered_at: now });
      await users.addMembership(membership);
      await audit.record(record);
      return 'accepted';
    },
    async close(invitation, status, now, record) {
      const current = pending(invitation, now, status === 'declined');
      if (!current) return false;
      Object.assign(current, { status, answered_at: now });
      await audit.record(record);
      return true;
    },
  };
};

/**
 * Requests in a map, with the table's conditions; `inserted` is what the table's stream would hand
 * over (each request recorded, once, in order), for a test to deliver, and deliver again.
 */
export const inMemoryResetRequestStore = (
  links: Map<string, OneTimeLink>,
): PasswordResetRequestStore & { inserted: PasswordResetRequest[]; stored: Map<string, PasswordResetRequest & { link_hash?: string }> } => {
  const stored = new Map<string, PasswordResetRequest & { link_hash?: string }>();
  const inserted: PasswordResetRequest[] = [];
  return {
    stored,
    inserted,
    async record(request) {
      await Promise.resolve();
      if (stored.has(request.id)) throw new Error(`the request ${request.id} exists already (a condition failure in the table)`);
      stored.set(request.id, copy(request));
      inserted.push(copy(request));
    },
    async claim(requestId, link) {
      await Promise.resolve();
      // Both or neither, as the table's transaction.
      const request = stored.get(requestId);
      if (!request || request.link_hash !== undefined) return 'handled';
      if (links.has(link.hash)) throw new Error('the link exists already (a condition failure in the table)');
      request.link_hash = link.hash;
      links.set(link.hash, copy(link));
      return 'claimed';
    },
    async release(requestId, linkHash) {
      await Promise.resolve();
      const request = stored.get(requestId);
      if (request?.link_hash !== linkHash) throw new Error('the request is not claimed with this link (a condition failure in the table)');
      links.delete(linkHash);
      delete request.link_hash;
    },
    async discard(requestId) {
      await Promise.resolve();
      stored.delete(requestId);
    },
  };
};

/**
 * Counters in a map. Each call awaits before it reads or writes, as a table would, so attempts at
 * once interleave here as they do against DynamoDB; `writeCounters` checks every revision and
 * writes in the same turn, as the table's conditional writes do.
 */
export const inMemoryThrottleStore = (): SignInThrottleStore & { counters: Map<string, ThrottleCounter> } => {
  const counters = new Map<string, ThrottleCounter>();
  return {
    counters,
    async read(keys) {
      await Promise.resolve();
      const found = new Map<string, ThrottleCounter>();
      for (const key of keys) {
        const counter = counters.get(key);
        if (counter) found.set(key, { ...counter });
      }
      return found;
    },
    async writeCounters(writes) {
      await Promise.resolve();
      if (writes.some(({ key, expected }) => counters.get(key)?.revision !== expected)) return false;
      for (const { key, next } of writes) {
        if (next) counters.set(key, { ...next });
        else counters.delete(key);
      }
      return true;
    },
    async clear(key) {
      await Promise.resolve();
      counters.delete(key);
    },
  };
};

export const inMemoryAuditLog = (): AuditLog & { records: AuditRecord[] } => {
  const records: AuditRecord[] = [];
  return {
    records,
    async record(record) {
      records.push(copy(record));
    },
    async list(accountId, limit) {
      return records
        .filter((r) => r.account_id === accountId)
        .reverse()
        .slice(0, limit)
        .map(copy);
    },
  };
};

export const recordingMailer = (): Mailer & { sent: { to: string; subject: string; text: string }[] } => {
  const sent: { to: string; subject: string; text: string }[] = [];
  return {
    sent,
    async send(message) {
      sent.push({ ...message });
    },
  };
};

export const inMemoryClientRepository = (): OAuthClientRepository => {
  const clients = new Map<string, OAuthClient>();
  return {
    async create(client) {
      if (clients.has(client.id)) throw new Error(`the client ${client.id} exists already (a condition failure in the table)`);
      clients.set(client.id, copy(client));
    },
    async get(id) {
      const found = clients.get(id);
      return found && copy(found);
    },
    async ofAccount(accountId) {
      return [...clients.values()].filter((c) => c.account_id === accountId).map(copy);
    },
    async update(accountId, id, changes) {
      const found = clients.get(id);
      if (found?.account_id !== accountId) return undefined;
      const updated = { ...found, name: changes.name, redirect_uris: [...changes.redirect_uris], updated_at: changes.updated_at };
      clients.set(id, updated);
      return copy(updated);
    },
    async replaceSecret(id, fromHash, secret) {
      const found = clients.get(id);
      if (!found) return 'not_found';
      if (found.secret_hash !== fromHash) return 'changed';
      clients.set(id, {
        ...found,
        secret_hash: secret.hash,
        secret_hint: secret.hint,
        secret_created_at: secret.created_at,
        updated_at: secret.created_at,
      });
      return 'replaced';
    },
    async delete(accountId, id) {
      if (clients.get(id)?.account_id !== accountId) return false;
      return clients.delete(id);
    },
  };
};

/**
 * Grants, codes, refresh tokens and access tokens in memory, with the table's transactions: a code
 * or refresh token is used up together with the new tokens, or nothing happens.
 */
export const inMemoryGrantStore = (
  credentials: ReturnType<typeof inMemoryCredentialRepository>,
  users: UserRepository,
  clients: OAuthClientRepository,
  audit: ReturnType<typeof inMemoryAuditLog>,
): OAuthGrantStore & { grants: Map<string, Grant>; codes: Map<string, AuthorizationCode>; refreshTokens: Map<string, RefreshToken> } => {
  const grants = new Map<string, Grant>();
  const codes = new Map<string, AuthorizationCode>();
  const refreshTokens = new Map<string, RefreshToken>();
  const consents = new Map<string, Consent>();
  const consentKey = (accountId: string, userId: string, clientId: string) => `${accountId}/${userId}/${clientId}`;
  const live = (grantId: string, now: string) => {
    const grant = grants.get(grantId);
    return grant !== undefined && grant.revoked_at === null && grant.expires_at > now;
  };
  const issue = async (
    used: { used_at: string | null } | undefined,
    grantId: string,
    tokens: Parameters<OAuthGrantStore['exchangeCode']>[1],
    now: string,
  ) => {
    if (!used || used.used_at !== null) return 'used' as const;
    if (!live(grantId, now)) return 'grant_revoked' as const;
    used.used_at = now;
    await credentials.create(copy(tokens.access));
    refreshTokens.set(tokens.refresh.hash, copy(tokens.refresh));
    return 'issued' as const;
  };
  return {
    grants,
    codes,
    refreshTokens,
    async createGrant(grant, code, consent, record) {
      grants.set(grant.id, copy(grant));
      codes.set(code.hash, copy(code));
      consents.set(consentKey(consent.account_id, consent.user_id, consent.client_id), copy(consent));
      await audit.record(record);
    },
    async getGrant(id) {
      const found = grants.get(id);
      return found && copy(found);
    },
    async findCode(hash) {
      const found = codes.get(hash);
      return found && copy(found);
    },
    async findRefreshToken(hash) {
      const found = refreshTokens.get(hash);
      return found && copy(found);
    },
    async getConsent(accountId, userId, clientId) {
      const found = consents.get(consentKey(accountId, userId, clientId));
      return found && copy(found);
    },
    exchangeCode: (codeHash, tokens, now) => issue(codes.get(codeHash), tokens.access.grant!.id, tokens, now),
    async spendCode(codeHash, now) {
      const code = codes.get(codeHash);
      if (code && code.used_at === null) code.used_at = now;
    },
    rotateRefreshToken: (hash, tokens, now) => issue(refreshTokens.get(hash), tokens.refresh.grant_id, tokens, now),
    async revokeGrant(grantId, reason, at, record) {
      const grant = grants.get(grantId);
      if (!grant || grant.revoked_at !== null) return false;
      grant.revoked_at = at;
      grant.revoked_reason = reason;
      consents.delete(consentKey(grant.account_id, grant.user_id, grant.client_id));
      await audit.record(record);
      return true;
    },
    async revokeAccessToken(hash, at, record) {
      const stored = credentials.stored().find((c) => c.hash === hash);
      if (!stored || stored.revoked_at) return;
      await credentials.revoke(stored.id, at);
      await audit.record(record);
    },
    async standing({ grantId, accountId, userId, clientId }) {
      return {
        grant: grants.get(grantId) && copy(grants.get(grantId)!),
        membership: await users.getMembership(userId, accountId),
        client: await clients.get(clientId),
      };
    },
    async membership({ accountId, userId }) {
      return users.getMembership(userId, accountId);
    },
    async touchLastUsed(grantId, at, unlessAfter) {
      const grant = grants.get(grantId);
      if (grant && (grant.last_used_at === null || grant.last_used_at < unlessAfter)) grant.last_used_at = at;
    },
    async grantsOfAccount(accountId) {
      return [...grants.values()].filter((g) => g.account_id === accountId).map(copy);
    },
  };
};

/** Everything people, sessions and the authorization server use, in memory, on one controlled clock. */
/**
 * The page's first read from the repositories (the table reads the same items in one batch, held
 * to it by test/contract/signed-in-reads.test.ts); `failedWebhooks` counts a tenant's failed
 * webhooks and `attentionCounts` Home's counts (none unless given).
 */
export const inMemorySignedInReads = (
  sessions: SessionRepository,
  users: UserRepository,
  accounts: AccountRepository,
  failedWebhooks: (tenant: Tenant) => Promise<number> = async () => 0,
  attentionCounts: (tenant: Tenant) => Promise<AttentionCounts> = async () => ({
    runningWorkflows: 0,
    openCriticalFindings: 0,
    deploymentsInProgress: 0,
  }),
): SignedInReads => ({
  async read({ hash, userId, accountId, mode, attention }) {
    const [session, user, membership, account] = await Promise.all([
      sessions.findByHash(hash),
      users.get(userId),
      accountId ? users.getMembership(userId, accountId) : undefined,
      accountId ? accounts.get(accountId) : undefined,
    ]);
    return {
      ...(session ? { session } : {}),
      ...(user ? { user } : {}),
      ...(membership ? { membership } : {}),
      ...(account ? { account } : {}),
      failedWebhooks: accountId ? await failedWebhooks({ accountId, mode }) : 0,
      ...(accountId && attention ? { attention: await attentionCounts({ accountId, mode }) } : {}),
    };
  },
});

export const inMemoryPeople = () => {
  const clock = controlledClock();
  const accounts = inMemoryAccountRepository();
  const credentials = inMemoryCredentialRepository();
  const users = inMemoryUserRepository();
  const sessions = inMemorySessionRepository();
  const links = inMemoryLinkRepository(users);
  const resetRequests = inMemoryResetRequestStore(links.links);
  const throttle = inMemoryThrottleStore();
  const audit = inMemoryAuditLog();
  const clients = inMemoryClientRepository();
  const grants = inMemoryGrantStore(credentials, users, clients, audit);
  const invitations = inMemoryInvitationRepository(users, audit);
  const mailer = recordingMailer();
  const signedInReads = inMemorySignedInReads(sessions, users, accounts);
  return {
    clock,
    accounts,
    credentials,
    users,
    sessions,
    signedInReads,
    links,
    resetRequests,
    throttle,
    audit,
    clients,
    grants,
    invitations,
    mailer,
  };
};
