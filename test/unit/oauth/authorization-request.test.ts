import { checkAuthorizationRequest } from '../../../functions/core/oauth/authorization-request';
import { matchesRegisteredRedirect, redirectUriIssue } from '../../../functions/core/oauth/client';
import { oauthWorld, pkcePair, redirectUri } from './oauth-fixture';

const query = (params: Record<string, string | string[]>) => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) for (const v of [value].flat()) search.append(name, v);
  return search;
};

describe('the authorization request', () => {
  it('is valid with client, exact redirect URI, response_type=code, known scopes and state', async () => {
    const world = await oauthWorld();
    const check = await checkAuthorizationRequest(
      query({
        client_id: world.confidential.id,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'read:projects write:projects',
        state: 'xyz',
      }),
      world,
    );
    expect(check).toMatchObject({
      outcome: 'valid',
      request: { redirectUri, redirectUriIncluded: true, scopes: ['read:projects', 'write:projects'], state: 'xyz', codeChallenge: null },
    });
  });

  it('never redirects for an unknown client or an unregistered redirect URI: an error page', async () => {
    const world = await oauthWorld();
    const base = { response_type: 'code', scope: 'read:projects', state: 's' };
    for (const params of [
      { ...base, redirect_uri: redirectUri },
      { ...base, client_id: 'oac_unknown', redirect_uri: redirectUri },
      { ...base, client_id: world.confidential.id, redirect_uri: 'https://evil.test/callback' },
      { ...base, client_id: world.confidential.id, redirect_uri: `${redirectUri}/extra` },
      { ...base, client_id: world.confidential.id, redirect_uri: `${redirectUri}?x=1` },
      { ...base, client_id: world.confidential.id, redirect_uri: 'https://APP.example.test/callback' },
      { ...base, client_id: [world.confidential.id, world.confidential.id], redirect_uri: redirectUri },
    ]) {
      expect((await checkAuthorizationRequest(query(params), world)).outcome).toBe('error_page');
    }
  });

  it('sends every other error back to the client with error and state (RFC 6749 4.1.2.1)', async () => {
    const world = await oauthWorld();
    const ok = { client_id: world.confidential.id, redirect_uri: redirectUri, response_type: 'code', scope: 'read:projects', state: 's1' };
    const cases: [Record<string, string | string[]>, string][] = [
      [{ ...ok, response_type: 'token' }, 'unsupported_response_type'],
      // Sent without a value: left out, so missing (RFC 6749 3.1).
      [{ ...ok, response_type: '' }, 'invalid_request'],
      [{ ...ok, scope: 'read:projects read:everything' }, 'invalid_scope'],
      [{ ...ok, scope: '' }, 'invalid_scope'],
      [{ ...ok, code_challenge: pkcePair().challenge, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ ...ok, code_challenge: pkcePair().challenge }, 'invalid_request'],
      [{ ...ok, code_challenge: 'too-short', code_challenge_method: 'S256' }, 'invalid_request'],
      [{ ...ok, scope: ['read:projects', 'write:projects'] }, 'invalid_request'],
    ];
    for (const [params, error] of cases) {
      expect(await checkAuthorizationRequest(query(params), world)).toEqual({
        outcome: 'redirect_error',
        redirectUri,
        error,
        description: expect.any(String),
        state: 's1',
      });
    }
    const { response_type: _omitted, ...withoutType } = ok;
    expect(await checkAuthorizationRequest(query(withoutType), world)).toMatchObject({ error: 'invalid_request' });
  });

  it('requires PKCE of a public client, and lets a loopback redirect URI name any port (RFC 8252)', async () => {
    const world = await oauthWorld();
    const base = { client_id: world.publicClient.id, response_type: 'code', scope: 'read:projects', state: 's' };
    expect(await checkAuthorizationRequest(query({ ...base, redirect_uri: 'http://127.0.0.1:8400/callback' }), world)).toMatchObject({
      outcome: 'redirect_error',
      error: 'invalid_request',
    });
    const { challenge } = pkcePair();
    expect(
      await checkAuthorizationRequest(
        query({ ...base, redirect_uri: 'http://127.0.0.1:51234/callback', code_challenge: challenge, code_challenge_method: 'S256' }),
        world,
      ),
    ).toMatchObject({ outcome: 'valid', request: { redirectUri: 'http://127.0.0.1:51234/callback', codeChallengeMethod: 'S256' } });
    expect(
      (
        await checkAuthorizationRequest(
          query({ ...base, redirect_uri: 'http://127.0.0.1:51234/other', code_challenge: challenge, code_challenge_method: 'S256' }),
          world,
        )
      ).outcome,
    ).toBe('error_page');
  });

  it('uses the only registered redirect URI when the request names none', async () => {
    const world = await oauthWorld();
    expect(
      await checkAuthorizationRequest(query({ client_id: world.confidential.id, response_type: 'code', scope: 'read:projects' }), world),
    ).toMatchObject({ outcome: 'valid', request: { redirectUri, redirectUriIncluded: false, state: null } });
  });

  it('takes a parameter sent without a value as left out (RFC 6749 3.1)', async () => {
    const world = await oauthWorld();
    const check = await checkAuthorizationRequest(
      query({
        client_id: world.confidential.id,
        redirect_uri: '',
        response_type: 'code',
        scope: 'read:projects',
        state: '',
        code_challenge: '',
        code_challenge_method: '',
      }),
      world,
    );
    expect(check).toMatchObject({
      outcome: 'valid',
      request: { redirectUri, redirectUriIncluded: false, state: null, codeChallenge: null },
    });
  });
});

describe('redirect URIs', () => {
  it('are registered as https, or http on a loopback address only, exact, without fragment or credentials', () => {
    expect(redirectUriIssue('https://app.example.test/cb')).toBeUndefined();
    expect(redirectUriIssue('http://127.0.0.1:8400/cb')).toBeUndefined();
    expect(redirectUriIssue('http://[::1]/cb')).toBeUndefined();
    expect(redirectUriIssue('http://localhost:3000/cb')).toBeUndefined();
    expect(redirectUriIssue('http://app.example.test/cb')).toMatch(/https/);
    expect(redirectUriIssue('https://app.example.test/cb#frag')).toMatch(/fragment/);
    expect(redirectUriIssue('https://user:pw@app.example.test/cb')).toMatch(/user name/);
    expect(redirectUriIssue('https://*.example.test/cb')).toBeDefined();
    expect(redirectUriIssue('/relative')).toMatch(/absolute/);
    expect(redirectUriIssue('javascript:alert(1)')).toMatch(/https/);
  });

  it('match exactly, except the port of a loopback one', () => {
    const client = { redirect_uris: ['https://app.example.test/cb', 'http://127.0.0.1:8400/cb'] };
    expect(matchesRegisteredRedirect(client, 'https://app.example.test/cb')).toBe(true);
    expect(matchesRegisteredRedirect(client, 'https://app.example.test:443/cb')).toBe(false);
    expect(matchesRegisteredRedirect(client, 'https://app.example.test/cb/')).toBe(false);
    expect(matchesRegisteredRedirect(client, 'http://127.0.0.1:9/cb')).toBe(true);
    expect(matchesRegisteredRedirect(client, 'http://localhost:8400/cb')).toBe(false);
    expect(matchesRegisteredRedirect(client, 'http://127.0.0.1:8400/cb?x')).toBe(false);
    expect(matchesRegisteredRedirect(client, 'http://127.0.0.1/cb')).toBe(true);
  });

  it('compare a loopback URI as written: what a URL parser would make the same is another URI', () => {
    const client = { redirect_uris: ['http://127.0.0.1:8400/cb', 'http://[::1]/cb'] };
    for (const presented of [
      'http://127.1:9/cb',
      'http://127.0.0.1:9/x/../cb',
      'http://127.0.0.1:9/%63b',
      'http://127.0.0.1:9/cb?',
      'HTTP://127.0.0.1:9/cb',
      'http://127.0.0.1.:9/cb',
      'http://[0:0:0:0:0:0:0:1]:9/cb',
      'http://127.0.0.1:9@evil.example.test/cb',
    ])
      expect([presented, matchesRegisteredRedirect(client, presented)]).toEqual([presented, false]);
    expect(matchesRegisteredRedirect(client, 'http://[::1]:51000/cb')).toBe(true);
  });
});
