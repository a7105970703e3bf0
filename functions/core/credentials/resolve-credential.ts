import { type Clock, isoTime } from '../clock';
import { ApiError } from '../errors';
import type { Principal } from '../tenancy';
import type { CredentialLookup } from './credential';
import { type GrantStandingReader, oauthTokenScopes, personalTokenScopes, revokedMessage, standingOrigin } from '../oauth/grant-standing';
import { hashCredentialValue, parseCredentialValue } from './key-format';
import { isReadScope, type Scope } from './scopes';

export interface PresentedCredentials {
  authorization?: string;
  apiKey?: string;
}

/** `last_used_at` is refreshed at most this often, so a request is not also a write. */
export const lastUsedGranularityMs = 60_000;

/**
 * A 401 with its RFC 6750 3 challenge: no error code when no credential was sent, `invalid_request`
 * for an Authorization header of another form, `invalid_token` for a credential that does not work.
 */
const unauthorized = (message: string, error?: 'invalid_request' | 'invalid_token'): ApiError =>
  new ApiError('unauthorized', message, undefined, {
    'WWW-Authenticate': error ? `Bearer realm="api", error="${error}"` : 'Bearer realm="api"',
  });

const bearerToken = (authorization: string): string | undefined => {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  return match?.[1];
};

const presentedValue = ({ authorization, apiKey }: PresentedCredentials): string => {
  const fromAuthorization = authorization === undefined ? undefined : bearerToken(authorization);
  if (authorization !== undefined && fromAuthorization === undefined) {
    throw unauthorized('The Authorization header must be "Bearer <token>".', 'invalid_request');
  }
  const fromApiKey = apiKey?.trim();
  if (fromAuthorization !== undefined && fromApiKey !== undefined && fromAuthorization !== fromApiKey) {
    throw new ApiError('invalid_request', 'Send one credential: Authorization and X-API-Key name different credentials.');
  }
  const value = fromAuthorization ?? fromApiKey;
  if (!value) throw unauthorized('No credential was sent: use "Authorization: Bearer <key>" or "X-API-Key: <key>".');
  return value;
};

/**
 * The one credential resolver: API keys, personal access tokens and OAuth access tokens all
 * resolve here. A malformed value or a wrong checksum is refused before any lookup.
 */
export const resolveCredential = async (
  presented: PresentedCredentials,
  deps: { credentials: CredentialLookup; clock: Clock; oauthGrants?: GrantStandingReader },
): Promise<Principal> => {
  const value = presentedValue(presented);
  const type = parseCredentialValue(value);
  if (!type) throw unauthorized('The credential is malformed.', 'invalid_token');

  const hash = hashCredentialValue(value);
  const credential = await deps.credentials.findByHash(hash);
  const now = deps.clock.now();
  if (!credential || credential.type !== type) throw unauthorized('The credential is not valid.', 'invalid_token');
  if (credential.revoked_at) throw unauthorized(revokedMessage, 'invalid_token');
  if (credential.expires_at && Date.parse(credential.expires_at) <= now) throw unauthorized('The credential has expired.', 'invalid_token');

  let scopes: Scope[] = credential.scopes;
  if (type === 'oauth') {
    // An OAuth token is only as good as its grant, application and granting person, checked each time.
    if (!credential.grant || !deps.oauthGrants) throw unauthorized('The credential is not valid.', 'invalid_token');
    const standing = await deps.oauthGrants.standing(standingOrigin(credential, credential.grant));
    const judged = oauthTokenScopes(credential, standing, now);
    if ('refused' in judged) throw unauthorized(judged.refused, 'invalid_token');
    scopes = judged.scopes;
    const lastUsed = standing.grant?.last_used_at;
    if (!lastUsed || Date.parse(lastUsed) < now - lastUsedGranularityMs) {
      await deps.oauthGrants.touchLastUsed(credential.grant.id, isoTime(now), isoTime(now - lastUsedGranularityMs));
    }
  } else {
    const owner = type === 'pat' ? credential.created_by_user_id : null;
    if (owner) {
      // A personal access token is its owner's: it acts only while they are a member of the account,
      // read each time as an OAuth token's granting person is. One made before owners were recorded
      // has none, and keeps working as before.
      if (!deps.oauthGrants) throw unauthorized(revokedMessage, 'invalid_token');
      const judged = personalTokenScopes(
        credential,
        await deps.oauthGrants.membership({ accountId: credential.account_id, userId: owner }),
      );
      if ('refused' in judged) throw unauthorized(judged.refused, 'invalid_token');
      scopes = judged.scopes;
    }
    if (!credential.last_used_at || Date.parse(credential.last_used_at) < now - lastUsedGranularityMs) {
      await deps.credentials.touchLastUsed(hash, isoTime(now), isoTime(now - lastUsedGranularityMs));
    }
  }

  return {
    accountId: credential.account_id,
    mode: type === 'test' ? 'test' : 'live',
    credentialId: credential.id,
    credentialType: type,
    credentialHint: credential.hint,
    // A read-only key can never write, whatever was stored for it.
    scopes: type === 'ro' ? scopes.filter(isReadScope) : scopes,
  };
};
