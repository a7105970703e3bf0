import type { Credential, OAuthTokenOrigin } from '../credentials/credential';
import type { Scope } from '../credentials/scopes';
import { scopesRoleAllows } from './consent';
import type { GrantStanding } from './grant';

/** What the credential resolver needs to judge an OAuth access token. */
export interface GrantStandingReader {
  standing(origin: { grantId: string; accountId: string; userId: string; clientId: string }): Promise<GrantStanding>;
  touchLastUsed(grantId: string, at: string, unlessAfter: string): Promise<void>;
}

export const standingOrigin = (credential: Credential, origin: OAuthTokenOrigin) => ({
  grantId: origin.id,
  accountId: credential.account_id,
  userId: origin.user_id,
  clientId: origin.client_id,
});

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
  if (!grant || grant.revoked_at !== null) return { refused: 'The credential has been revoked.' };
  if (Date.parse(grant.expires_at) <= now) return { refused: 'The credential has expired.' };
  if (!client) return { refused: 'The application this token was granted to no longer exists.' };
  if (!membership) return { refused: 'The person who granted this token no longer has access to the account.' };
  return { scopes: scopesRoleAllows(membership.role, credential.scopes) };
};
