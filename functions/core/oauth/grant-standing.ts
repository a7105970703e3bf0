import type { Credential, OAuthTokenOrigin } from '../credentials/credential';
import type { Scope } from '../credentials/scopes';
import { scopesRoleAllows } from './consent';
import type { Membership } from '../users/user';
import type { GrantStanding } from './grant';

/**
 * What the credential resolver needs to judge a credential that acts for a person: an OAuth access
 * token (its grant, application and granting person) and a personal access token (its owner).
 */
export interface GrantStandingReader {
  standing(origin: { grantId: string; accountId: string; userId: string; clientId: string }): Promise<GrantStanding>;
  /** The membership of a personal access token's owner, read as `standing` reads the granting person's. */
  membership(origin: { accountId: string; userId: string }): Promise<Membership | undefined>;
  touchLastUsed(grantId: string, at: string, unlessAfter: string): Promise<void>;
}

export const standingOrigin = (credential: Credential, origin: OAuthTokenOrigin) => ({
  grantId: origin.id,
  accountId: credential.account_id,
  userId: origin.user_id,
  clientId: origin.client_id,
});

/** The answer to a revoked credential, and to one that no longer acts for anybody. */
export const revokedMessage = 'The credential has been revoked.';

/**
 * The scopes an OAuth access token still carries, or why it carries none: its grant was revoked or
 * ran out, the application was deleted, or the person who granted it left the account. A person
 * who became a viewer keeps only the `read:` scopes of what they granted.
 */
export const oauthTokenScopes = (
  credential: Credential,
  standing: GrantStanding,
  now: number,
): { scopes: Scope[] } | { refused: string } => {
  const { grant, membership, client } = standing;
  if (!grant || grant.revoked_at !== null) return { refused: revokedMessage };
  if (Date.parse(grant.expires_at) <= now) return { refused: 'The credential has expired.' };
  if (!client) return { refused: 'The application this token was granted to no longer exists.' };
  if (!membership) return { refused: 'The person who granted this token no longer has access to the account.' };
  return { scopes: scopesRoleAllows(membership.role, credential.scopes) };
};

/**
 * The scopes a personal access token with an owner still carries: none once the owner is no longer
 * a member of the account, and then it is refused exactly as a revoked credential is (no hint why);
 * an owner who became a viewer keeps only the `read:` scopes, as with what they granted.
 */
export const personalTokenScopes = (
  credential: Credential,
  membership: Membership | undefined,
): { scopes: Scope[] } | { refused: string } =>
  membership ? { scopes: scopesRoleAllows(membership.role, credential.scopes) } : { refused: revokedMessage };
