import * as oauth from 'oauth4webapi';
import { peopleDeps } from '../../../functions/adapters/dynamodb/people-deps';
import { registerClient } from '../../../functions/core/oauth/manage-clients';
import { runtimeTable } from './runtime';
import { origin, type WebClient } from './web-client';

/** The local runtime is http://localhost: oauth4webapi allows that only when told. */
export const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** The runtime's metadata, through oauth4webapi's discovery (which checks `issuer` exactly). */
export const discover = async (): Promise<oauth.AuthorizationServer> => {
  const issuer = new URL(origin());
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
};

/** An application registered by an account of its own (the vendor), as `oauth-clients create` does. */
export const registerApp = async (redirectUri: string, options: { public?: boolean; name?: string } = {}) => {
  const { createAccount } = await import('../../../functions/core/credentials/manage-credentials');
  const deps = peopleDeps(await runtimeTable());
  const vendor = await createAccount({ email: `vendor-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@apps.example.com` }, deps);
  return registerClient(
    { accountId: vendor.id, name: options.name ?? 'CI Bot', redirectUris: [redirectUri], public: options.public },
    deps,
  );
};

/**
 * A client application written with oauth4webapi: it builds the authorization URL (PKCE S256,
 * state), checks the answer (state, iss) and speaks to the token and revocation endpoints.
 */
export const oauthApp = async (
  registered: { id: string; client_secret?: string },
  redirectUri: string,
  auth: 'post' | 'basic' | 'none' = 'post',
) => {
  const server = await discover();
  const client: oauth.Client = { client_id: registered.id };
  const clientAuth =
    auth === 'none'
      ? oauth.None()
      : auth === 'basic'
        ? oauth.ClientSecretBasic(registered.client_secret!)
        : oauth.ClientSecretPost(registered.client_secret!);
  return {
    server,
    async start(scope: string, extra: Record<string, string> = {}) {
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const url = new URL(server.authorization_endpoint!);
      url.search = new URLSearchParams({
        client_id: registered.id,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope,
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        ...extra,
      }).toString();
      return { url, state, verifier };
    },
    /** The redirect back: checked by oauth4webapi (state, iss), then the code exchanged. */
    async finish(callback: URL, pending: { state: string; verifier: string }) {
      const params = oauth.validateAuthResponse(server, client, callback, pending.state);
      const response = await oauth.authorizationCodeGrantRequest(
        server,
        client,
        clientAuth,
        params,
        redirectUri,
        pending.verifier,
        insecure,
      );
      return oauth.processAuthorizationCodeResponse(server, client, response);
    },
    async refresh(refreshToken: string, scope?: string) {
      const response = await oauth.refreshTokenGrantRequest(server, client, clientAuth, refreshToken, {
        ...insecure,
        ...(scope ? { additionalParameters: { scope } } : {}),
      });
      return oauth.processRefreshTokenResponse(server, client, response);
    },
    async revoke(token: string) {
      return oauth.processRevocationResponse(await oauth.revocationRequest(server, client, clientAuth, token, insecure));
    },
  };
};

const unescapeAttribute = (value: string): string =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** A signed-in person answering the consent page (without a browser): where the redirect goes. */
export const answerConsent = async (person: WebClient, authorizationUrl: URL, decision: 'allow' | 'deny' = 'allow') => {
  const page = await person.get(`${authorizationUrl.pathname}${authorizationUrl.search}`);
  if (page.status === 302) return { page, redirect: new URL(page.location!, origin()) };
  if (page.status !== 200) throw new Error(`the authorization page answered ${page.status}:\n${page.text.slice(0, 400)}`);
  const request = unescapeAttribute(/name="request" value="([^"]*)"/.exec(page.text)![1]!);
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.text)![1]!;
  const answered = await person.post('/oauth/authorize', { csrf_token: csrf, request, decision });
  return { page, redirect: new URL(answered.location!, origin()) };
};
