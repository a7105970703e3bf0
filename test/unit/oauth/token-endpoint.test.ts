import { resolveCredential } from '../../../functions/core/credentials/resolve-credential';
import { removeMember } from '../../../functions/core/users/manage-users';
import { deleteClient, rotateClientSecret } from '../../../functions/core/oauth/manage-clients';
import { createOAuthHandler } from '../../../functions/http/oauth/oauth-handler';
import { handleRevokeRequest } from '../../../functions/http/oauth/revoke-endpoint';
import { handleTokenRequest } from '../../../functions/http/oauth/token-endpoint';
import { tokenRoute, revokeRoute } from '../../../functions/routes/oauth';
import { revokeToken } from '../../../functions/core/oauth/tokens';
import { apiErrorOf } from '../fakes/api-error';
import { apiEvent } from '../fakes/api-gateway-event';
import { oauthWorld, pkcePair, redirectUri } from './oauth-fixture';

type World = Awaited<ReturnType<typeof oauthWorld>>;

const tokenEndpoint = (world: World) => createOAuthHandler(tokenRoute, (event) => handleTokenRequest(event, world));

const post = async (world: World, body: Record<string, string>, options: { form?: boolean; basic?: [string, string] } = {}) => {
  const headers: Record<string, string> = {};
  if (options.basic) headers.authorization = `Basic ${Buffer.from(options.basic.join(':')).toString('base64')}`;
  const event = options.form
    ? apiEvent({
        method: 'POST',
        path: '/oauth/token',
        raw: new URLSearchParams(body).toString(),
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      })
    : apiEvent({ method: 'POST', path: '/oauth/token', json: body, headers });
  const response = await tokenEndpoint(world)(event);
  return { status: response.statusCode, headers: response.headers, body: JSON.parse(response.body ?? '{}') };
};

const exchange = (world: World, code: string, extra: Record<string, string> = {}) =>
  post(world, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    client_id: world.confidential.id,
    client_secret: world.confidential.client_secret!,
    ...extra,
  });

const principalOf = (world: World, token: string) =>
  resolveCredential({ authorization: `Bearer ${token}` }, { ...world, oauthGrants: world.grants });

describe('POST /oauth/token', () => {
  it('exchanges a code for exactly the spec object (JSON body), never cached, and the token acts in live mode with the granted scopes', async () => {
    const world = await oauthWorld();
    const { code } = await world.authorize();
    const answer = await exchange(world, code!);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope']);
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read:projects write:projects' });
    expect(answer.body.access_token).toMatch(/^svc_oauth_[0-9A-Za-z]{36}$/);
    expect(answer.body.refresh_token).toMatch(/^svc_refresh_[0-9A-Za-z]{36}$/);
    expect(answer.headers).toMatchObject({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    expect(await principalOf(world, answer.body.access_token)).toMatchObject({
      accountId: world.account.id,
      mode: 'live',
      credentialType: 'oauth',
      scopes: ['read:projects', 'write:projects'],
    });
  });

  it('takes form bodies and HTTP Basic client authentication too', async () => {
    const world = await oauthWorld();
    const { code } = await world.authorize();
    const answer = await post(
      world,
      { grant_type: 'authorization_code', code: code!, redirect_uri: redirectUri },
      {
        form: true,
        basic: [world.confidential.id, world.confidential.client_secret!],
      },
    );
    expect(answer.status).toBe(200);
  });

  it('uses a code once: the second use fails and revokes what the first issued', async () => {
    const world = await oauthWorld();
    const { code } = await world.authorize();
    const first = await exchange(world, code!);
    const second = await exchange(world, code!);
    expect(second).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await apiErrorOf(principalOf(world, first.body.access_token))).message).toMatch(/revoked/);
    expect(
      await post(world, {
        grant_type: 'refresh_token',
        refresh_token: first.body.refresh_token,
        client_id: world.confidential.id,
        client_secret: world.confidential.client_secret!,
      }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect([...world.grants.grants.values()][0]).toMatchObject({ revoked_reason: 'authorization_code_reused' });
  });

  it('binds a code to its client, redirect URI and lifetime', async () => {
    const world = await oauthWorld();
    const other = await (
      await import('../../../functions/core/oauth/manage-clients')
    ).registerClient({ accountId: world.vendor.id, name: 'Other', redirectUris: [redirectUri] }, world);
    const { code } = await world.authorize();
    expect(
      await post(world, {
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: redirectUri,
        client_id: other.id,
        client_secret: other.client_secret!,
      }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(await exchange(world, code!, { redirect_uri: 'https://app.example.test/other' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    // A failed check uses the code up: it cannot be tried again.
    expect(await exchange(world, code!)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    // The authorization request named a redirect URI, so the token request must (RFC 6749 4.1.3).
    const { code: withoutUri } = await world.authorize();
    expect(
      await post(world, {
        grant_type: 'authorization_code',
        code: withoutUri!,
        client_id: world.confidential.id,
        client_secret: world.confidential.client_secret!,
      }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: expect.stringMatching(/^Missing parameter: `redirect_uri`/) },
    });

    const { code: late } = await world.authorize();
    world.clock.advance(10 * 60_000 + 1);
    const expired = await exchange(world, late!);
    expect(expired).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('checks the PKCE verifier of a public client, which sends no secret', async () => {
    const world = await oauthWorld();
    const { verifier, challenge } = pkcePair();
    const { code } = await world.authorize({ clientId: world.publicClient.id, challenge, redirect: 'http://127.0.0.1:8400/callback' });
    const base = {
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: 'http://127.0.0.1:8400/callback',
      client_id: world.publicClient.id,
    };
    expect(await post(world, { ...base, code_verifier: pkcePair().verifier })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    const { code: again } = await world.authorize({
      clientId: world.publicClient.id,
      challenge,
      redirect: 'http://127.0.0.1:8400/callback',
    });
    expect(await post(world, { ...base, code: again!, code_verifier: verifier })).toMatchObject({ status: 200 });
    // A public client that sends a secret is not what it says it is.
    const { code: third } = await world.authorize({
      clientId: world.publicClient.id,
      challenge,
      redirect: 'http://127.0.0.1:8400/callback',
    });
    expect(await post(world, { ...base, code: third!, code_verifier: verifier, client_secret: 'svc_oacs_x' })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
  });

  it('answers invalid_client with 401 and WWW-Authenticate, for a wrong or missing secret', async () => {
    const world = await oauthWorld();
    const { code } = await world.authorize();
    const secret = world.confidential.client_secret!;
    // Swap the last character for one it is not, so the secret is always wrong.
    const wrongSecret = `${secret.slice(0, -1)}${secret.endsWith('x') ? 'y' : 'x'}`;
    const wrong = await exchange(world, code!, { client_secret: wrongSecret });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(wrong.headers['WWW-Authenticate']).toMatch(/^Basic /);
    const missing = await post(world, {
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: redirectUri,
      client_id: world.confidential.id,
    });
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expect(['invalid_request', 'invalid_client']).toContain(missing.body.error);
    // After a rotation the old secret is refused.
    const { code: next } = await world.authorize();
    const rotated = await rotateClientSecret({ accountId: world.vendor.id, clientId: world.confidential.id }, world);
    expect(await exchange(world, next!)).toMatchObject({ status: 401 });
    expect(await exchange(world, next!, { client_secret: rotated.client_secret! })).toMatchObject({ status: 200 });
  });

  it('takes the client authenticated one way only, and a Basic header naming no client as a failed authentication (401)', async () => {
    const world = await oauthWorld();
    const { code } = await world.authorize();
    const basic: [string, string] = [world.confidential.id, world.confidential.client_secret!];
    const body = { grant_type: 'authorization_code', code: code!, redirect_uri: redirectUri };
    // Both methods at once, agreeing or not (RFC 6749 2.3): refused, and the code is not used up.
    for (const extra of [{ client_secret: basic[1] }, { client_id: 'oac_another' }] as Record<string, string>[]) {
      expect(await post(world, { ...body, ...extra }, { basic })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    }
    // The same client_id beside Basic is no second method.
    expect(await post(world, { ...body, client_id: basic[0] }, { basic })).toMatchObject({ status: 200 });
    for (const header of [
      ['', 'x'],
      ['%E0%A4%A', 'x'],
      ['é', 'x'],
      [basic[0], '%zz'],
    ] as [string, string][]) {
      const answer = await post(world, body, { basic: header });
      expect([header, answer.status, answer.body.error]).toEqual([header, 401, 'invalid_client']);
      expect(answer.headers['WWW-Authenticate']).toMatch(/^Basic /);
    }
  });

  it('takes a parameter sent without a value as left out (RFC 6749 3.2)', async () => {
    const world = await oauthWorld();
    const { code } = await world.authorize();
    const answer = await exchange(world, code!, { scope: '', state: '' });
    expect(answer).toMatchObject({ status: 200, body: { scope: 'read:projects write:projects' } });
    expect(await post(world, { grant_type: '' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Missing parameter: grant_type' },
    });
  });

  it('refuses the implicit-era grants and malformed requests with RFC 6749 errors', async () => {
    const world = await oauthWorld();
    expect(await post(world, { grant_type: 'password', username: 'a', password: 'b' })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
    expect(await post(world, { grant_type: 'client_credentials' })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
    expect(await post(world, {})).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const twice = await tokenEndpoint(world)(
      apiEvent({
        method: 'POST',
        path: '/oauth/token',
        raw: 'grant_type=authorization_code&code=a&code=b',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    );
    expect(JSON.parse(twice.body!)).toMatchObject({ error: 'invalid_request' });
    const notJson = await tokenEndpoint(world)(
      apiEvent({ method: 'POST', path: '/oauth/token', raw: '{', headers: { 'content-type': 'application/json' } }),
    );
    expect([notJson.statusCode, JSON.parse(notJson.body!).error]).toEqual([400, 'invalid_request']);
  });

  it('keeps error_description within the characters RFC 6749 allows when it repeats what the client sent', async () => {
    const world = await oauthWorld();
    // A parameter named `scöpe "x\y` whose value is not a string: the description names it.
    const answer = await tokenEndpoint(world)(
      apiEvent({
        method: 'POST',
        path: '/oauth/token',
        raw: '{"sc\\u00f6pe \\"x\\\\y":1}',
        headers: { 'content-type': 'application/json' },
      }),
    );
    const description = JSON.parse(answer.body!).error_description as string;
    expect(description).toBe("The parameter sc?pe 'x?y must be a string.");
    expect(description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
  });
});

describe('POST /oauth/revoke', () => {
  const revokeEndpoint = (world: World) => createOAuthHandler(revokeRoute, (event) => handleRevokeRequest(event, world));
  const revoke = async (world: World, body: Record<string, string>, basic?: [string, string]) => {
    const authorization = basic ? `Basic ${Buffer.from(basic.join(':')).toString('base64')}` : undefined;
    const response = await revokeEndpoint(world)(
      apiEvent({ method: 'POST', path: '/oauth/revoke', json: body, headers: authorization ? { authorization } : {} }),
    );
    return { status: response.statusCode, headers: response.headers, body: response.body ? JSON.parse(response.body) : undefined };
  };

  it('answers a Basic header naming no client (undecodable, empty, not ASCII) 401 invalid_client, never a 500', async () => {
    const world = await oauthWorld();
    for (const header of [
      ['%E0%A4%A', 'x'],
      [world.confidential.id, '%zz'],
      ['', 'x'],
      ['é', 'x'],
    ] as [string, string][]) {
      const answer = await revoke(world, { token: 'abc' }, header);
      expect([header, answer.status, answer.body?.error]).toEqual([header, 401, 'invalid_client']);
    }
    const basic: [string, string] = [world.confidential.id, world.confidential.client_secret!];
    expect(await revoke(world, { token: 'abc' }, basic)).toMatchObject({ status: 200 });
    expect(await revoke(world, { token: 'abc', client_secret: basic[1] }, basic)).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
  });
});

describe('refresh tokens', () => {
  const refresh = (world: World, token: string, extra: Record<string, string> = {}) =>
    post(world, {
      grant_type: 'refresh_token',
      refresh_token: token,
      client_id: world.confidential.id,
      client_secret: world.confidential.client_secret!,
      ...extra,
    });

  it('rotate on every use; a narrower scope narrows the access token only', async () => {
    const world = await oauthWorld();
    const first = await exchange(world, (await world.authorize()).code!);
    const narrower = await refresh(world, first.body.refresh_token, { scope: 'read:projects' });
    expect(narrower).toMatchObject({ status: 200, body: { scope: 'read:projects', expires_in: 3600 } });
    expect(narrower.body.refresh_token).not.toBe(first.body.refresh_token);
    expect((await principalOf(world, narrower.body.access_token)).scopes).toEqual(['read:projects']);
    // The grant's scopes remain available to the next refresh; more than granted never is.
    expect(await refresh(world, narrower.body.refresh_token)).toMatchObject({
      status: 200,
      body: { scope: 'read:projects write:projects' },
    });
    expect(await refresh(world, first.body.refresh_token, { scope: 'read:projects write:deployments' })).toMatchObject({ status: 400 });
  });

  it("answer another client's refresh token as an unknown one, and leave it working for its own client", async () => {
    const world = await oauthWorld();
    const first = await exchange(world, (await world.authorize()).code!);
    const unknown = await refresh(world, 'svc_refresh_000000000000000000000000000000000000', {
      client_id: world.publicClient.id,
      client_secret: '',
    });
    const foreign = await refresh(world, first.body.refresh_token, { client_id: world.publicClient.id, client_secret: '' });
    expect(foreign).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(foreign.body.error_description).toBe('Invalid grant: refresh token is invalid');
    expect(unknown.body).toEqual(foreign.body);
    expect(await refresh(world, first.body.refresh_token)).toMatchObject({ status: 200 });
  });

  it('a reused refresh token fails and revokes the whole grant: every token descended from it', async () => {
    const world = await oauthWorld();
    const first = await exchange(world, (await world.authorize()).code!);
    const second = await refresh(world, first.body.refresh_token);
    expect(second.status).toBe(200);
    expect(await refresh(world, first.body.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    for (const token of [first.body.access_token, second.body.access_token]) {
      expect((await apiErrorOf(principalOf(world, token))).code).toBe('unauthorized');
    }
    expect(await refresh(world, second.body.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(world.audit.records.filter((r) => r.action === 'oauth.grant_revoked').map((r) => r.details.reason)).toEqual([
      'refresh_token_reused',
    ]);
  });

  it("die after 30 days unused; no token outlives the grant's year", async () => {
    const world = await oauthWorld();
    let tokens = await exchange(world, (await world.authorize()).code!);
    world.clock.advance(30 * 86_400_000);
    expect(await refresh(world, tokens.body.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    tokens = await exchange(world, (await world.authorize()).code!);
    for (let day = 29; day < 365; day += 29) {
      world.clock.advance(29 * 86_400_000);
      const next = await refresh(world, tokens.body.refresh_token);
      if (day + 29 >= 365) break;
      expect(next.status).toBe(200);
      tokens = next;
    }
    world.clock.advance(30 * 86_400_000);
    expect((await refresh(world, tokens.body.refresh_token)).status).toBe(400);
  });
});

describe('OAuth access tokens in the credential resolver', () => {
  it('are refused after 3600 s, after revocation (RFC 7009), and when the application is deleted', async () => {
    const world = await oauthWorld();
    const tokens = await exchange(world, (await world.authorize()).code!);
    world.clock.advance(3_599_000);
    expect((await principalOf(world, tokens.body.access_token)).credentialType).toBe('oauth');
    world.clock.advance(1_000);
    expect((await apiErrorOf(principalOf(world, tokens.body.access_token))).message).toMatch(/expired/);

    const next = await exchange(world, (await world.authorize()).code!);
    const client = (await world.clients.get(world.confidential.id))!;
    await revokeToken(client, next.body.access_token, world);
    expect((await apiErrorOf(principalOf(world, next.body.access_token))).message).toMatch(/revoked/);
    expect(world.audit.records.at(-1)).toMatchObject({ action: 'oauth.token_revoked', actor: { type: 'application', id: client.id } });

    const third = await exchange(world, (await world.authorize()).code!);
    await revokeToken(client, third.body.refresh_token, world);
    expect((await apiErrorOf(principalOf(world, third.body.access_token))).message).toMatch(/revoked/);

    const fourth = await exchange(world, (await world.authorize()).code!);
    await deleteClient({ accountId: world.vendor.id, clientId: client.id }, world);
    expect((await apiErrorOf(principalOf(world, fourth.body.access_token))).message).toMatch(/no longer exists/);
  });

  it('follow the granting person: a viewer grants read scopes only, and one who leaves the account takes the tokens along', async () => {
    const world = await oauthWorld();
    const { code } = await world.authorize({ role: 'viewer', scopes: ['read:projects', 'write:projects'] });
    const tokens = await exchange(world, code!);
    expect(tokens.body.scope).toBe('read:projects');
    const { url } = await world.authorize({ role: 'viewer', scopes: ['write:projects'] });
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe('st4te');
    expect(url.searchParams.get('iss')).toBe('https://auth.acme.test');

    const admin = await exchange(world, (await world.authorize()).code!);
    await world.users.removeMembership(world.admin.id, world.account.id);
    await world.users.addMembership({
      account_id: world.account.id,
      user_id: world.admin.id,
      role: 'viewer',
      created_at: new Date().toISOString(),
    });
    expect((await principalOf(world, admin.body.access_token)).scopes).toEqual(['read:projects']);
    // The token endpoint says the same: a refresh gives what a viewer may grant, and says so in `scope`.
    const refreshOf = (token: string) =>
      post(world, {
        grant_type: 'refresh_token',
        refresh_token: token,
        client_id: world.confidential.id,
        client_secret: world.confidential.client_secret!,
      });
    const asViewer = await refreshOf(admin.body.refresh_token);
    expect(asViewer).toMatchObject({ status: 200, body: { scope: 'read:projects' } });
    expect((await principalOf(world, asViewer.body.access_token)).scopes).toEqual(['read:projects']);
    const { code: pending } = await world.authorize();
    await removeMember({ accountId: world.account.id, userId: world.admin.id }, world);
    expect((await apiErrorOf(principalOf(world, admin.body.access_token))).message).toMatch(/revoked/);
    // Gone from the account: neither a refresh nor a code issued before gives tokens.
    expect(await refreshOf(asViewer.body.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await exchange(world, pending!)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    // Added back, they start afresh: the grants were revoked with the removal, not just paused.
    await world.users.addMembership({
      account_id: world.account.id,
      user_id: world.admin.id,
      role: 'admin',
      created_at: new Date().toISOString(),
    });
    expect((await apiErrorOf(principalOf(world, asViewer.body.access_token))).message).toMatch(/revoked/);
    expect(await refreshOf(asViewer.body.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const theirs = [...world.grants.grants.values()].filter((grant) => grant.user_id === world.admin.id);
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((grant) => grant.revoked_at !== null && grant.revoked_reason === 'member_removed')).toBe(true);
    expect(world.audit.records.filter((r) => r.details.reason === 'member_removed')).not.toHaveLength(0);
  });

  it("record the grant's last use at most once a minute", async () => {
    const world = await oauthWorld();
    const tokens = await exchange(world, (await world.authorize()).code!);
    const grant = () => [...world.grants.grants.values()][0]!;
    await principalOf(world, tokens.body.access_token);
    const first = grant().last_used_at;
    expect(first).toBe(new Date(world.clock.now()).toISOString());
    world.clock.advance(30_000);
    await principalOf(world, tokens.body.access_token);
    expect(grant().last_used_at).toBe(first);
    world.clock.advance(30_001);
    await principalOf(world, tokens.body.access_token);
    expect(grant().last_used_at).toBe(new Date(world.clock.now()).toISOString());
  });

  it('without the grant reader (a function not wired for OAuth) are refused, never let through', async () => {
    const world = await oauthWorld();
    const tokens = await exchange(world, (await world.authorize()).code!);
    expect((await apiErrorOf(resolveCredential({ apiKey: tokens.body.access_token }, world))).code).toBe('unauthorized');
  });
});

void revokeRoute;
