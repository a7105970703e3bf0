import { ServiceApiError, ServiceError } from './errors.js';

/** OAuth 2.0 tokens of one user and client, as `/oauth/token` answers them. */
export interface OAuthTokens {
  accessToken: string;
  refreshToken?: string;
  /** When the access token expires (epoch milliseconds); unknown when absent. */
  expiresAt?: number;
}

export interface OAuthOptions extends OAuthTokens {
  /** The OAuth client's id (sent with every refresh). */
  clientId: string;
  /** Only for confidential clients (servers); never ship it to a browser. */
  clientSecret?: string;
  /** Where tokens are refreshed; default `<API root>/oauth/token`. */
  tokenUrl?: string;
  /** Told every new pair of tokens (refresh tokens rotate): store them to survive a restart. */
  onTokens?: (tokens: OAuthTokens) => void | Promise<void>;
}

/** How requests are authorised: an API key or personal access token, or OAuth tokens that refresh themselves. */
export type Credentials = { apiKey: string } | { oauth: OAuthOptions };

/** A credential source: the `Authorization` value to send, and what to do when the service refuses it. */
export interface Authorizer {
  authorization(fetchImpl: typeof fetch): Promise<string>;
  /** True when a new credential was obtained and the request is worth sending again. */
  refreshAfterRejection(fetchImpl: typeof fetch, rejected: string): Promise<boolean>;
}

/** Refresh this long before the access token's expiry, so no request goes out with a dying token. */
const expiryMarginMs = 30_000;

const staticKey = (apiKey: string): Authorizer => ({
  authorization: async () => `Bearer ${apiKey}`,
  refreshAfterRejection: async () => false,
});

/**
 * OAuth access tokens, refreshed with the `refresh_token` grant (RFC 6749 §6) before they expire
 * and once after a 401. Concurrent requests share one refresh.
 */
const oauthTokens = (options: OAuthOptions, apiRoot: string): Authorizer => {
  let tokens: OAuthTokens = { accessToken: options.accessToken, refreshToken: options.refreshToken, expiresAt: options.expiresAt };
  let refreshing: Promise<void> | undefined;
  const tokenUrl = options.tokenUrl ?? `${apiRoot}/oauth/token`;

  const refresh = async (fetchImpl: typeof fetch): Promise<void> => {
    if (!tokens.refreshToken) throw new ServiceError('The OAuth access token expired and there is no refresh token to renew it.');
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken, client_id: options.clientId });
    if (options.clientSecret) form.set('client_secret', options.clientSecret);
    const response = await fetchImpl(tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: form.toString(),
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok || typeof body.access_token !== 'string') {
      // RFC 6749 §5.2: { error, error_description }.
      const code = typeof body.error === 'string' ? body.error : `http_${response.status}`;
      const message = typeof body.error_description === 'string' ? body.error_description : 'The OAuth token refresh was refused.';
      throw new ServiceApiError(response.status, { code, message }, response.headers);
    }
    tokens = {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : tokens.refreshToken,
      expiresAt: typeof body.expires_in === 'number' ? Date.now() + body.expires_in * 1000 : undefined,
    };
    await options.onTokens?.({ ...tokens });
  };

  const refreshOnce = (fetchImpl: typeof fetch): Promise<void> => {
    refreshing ??= refresh(fetchImpl).finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };

  return {
    async authorization(fetchImpl) {
      if (refreshing) await refreshing;
      if (tokens.expiresAt !== undefined && tokens.refreshToken && tokens.expiresAt - expiryMarginMs <= Date.now()) {
        await refreshOnce(fetchImpl);
      }
      return `Bearer ${tokens.accessToken}`;
    },
    async refreshAfterRejection(fetchImpl, rejected) {
      if (!tokens.refreshToken) return false;
      // Another request may have refreshed already: then just send again with the new token.
      if (rejected === `Bearer ${tokens.accessToken}`) await refreshOnce(fetchImpl);
      return true;
    },
  };
};

export const authorizerOf = (credentials: Credentials, apiRoot: string): Authorizer =>
  'apiKey' in credentials ? staticKey(credentials.apiKey) : oauthTokens(credentials.oauth, apiRoot);
