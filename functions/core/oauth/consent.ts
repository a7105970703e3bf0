import { auditRecordOf, type RequestOrigin } from '../audit/audit';
import { type Clock, isoTime } from '../clock';
import { isReadScope, type Scope } from '../credentials/scopes';
import { newId } from '../ids';
import { hashSecretToken, newSecretToken } from '../secret-token';
import type { Role } from '../users/user';
import type { AuthorizationRequest } from './authorization-request';
import { authorizationResponseUrl } from './authorization-request';
import type { AuthorizationCode, Consent, Grant, OAuthGrantStore } from './grant';
import { authorizationCodeLifetimeSeconds, grantLifetimeSeconds } from './oauth-formats';

/** What a role may let an application do: a viewer only reads. */
export const scopesRoleAllows = (role: Role, scopes: readonly Scope[]): Scope[] =>
  role === 'admin' ? [...scopes] : scopes.filter(isReadScope);

/** The requested scopes split into those this person can grant and those they cannot (RFC 6749 3.3). */
export const grantableScopes = (role: Role, requested: readonly Scope[]): { granted: Scope[]; withheld: Scope[] } => {
  const granted = scopesRoleAllows(role, requested);
  return { granted, withheld: requested.filter((s) => !granted.includes(s)) };
};

/** Scopes this person already granted this application for this account need not be asked again (as GitHub does). */
export const consentCovers = (consent: Consent | undefined, scopes: readonly Scope[]): boolean =>
  consent !== undefined && scopes.every((s) => consent.scopes.includes(s));

export interface ConsentDeps {
  grants: OAuthGrantStore;
  clock: Clock;
}

/**
 * "Allow": a new grant with the grantable scopes and its authorization code, remembered consent and
 * an audit record, stored together. Answers where to send the browser: the client's redirect URI
 * with `code` and `state`, or `error=access_denied` when nothing can be granted.
 */
export const approveAuthorization = async (
  input: { request: AuthorizationRequest; accountId: string; userId: string; role: Role; issuer: string; origin: RequestOrigin },
  deps: ConsentDeps,
): Promise<string> => {
  const { request } = input;
  const { granted } = grantableScopes(input.role, request.scopes);
  if (granted.length === 0) {
    return authorizationResponseUrl(
      request.redirectUri,
      { error: 'access_denied', error_description: 'Your role cannot grant any of the requested scopes', state: request.state },
      input.issuer,
    );
  }
  const now = deps.clock.now();
  const at = isoTime(now);
  const grant: Grant = {
    id: newId('oauthGrant', now),
    account_id: input.accountId,
    client_id: request.client.id,
    user_id: input.userId,
    scopes: granted,
    created_at: at,
    expires_at: isoTime(now + grantLifetimeSeconds * 1000),
    revoked_at: null,
    revoked_reason: null,
    last_used_at: null,
  };
  const code = newSecretToken();
  const stored: AuthorizationCode = {
    hash: hashSecretToken(code),
    grant_id: grant.id,
    client_id: request.client.id,
    account_id: input.accountId,
    user_id: input.userId,
    redirect_uri: request.redirectUri,
    redirect_uri_included: request.redirectUriIncluded,
    scopes: granted,
    code_challenge: request.codeChallenge,
    code_challenge_method: request.codeChallengeMethod,
    created_at: at,
    expires_at: isoTime(now + authorizationCodeLifetimeSeconds * 1000),
    used_at: null,
  };
  const previous = await deps.grants.getConsent(input.accountId, input.userId, request.client.id);
  const consent: Consent = {
    account_id: input.accountId,
    user_id: input.userId,
    client_id: request.client.id,
    scopes: [...new Set([...(previous?.scopes ?? []), ...granted])],
    updated_at: at,
  };
  const audit = auditRecordOf(
    {
      accountId: input.accountId,
      action: 'oauth.grant_created',
      actor: { type: 'user', id: input.userId },
      targetId: grant.id,
      details: { client_id: request.client.id, application: request.client.name, scopes: granted },
      origin: input.origin,
    },
    newId('auditRecord', now),
    at,
  );
  await deps.grants.createGrant(grant, stored, consent, audit);
  return authorizationResponseUrl(request.redirectUri, { code, state: request.state }, input.issuer);
};

/** "Deny": the client learns `access_denied`, nothing else. */
export const denyAuthorization = (request: AuthorizationRequest, issuer: string): string =>
  authorizationResponseUrl(
    request.redirectUri,
    { error: 'access_denied', error_description: 'The user denied the request', state: request.state },
    issuer,
  );
