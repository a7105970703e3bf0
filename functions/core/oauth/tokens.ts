import { timingSafeEqual } from 'node:crypto';
import { auditRecordOf } from '../audit/audit';
import { type Clock, isoTime } from '../clock';
import type { Credential } from '../credentials/credential';
import { generateCredentialValue, hashCredentialValue, parseCredentialValue, redactCredentialValue } from '../credentials/key-format';
import type { Scope } from '../credentials/scopes';
import { scopesRoleAllows } from './consent';
import { newId } from '../ids';
import { hashSecretToken, isSecretTokenShaped } from '../secret-token';
import type { OAuthClient, OAuthClientRepository } from './client';
import type { AuthorizationCode, Grant, GrantRevocationReason, IssuedTokens, OAuthGrantStore, RefreshToken } from './grant';
import { accessTokenLifetimeSeconds, generateOAuthValue, isOAuthValue, refreshTokenIdleSeconds } from './oauth-formats';

export interface TokenDeps {
  clients: OAuthClientRepository;
  grants: OAuthGrantStore;
  clock: Clock;
}

/** The grant cannot give tokens (RFC 6749 `invalid_grant`); the message is for the client's developers. */
export class GrantRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GrantRefused';
  }
}

const sameHash = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The client, when it authenticates as its type requires: a confidential client with its current
 * secret, a public client with no secret at all.
 */
export const authenticateClient = async (
  clientId: string,
  secret: string | undefined,
  deps: TokenDeps,
): Promise<OAuthClient | undefined> => {
  if (!isOAuthValue('clientId', clientId)) return undefined;
  const client = await deps.clients.get(clientId);
  if (!client) return undefined;
  if (client.type === 'public') return secret === undefined || secret === '' ? client : undefined;
  if (!secret || !client.secret_hash || !isOAuthValue('clientSecret', secret)) return undefined;
  return sameHash(hashCredentialValue(secret), client.secret_hash) ? client : undefined;
};

const revokeFor = async (grantId: string, reason: GrantRevocationReason, actorClientId: string, deps: TokenDeps): Promise<void> => {
  const grant = await deps.grants.getGrant(grantId);
  if (!grant) return;
  const now = deps.clock.now();
  await deps.grants.revokeGrant(
    grant.id,
    reason,
    isoTime(now),
    auditRecordOf(
      {
        accountId: grant.account_id,
        action: 'oauth.grant_revoked',
        actor: reason === 'revoked_by_client' ? { type: 'application', id: actorClientId } : { type: 'service', id: null },
        targetId: grant.id,
        details: { reason, client_id: grant.client_id },
      },
      newId('auditRecord', now),
      isoTime(now),
    ),
  );
};

const isLive = (grant: Grant | undefined, now: number): grant is Grant =>
  grant !== undefined && grant.revoked_at === null && Date.parse(grant.expires_at) > now;

/**
 * The scopes a new access token of the grant may carry: those its granting person may still grant
 * (a person who became a viewer: the `read:` ones). None once they left the account, or when none
 * of the asked scopes is left: the grant gives nothing (`invalid_grant`), as the API would refuse
 * every token it gave.
 */
const scopesStillGrantable = async (grant: Grant, asked: readonly Scope[], deps: TokenDeps): Promise<Scope[]> => {
  const membership = await deps.grants.membership({ accountId: grant.account_id, userId: grant.user_id });
  if (!membership) throw new GrantRefused('the person who granted it no longer has access to the account');
  const scopes = scopesRoleAllows(membership.role, asked);
  if (scopes.length === 0) throw new GrantRefused('the person who granted it may no longer grant any of its scopes');
  return scopes;
};

/**
 * The stored code behind a presented one. A code used before is an attack or a broken client:
 * everything it issued is revoked (RFC 6749 4.1.2) and nothing is answered.
 */
export const findCodeForExchange = async (code: string, deps: TokenDeps): Promise<AuthorizationCode | undefined> => {
  if (!isSecretTokenShaped(code)) return undefined;
  const stored = await deps.grants.findCode(hashSecretToken(code));
  if (!stored) return undefined;
  if (stored.used_at !== null) {
    await revokeFor(stored.grant_id, 'authorization_code_reused', stored.client_id, deps);
    return undefined;
  }
  return stored;
};

/** The secret values of a new pair of tokens (the OAuth library asks for them one by one). */
export interface TokenValues {
  access: string;
  refresh: string;
}

export const newAccessTokenValue = (): string => generateCredentialValue('oauth');
export const newRefreshTokenValue = (): string => generateOAuthValue('refreshToken');

/** The records of a new access token and refresh token of a grant. */
const mintTokens = (grant: Grant, client: OAuthClient, accessScopes: Scope[], values: TokenValues, now: number) => {
  const accessValue = values.access;
  const refreshValue = values.refresh;
  if (parseCredentialValue(accessValue) !== 'oauth' || !isOAuthValue('refreshToken', refreshValue))
    throw new Error('token values of the wrong form');
  const grantEnd = Date.parse(grant.expires_at);
  const access: Credential = {
    id: newId('credential', now),
    account_id: grant.account_id,
    type: 'oauth',
    name: client.name,
    scopes: accessScopes,
    hash: hashCredentialValue(accessValue),
    hint: redactCredentialValue(accessValue),
    created_at: isoTime(now),
    expires_at: isoTime(Math.min(now + accessTokenLifetimeSeconds * 1000, grantEnd)),
    revoked_at: null,
    last_used_at: null,
    // Not a person's key: the grant names the person, and its standing decides.
    created_by_user_id: null,
    grant: { id: grant.id, client_id: grant.client_id, user_id: grant.user_id },
  };
  const refresh: RefreshToken = {
    hash: hashCredentialValue(refreshValue),
    grant_id: grant.id,
    client_id: grant.client_id,
    account_id: grant.account_id,
    user_id: grant.user_id,
    scopes: grant.scopes,
    created_at: isoTime(now),
    expires_at: isoTime(Math.min(now + refreshTokenIdleSeconds * 1000, grantEnd)),
    used_at: null,
  };
  const tokens: IssuedTokens = { access, refresh };
  return { tokens, accessValue, refreshValue };
};

/** What the token endpoint answers (RFC 6749 5.1, the spec's object). */
export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

const answerOf = (minted: ReturnType<typeof mintTokens>, now: number): TokenAnswer => ({
  access_token: minted.accessValue,
  token_type: 'Bearer',
  expires_in: Math.round((Date.parse(minted.tokens.access.expires_at as string) - now) / 1000),
  refresh_token: minted.refreshValue,
  scope: minted.tokens.access.scopes.join(' '),
});

const settle = async (outcome: 'issued' | 'used' | 'grant_revoked', grant: Grant, reason: GrantRevocationReason, deps: TokenDeps) => {
  if (outcome === 'issued') return;
  // Another request used the same code or refresh token at the same moment: the same as a reuse.
  if (outcome === 'used') await revokeFor(grant.id, reason, grant.client_id, deps);
  throw new GrantRefused(
    outcome === 'used'
      ? `the ${reason === 'authorization_code_reused' ? 'code' : 'refresh token'} was used already`
      : 'the grant was revoked',
  );
};

/** Exchanges a checked code for tokens: the code is used up in the same write. */
export const exchangeCode = async (
  code: AuthorizationCode,
  client: OAuthClient,
  values: TokenValues,
  deps: TokenDeps,
): Promise<TokenAnswer> => {
  const now = deps.clock.now();
  const grant = await deps.grants.getGrant(code.grant_id);
  if (!isLive(grant, now)) throw new GrantRefused('the grant was revoked');
  const minted = mintTokens(grant, client, await scopesStillGrantable(grant, code.scopes, deps), values, now);
  await settle(await deps.grants.exchangeCode(code.hash, minted.tokens, isoTime(now)), grant, 'authorization_code_reused', deps);
  return answerOf(minted, now);
};

/**
 * A checked code whose exchange failed afterwards (wrong PKCE verifier or redirect URI) is used up
 * all the same, so a stolen code cannot be tried again and again.
 */
export const spendCode = async (code: AuthorizationCode, deps: TokenDeps): Promise<void> => {
  await deps.grants.spendCode(code.hash, isoTime(deps.clock.now()));
};

/**
 * The stored refresh token behind a presented one, while its grant lives. One presented a second
 * time revokes the whole grant (RFC 9700 4.14.2): the thief and the client both lose it.
 */
export const findRefreshTokenForUse = async (value: string, deps: TokenDeps): Promise<RefreshToken | undefined> => {
  if (!isOAuthValue('refreshToken', value)) return undefined;
  const stored = await deps.grants.findRefreshToken(hashCredentialValue(value));
  if (!stored) return undefined;
  if (stored.used_at !== null) {
    await revokeFor(stored.grant_id, 'refresh_token_reused', stored.client_id, deps);
    return undefined;
  }
  const now = deps.clock.now();
  if (Date.parse(stored.expires_at) <= now) return undefined;
  return isLive(await deps.grants.getGrant(stored.grant_id), now) ? stored : undefined;
};

/**
 * Rotation: the refresh token is used up and replaced; the access token may carry fewer scopes (those
 * asked, and those its granting person may still grant: `scope` in the answer says which).
 */
export const rotateRefreshToken = async (
  refresh: RefreshToken,
  client: OAuthClient,
  scopes: Scope[],
  values: TokenValues,
  deps: TokenDeps,
): Promise<TokenAnswer> => {
  const now = deps.clock.now();
  const grant = await deps.grants.getGrant(refresh.grant_id);
  if (!isLive(grant, now)) throw new GrantRefused('the grant was revoked');
  const minted = mintTokens(grant, client, await scopesStillGrantable(grant, scopes, deps), values, now);
  await settle(await deps.grants.rotateRefreshToken(refresh.hash, minted.tokens, isoTime(now)), grant, 'refresh_token_reused', deps);
  return answerOf(minted, now);
};

/**
 * RFC 7009: a refresh token takes its whole grant with it; an access token goes alone. A token
 * that is unknown, already dead or another client's is answered the same way (nothing to tell).
 */
export const revokeToken = async (
  client: OAuthClient,
  token: string,
  deps: TokenDeps & { credentials: { findByHash(hash: string): Promise<Credential | undefined> } },
): Promise<void> => {
  if (isOAuthValue('refreshToken', token)) {
    const stored = await deps.grants.findRefreshToken(hashCredentialValue(token));
    if (stored && stored.client_id === client.id) await revokeFor(stored.grant_id, 'revoked_by_client', client.id, deps);
    return;
  }
  if (parseCredentialValue(token) !== 'oauth') return;
  const hash = hashCredentialValue(token);
  const credential = await deps.credentials.findByHash(hash);
  if (!credential?.grant || credential.grant.client_id !== client.id || credential.revoked_at) return;
  const now = deps.clock.now();
  await deps.grants.revokeAccessToken(
    hash,
    isoTime(now),
    auditRecordOf(
      {
        accountId: credential.account_id,
        action: 'oauth.token_revoked',
        actor: { type: 'application', id: client.id },
        targetId: credential.grant.id,
        details: { token_id: credential.id, client_id: client.id },
      },
      newId('auditRecord', now),
      isoTime(now),
    ),
  );
};
