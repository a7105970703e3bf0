import isFormat from '@node-oauth/formats';
import InvalidGrantError from '@node-oauth/oauth2-server/lib/errors/invalid-grant-error.js';
import OAuthError from '@node-oauth/oauth2-server/lib/errors/oauth-error.js';
import AuthorizationCodeGrantType from '@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type.js';
import RefreshTokenGrantType from '@node-oauth/oauth2-server/lib/grant-types/refresh-token-grant-type.js';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { OAuthClient } from '../../core/oauth/client';
import type { AuthorizationCode, RefreshToken } from '../../core/oauth/grant';
import { accessTokenLifetimeSeconds, refreshTokenIdleSeconds } from '../../core/oauth/oauth-formats';
import { isScope, type Scope } from '../../core/credentials/scopes';
import {
  authenticateClient,
  exchangeCode,
  findCodeForExchange,
  findRefreshTokenForUse,
  GrantRefused,
  newAccessTokenValue,
  newRefreshTokenValue,
  rotateRefreshToken,
  spendCode,
  type TokenAnswer,
  type TokenDeps,
} from '../../core/oauth/tokens';
import { jsonResponse, type HttpResponse } from '../response';
import { clientCredentials } from './client-authentication';
import { readOAuthParameters } from './oauth-body';
import { OAuthProblem } from './oauth-problem';

/** The grants this server offers: no implicit, no password (RFC 9700 2.4), no client credentials. */
export const supportedGrantTypes = ['authorization_code', 'refresh_token'] as const;
type GrantType = (typeof supportedGrantTypes)[number];

const grantTypeClasses = { authorization_code: AuthorizationCodeGrantType, refresh_token: RefreshTokenGrantType } as const;

/** A public client refreshes with its client_id alone; getClient still refuses a confidential one without its secret. */
const clientAuthenticationRequired: Record<GrantType, boolean> = { authorization_code: true, refresh_token: false };

/**
 * One token request's view of our stores, in the shape `@node-oauth/oauth2-server` asks for. The
 * library parses the request, authenticates the client, checks the code (client, expiry, redirect
 * URI, PKCE) or the refresh token (client, expiry, narrower scope) and calls these; using up the
 * code or refresh token is only staged by `revoke…` and happens in `saveToken`, in the same
 * transaction that stores the new tokens.
 */
class TokenRequestModel {
  stagedCode?: AuthorizationCode;
  stagedRefresh?: RefreshToken;
  answer?: TokenAnswer;
  client?: OAuthClient;

  constructor(private readonly deps: TokenDeps) {}

  /** The library compares expiries with the system clock; the rules use `deps.clock`: hand it the time left. */
  private onLibraryClock(iso: string): Date {
    const left = Date.parse(iso) - this.deps.clock.now();
    // Expired by our clock is expired by the library's, whatever the milliseconds in between.
    return new Date(Date.now() + (left > 0 ? left : -1000));
  }

  async getClient(clientId: string, clientSecret?: string) {
    const client = await authenticateClient(clientId, clientSecret, this.deps);
    if (!client) return undefined;
    this.client = client;
    return { id: client.id, grants: [...supportedGrantTypes], redirectUris: client.redirect_uris };
  }

  async getAuthorizationCode(code: string) {
    const stored = await findCodeForExchange(code, this.deps);
    if (!stored) return undefined;
    return {
      authorizationCode: code,
      expiresAt: this.onLibraryClock(stored.expires_at),
      // RFC 6749 4.1.3: the token request repeats redirect_uri only if the authorization request had it.
      redirectUri: stored.redirect_uri_included ? stored.redirect_uri : undefined,
      scope: stored.scopes,
      client: { id: stored.client_id },
      user: { id: stored.user_id },
      ...(stored.code_challenge ? { codeChallenge: stored.code_challenge, codeChallengeMethod: stored.code_challenge_method } : {}),
      stored,
    };
  }

  async revokeAuthorizationCode(code: { stored: AuthorizationCode }) {
    this.stagedCode = code.stored;
    return true;
  }

  async getRefreshToken(refreshToken: string) {
    const stored = await findRefreshTokenForUse(refreshToken, this.deps);
    if (!stored) return undefined;
    return {
      refreshToken,
      refreshTokenExpiresAt: this.onLibraryClock(stored.expires_at),
      scope: stored.scopes,
      client: { id: stored.client_id },
      user: { id: stored.user_id },
      stored,
    };
  }

  async revokeToken(token: { stored: RefreshToken }) {
    this.stagedRefresh = token.stored;
    return true;
  }

  /** The code's scopes were checked at consent; a refresh may only narrow them (the library checks). */
  async validateScope(_user: unknown, _client: unknown, scope?: string[]) {
    return scope && scope.length > 0 && scope.every(isScope) ? scope : false;
  }

  async generateAccessToken() {
    return newAccessTokenValue();
  }

  async generateRefreshToken() {
    return newRefreshTokenValue();
  }

  async saveToken(token: { accessToken: string; refreshToken?: string; scope?: string[] }, client: { id: string }, user: { id: string }) {
    if (!this.client || !token.refreshToken) throw new Error('the library saved a token without its client or refresh token');
    const values = { access: token.accessToken, refresh: token.refreshToken };
    try {
      if (this.stagedCode) {
        this.answer = await exchangeCode(this.stagedCode, this.client, values, this.deps);
      } else if (this.stagedRefresh) {
        const scopes = (token.scope ?? this.stagedRefresh.scopes).filter(isScope) as Scope[];
        this.answer = await rotateRefreshToken(this.stagedRefresh, this.client, scopes, values, this.deps);
      } else {
        throw new Error('the library saved a token without a code or refresh token');
      }
    } catch (error) {
      if (error instanceof GrantRefused) throw new InvalidGrantError(`Invalid grant: ${error.message}`);
      throw error;
    } finally {
      this.stagedCode = undefined;
    }
    return { ...token, client, user, accessTokenExpiresAt: new Date(Date.now() + this.answer.expires_in * 1000) };
  }
}

const libraryErrorProblem = (error: InstanceType<typeof OAuthError>, parameters: Record<string, string>): OAuthProblem => {
  const name = (error as { name: string }).name;
  if (name === 'server_error') throw (error as { inner?: Error }).inner ?? error;
  // The library says "not a valid URI" of a redirect_uri left out too (RFC 6749 4.1.3: required
  // when the authorization request had one): say what is wrong.
  if (name === 'invalid_request' && /redirect_uri/.test(error.message) && !parameters.redirect_uri) {
    return new OAuthProblem(
      'invalid_request',
      'Missing parameter: `redirect_uri` (the authorization request named one, so the token request must too)',
    );
  }
  // The library calls a redirect URI other than the authorization request's invalid_request;
  // RFC 6749 5.2 calls it invalid_grant (the grant does not match it).
  if (name === 'invalid_request' && /redirect_uri/.test(error.message) && !/not a valid URI/.test(error.message)) {
    return new OAuthProblem('invalid_grant', 'Invalid grant: redirect_uri does not match the authorization request');
  }
  // Another client's refresh token is answered as an unknown one: the answer does not tell a client
  // that a token it holds is valid elsewhere.
  if (name === 'invalid_grant' && /issued to another client/.test(error.message)) {
    return new OAuthProblem('invalid_grant', 'Invalid grant: refresh token is invalid');
  }
  return new OAuthProblem(name as OAuthProblem['error'], error.message);
};

/**
 * The client's credentials, as the library's token handler reads them (RFC 6749 2.3.1): HTTP Basic,
 * else `client_id` and `client_secret` in the body, else a bare `client_id` where the grant needs
 * no secret (a refresh, or a code redeemed with its PKCE verifier).
 */
const clientCredentialsOf = (
  event: APIGatewayProxyEventV2,
  parameters: Record<string, string>,
  grantType: GrantType,
): { id: string; secret?: string } => {
  const sent = clientCredentials(event, parameters);
  const pkce = grantType === 'authorization_code' && Boolean(parameters.code_verifier);
  const credentials: { id: string; secret?: string } | undefined =
    sent && (sent.secret || pkce || !clientAuthenticationRequired[grantType]) ? sent : undefined;
  if (!credentials) throw new OAuthProblem('invalid_client', 'Invalid client: cannot retrieve client credentials');
  if (clientAuthenticationRequired[grantType] && !credentials.secret && !pkce) {
    throw new OAuthProblem('invalid_request', 'Missing parameter: `client_secret`');
  }
  if (!isFormat.vschar(credentials.id)) throw new OAuthProblem('invalid_request', 'Invalid parameter: `client_id`');
  if (credentials.secret && !isFormat.vschar(credentials.secret)) {
    throw new OAuthProblem('invalid_request', 'Invalid parameter: `client_secret`');
  }
  return credentials;
};

const isSupportedGrantType = (grantType: string): grantType is GrantType => (supportedGrantTypes as readonly string[]).includes(grantType);

/**
 * `POST /oauth/token`: the authorization code and refresh token grants, with JSON or form bodies
 * and client authentication by HTTP Basic or in the body. Answers exactly the spec's object.
 *
 * The library's grant types check the code (client, expiry, redirect URI, PKCE) or the refresh
 * token (client, expiry, narrower scope); this endpoint reads the body (form or JSON) and the
 * client's credentials itself, as the library's token handler would, without the handler: it
 * requires the library's Request class and with it the MIME database.
 */
export const handleTokenRequest = async (event: APIGatewayProxyEventV2, deps: TokenDeps): Promise<HttpResponse> => {
  const parameters = readOAuthParameters(event);
  const grantType = parameters.grant_type;
  if (!grantType) throw new OAuthProblem('invalid_request', 'Missing parameter: grant_type');
  if (!isSupportedGrantType(grantType)) {
    throw new OAuthProblem('unsupported_grant_type', `Unsupported grant type: ${supportedGrantTypes.join(' and ')} are supported`);
  }
  const credentials = clientCredentialsOf(event, parameters, grantType);

  const model = new TokenRequestModel(deps);
  try {
    const client = await model.getClient(credentials.id, credentials.secret);
    if (!client) throw new OAuthProblem('invalid_client', 'Invalid client: client is invalid');
    const grant = new grantTypeClasses[grantType]({
      model,
      accessTokenLifetime: accessTokenLifetimeSeconds,
      refreshTokenLifetime: refreshTokenIdleSeconds,
      alwaysIssueNewRefreshToken: true,
    });
    await grant.handle({ body: parameters, query: {} }, client);
  } catch (error) {
    // A code that passed the first checks and failed a later one (PKCE, redirect URI) is used up anyway.
    if (model.stagedCode) await spendCode(model.stagedCode, deps);
    if (error instanceof OAuthError) throw libraryErrorProblem(error, parameters);
    throw error;
  }
  if (!model.answer) throw new Error('the library answered without a token');
  return jsonResponse(200, model.answer);
};
