import { isScope, type Scope } from '../credentials/scopes';
import { matchesRegisteredRedirect, type OAuthClient, type OAuthClientRepository } from './client';
import { isOAuthValue } from './oauth-formats';

/** An `/oauth/authorize` request that may go on to sign-in and consent. */
export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  /** False when the client left it out (it has a single one registered). */
  redirectUriIncluded: boolean;
  scopes: Scope[];
  state: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: 'S256' | null;
}

export type AuthorizationErrorCode = 'invalid_request' | 'unsupported_response_type' | 'invalid_scope' | 'access_denied' | 'server_error';

/**
 * What to do with a request: go on, show an error page (the client or its redirect URI cannot be
 * trusted, so nothing is sent there), or send an RFC 6749 4.1.2.1 error back to the client.
 */
export type AuthorizationCheck =
  | { outcome: 'valid'; request: AuthorizationRequest }
  | { outcome: 'error_page'; message: string }
  | { outcome: 'redirect_error'; redirectUri: string; error: AuthorizationErrorCode; description: string; state: string | null };

/** RFC 6749 appendix A: visible ASCII and space. */
const vschar = /^[\x20-\x7e]+$/;
/** RFC 7636 4.2: BASE64URL(SHA-256(verifier)), 43 characters. */
const s256Challenge = /^[A-Za-z0-9_-]{43}$/;

/**
 * Checks an authorization request in RFC 6749's order: first the client and the redirect URI
 * (failures there never redirect), then everything else (failures redirect with `error`).
 * `params` holds every value of every query parameter, so repeated ones are caught; an empty
 * value counts as none.
 */
export const checkAuthorizationRequest = async (
  params: URLSearchParams,
  deps: { clients: OAuthClientRepository },
): Promise<AuthorizationCheck> => {
  // A parameter sent without a value is as if it were left out (RFC 6749 3.1).
  const single = (name: string): string | null | 'repeated' => {
    const values = params.getAll(name).filter((value) => value !== '');
    return values.length > 1 ? 'repeated' : (values[0] ?? null);
  };

  const clientId = single('client_id');
  if (clientId === null) return { outcome: 'error_page', message: 'The request names no application (client_id is missing).' };
  if (clientId === 'repeated') return { outcome: 'error_page', message: 'The request names client_id more than once.' };
  const client = isOAuthValue('clientId', clientId) ? await deps.clients.get(clientId) : undefined;
  if (!client)
    return { outcome: 'error_page', message: 'No application has this client_id. Tell its makers: the link that sent you here is wrong.' };

  const presented = single('redirect_uri');
  if (presented === 'repeated') return { outcome: 'error_page', message: 'The request names redirect_uri more than once.' };
  let redirectUri: string;
  if (presented === null) {
    if (client.redirect_uris.length !== 1) {
      return { outcome: 'error_page', message: `${client.name} registered several redirect URIs, and the request names none of them.` };
    }
    redirectUri = client.redirect_uris[0] as string;
  } else if (matchesRegisteredRedirect(client, presented)) {
    redirectUri = presented;
  } else {
    return {
      outcome: 'error_page',
      message: `The redirect URI of this request is not one that ${client.name} registered, so you are not sent there.`,
    };
  }

  const rawState = single('state');
  const state = rawState !== null && rawState !== 'repeated' && vschar.test(rawState) && rawState.length <= 1024 ? rawState : null;
  const fail = (error: AuthorizationErrorCode, description: string): AuthorizationCheck => ({
    outcome: 'redirect_error',
    redirectUri,
    error,
    description,
    state,
  });

  if (rawState === 'repeated') return fail('invalid_request', 'state is sent more than once');
  if (rawState !== null && state === null) return fail('invalid_request', 'state must be 1 to 1024 visible ASCII characters');
  for (const name of ['response_type', 'scope', 'code_challenge', 'code_challenge_method']) {
    if (single(name) === 'repeated') return fail('invalid_request', `${name} is sent more than once`);
  }

  const responseType = single('response_type');
  if (responseType === null) return fail('invalid_request', 'response_type is missing; use response_type=code');
  if (responseType !== 'code')
    return fail('unsupported_response_type', 'only response_type=code is supported (the authorization code flow)');

  const scopeText = (single('scope') as string | null)?.trim() ?? '';
  if (!scopeText) return fail('invalid_scope', 'scope is missing: name the scopes the application needs, separated by spaces');
  const requested = [...new Set(scopeText.split(/ +/))];
  const unknown = requested.filter((s) => !isScope(s));
  if (unknown.length > 0) return fail('invalid_scope', `unknown scope ${unknown.join(', ')}`);

  const challenge = single('code_challenge') as string | null;
  const method = single('code_challenge_method') as string | null;
  if (method !== null && method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
  if (challenge !== null && method === null) return fail('invalid_request', 'code_challenge_method is missing; use S256');
  if (method !== null && challenge === null) return fail('invalid_request', 'code_challenge is missing');
  if (challenge !== null && !s256Challenge.test(challenge)) {
    return fail('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the code verifier');
  }
  if (client.type === 'public' && challenge === null) {
    return fail('invalid_request', 'this application is public: PKCE is required (code_challenge with code_challenge_method=S256)');
  }

  return {
    outcome: 'valid',
    request: {
      client,
      redirectUri,
      redirectUriIncluded: presented !== null,
      scopes: requested as Scope[],
      state,
      codeChallenge: challenge,
      codeChallengeMethod: challenge ? 'S256' : null,
    },
  };
};

/**
 * The client's redirect URI with the answer's parameters added: `code` or `error`, then `state` and
 * `iss` (RFC 9207, so a client that talks to several servers can tell which one answered).
 */
export const authorizationResponseUrl = (
  redirectUri: string,
  parameters: Record<string, string | null | undefined>,
  issuer: string,
): string => {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) if (value !== null && value !== undefined) url.searchParams.set(name, value);
  url.searchParams.set('iss', issuer);
  return url.toString();
};
