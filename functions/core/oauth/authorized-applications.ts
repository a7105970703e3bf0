import { type AuditLog, auditRecordOf, type RequestOrigin } from '../audit/audit';
import { type Clock, isoTime } from '../clock';
import { ApiError, notFound } from '../errors';
import { isId, newId } from '../ids';
import type { Role, UserRepository } from '../users/user';
import type { OAuthClientRepository } from './client';
import type { Grant, OAuthGrantStore } from './grant';

export interface AuthorizedApplicationDeps {
  grants: OAuthGrantStore;
  clients: OAuthClientRepository;
  users: Pick<UserRepository, 'membersOfAccount'>;
  audit: AuditLog;
  clock: Clock;
}

/**
 * An application as one person of the account authorized it, as its people see it: what it may
 * do and its last use. Authorizing it again (another sign-in through the application) makes a
 * grant more; they are one row here, and revoked together, as GitHub's authorized apps are.
 */
export interface AuthorizedApplication {
  /** The newest of its grants: what the revoke form names. */
  grant_id: string;
  /** How many live grants (authorizations) it holds. */
  grants: number;
  client_id: string;
  /** The application's name. */
  application: string;
  user_id: string;
  scopes: Grant['scopes'];
  created_at: string;
  last_used_at: string | null;
  expires_at: string;
}

const isLive = (grant: Grant, now: number): boolean => grant.revoked_at === null && Date.parse(grant.expires_at) > now;

/**
 * Every application this account authorized whose tokens still work, most recently used first: not
 * revoked or expired, its application not deleted, given by someone who is still a member (the
 * tokens of a deleted application or of a removed member are refused, so there is nothing to revoke).
 */
export const listAuthorizedApplications = async (accountId: string, deps: AuthorizedApplicationDeps): Promise<AuthorizedApplication[]> => {
  const now = deps.clock.now();
  const members = new Set((await deps.users.membersOfAccount(accountId)).map((m) => m.user_id));
  const live = (await deps.grants.grantsOfAccount(accountId)).filter((g) => isLive(g, now) && members.has(g.user_id));
  const names = new Map<string, string>();
  for (const clientId of new Set(live.map((g) => g.client_id))) {
    const client = await deps.clients.get(clientId);
    if (client) names.set(clientId, client.name);
  }
  const byApplication = new Map<string, AuthorizedApplication>();
  for (const g of [...live].sort((a, b) => a.created_at.localeCompare(b.created_at))) {
    const application = names.get(g.client_id);
    if (application === undefined) continue;
    const key = `${g.client_id}|${g.user_id}`;
    const seen = byApplication.get(key);
    byApplication.set(
      key,
      seen
        ? {
            ...seen,
            grant_id: g.id,
            grants: seen.grants + 1,
            scopes: [...new Set([...seen.scopes, ...g.scopes])],
            last_used_at: laterOf(seen.last_used_at, g.last_used_at),
            expires_at: laterOf(seen.expires_at, g.expires_at) as string,
          }
        : {
            grant_id: g.id,
            grants: 1,
            client_id: g.client_id,
            application,
            user_id: g.user_id,
            scopes: g.scopes,
            created_at: g.created_at,
            last_used_at: g.last_used_at,
            expires_at: g.expires_at,
          },
    );
  }
  return [...byApplication.values()].sort((a, b) => (b.last_used_at ?? b.created_at).localeCompare(a.last_used_at ?? a.created_at));
};

const laterOf = (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : a > b ? a : b);

/**
 * Revokes an application as the person who gave `grantId` authorized it: that grant and every other
 * live one of the same application and person, so that every access and refresh token they issued
 * is refused from the next request on. An admin may revoke any of the account's; a viewer only
 * the ones they gave.
 */
export const revokeAuthorizedApplication = async (
  actor: { accountId: string; userId: string; role: Role; origin?: RequestOrigin },
  grantId: string,
  deps: AuthorizedApplicationDeps,
): Promise<void> => {
  const grant = isId('oauthGrant', grantId) ? await deps.grants.getGrant(grantId) : undefined;
  if (!grant || grant.account_id !== actor.accountId) throw notFound('Authorized application');
  if (actor.role !== 'admin' && grant.user_id !== actor.userId) {
    throw new ApiError('insufficient_scope', 'A viewer can revoke only the authorizations they gave; ask an admin.', {
      required_role: 'admin',
    });
  }
  const now = deps.clock.now();
  const together = (await deps.grants.grantsOfAccount(actor.accountId)).filter(
    (g) => g.id !== grant.id && g.client_id === grant.client_id && g.user_id === grant.user_id && isLive(g, now),
  );
  for (const each of [grant, ...together]) {
    await deps.grants.revokeGrant(
      each.id,
      'revoked_by_user',
      isoTime(now),
      auditRecordOf(
        {
          accountId: actor.accountId,
          action: 'oauth.grant_revoked',
          actor: { type: 'user', id: actor.userId },
          targetId: each.id,
          details: { client_id: each.client_id, reason: 'revoked_by_user' },
          origin: actor.origin,
        },
        newId('auditRecord', deps.clock.now()),
        isoTime(now),
      ),
    );
  }
};
