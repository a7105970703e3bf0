import { generatePrefixedValue, isWellFormedValue } from '../credentials/key-format';

/**
 * Values of the authorization server. Client ids, client secrets and refresh tokens follow the
 * keys' format (prefix, random body, checksum), so a mistyped one is refused without a lookup;
 * access tokens are credentials (`svc_oauth_`, key-format.ts).
 */
export const oauthPrefixes = {
  clientId: 'oac_',
  clientSecret: 'svc_oacs_',
  refreshToken: 'svc_refresh_',
} as const;

export type OAuthValueKind = keyof typeof oauthPrefixes;

export const generateOAuthValue = (kind: OAuthValueKind): string => generatePrefixedValue(oauthPrefixes[kind]);
export const isOAuthValue = (kind: OAuthValueKind, value: string): boolean => isWellFormedValue(oauthPrefixes[kind], value);

/** The spec's one hour. */
export const accessTokenLifetimeSeconds = 3600;
/** RFC 6749 4.1.2 asks for at most ten minutes. */
export const authorizationCodeLifetimeSeconds = 600;
/** A refresh token unused this long dies; rotation gives the next one a fresh idle period. */
export const refreshTokenIdleSeconds = 30 * 86_400;
/** No token of a grant outlives its first year: then the user authorizes again. */
export const grantLifetimeSeconds = 365 * 86_400;

/**
 * An `error_description` as RFC 6749 allows it (5.2, 4.1.2.1: only %x20-21 / %x23-5B / %x5D-7E):
 * a description that repeats what the client sent (an unknown scope) stays within it. A double
 * quote becomes a single one; any other character outside it, a `?`.
 */
export const oauthErrorDescription = (text: string): string => text.replaceAll('"', "'").replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/gu, '?');
