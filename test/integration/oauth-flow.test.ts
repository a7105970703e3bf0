import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as oauth from 'oauth4webapi';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { hashSecretToken } from '../../functions/core/secret-token';
import { createUser, removeMember } from '../../functions/core/users/manage-users';
import { as } from './support/http';
import { answerConsent, discover, oauthApp, registerApp } from './support/oauth-app';
import { newAccount, runtimeTable } from './support/runtime';
import { newPerson, origin, webClient } from './support/web-client';

const redirectUri = 'https://app.example.com/oauth/callback';
const repository = 'https://github.com/acme/app';

/** A signed-in admin (or viewer) of a fresh account, and an application of another account. */
const setting = async (role: 'admin' | 'viewer' = 'admin', appOptions: { public?: boolean } = {}) => {
  const person = await newPerson({ role });
  const browser = webClient();
  await browser.signIn(person.email, person.password);
  const registered = await registerApp(appOptions.public ? 'http://127.0.0.1:8400/callback' : redirectUri, appOptions);
  return { person, browser, registered };
};

const grantOf = async (grantId: string) =>
  (await (await runtimeTable()).client.send(new GetCommand({ TableName: (await runtimeTable()).tableName, Key: keys.oauthGrant(grantId) })))
    .Item;

describe('the OAuth 2.0 authorization server, driven by oauth4webapi', () => {
  it('publishes RFC 8414 metadata whose issuer is exactly the printed origin (strict clients accept it)', async () => {
    const server = await discover();
    expect(server.issuer).toBe(origin());
    expect(server).toMatchObject({
      authorization_endpoint: `${origin()}/oauth/authorize`,
      token_endpoint: `${origin()}/oauth/token`,
      revocation_endpoint: `${origin()}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });
  });

  it('sign-in, consent, code, token, API call, refresh; the reused old refresh token revokes the grant', async () => {
    const { person, browser, registered } = await setting();
    const app = await oauthApp(registered, redirectUri);
    const pending = await app.start('read:projects write:projects');

    const { page, redirect } = await answerConsent(browser, pending.url);
    expect(page.text).toContain('Authorize CI Bot');
    expect(page.text).toContain('View projects and their settings');
    expect(page.text).toContain('Create and modify projects');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' https://app.example.com");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(redirect.origin + redirect.pathname).toBe(redirectUri);
    expect(redirect.searchParams.get('iss')).toBe(origin());

    const tokens = await app.finish(redirect, pending);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'read:projects write:projects' });
    expect(tokens.access_token).toMatch(/^svc_oauth_/);
    expect(tokens.refresh_token).toMatch(/^svc_refresh_/);

    // The token acts in live mode of the granting account.
    const created = await as(tokens.access_token).post('/projects', { name: 'via oauth', repository });
    expect(created.status).toBe(201);
    expect((await as(person.live.key).get(`/projects/${created.body.data.id}`)).status).toBe(200);
    expect((await as(person.test.key).get(`/projects/${created.body.data.id}`)).status).toBe(404);
    expect((await as(tokens.access_token).get('/workflows')).status).toBe(403);

    const refreshed = await app.refresh(tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await as(refreshed.access_token).get('/projects')).status).toBe(200);

    await expect(app.refresh(tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await as(refreshed.access_token).get('/projects')).status).toBe(401);
    expect((await as(tokens.access_token).get('/projects')).status).toBe(401);
    await expect(app.refresh(refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it("takes the spec's JSON body at the token endpoint, with HTTP Basic or body client authentication", async () => {
    const { browser, registered } = await setting();
    for (const auth of ['json-body', 'json-basic'] as const) {
      const app = await oauthApp(registered, redirectUri);
      const pending = await app.start('read:projects');
      const { redirect } = await answerConsent(browser, pending.url);
      const body = {
        grant_type: 'authorization_code',
        code: redirect.searchParams.get('code')!,
        redirect_uri: redirectUri,
        code_verifier: pending.verifier,
        ...(auth === 'json-body' ? { client_id: registered.id, client_secret: registered.client_secret! } : {}),
      };
      const answer = await fetch(`${origin()}/oauth/token`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(auth === 'json-basic'
            ? { Authorization: `Basic ${Buffer.from(`${registered.id}:${registered.client_secret}`).toString('base64')}` }
            : {}),
        },
        body: JSON.stringify(body),
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      const json = await answer.json();
      expect(Object.keys(json)).toEqual(['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope']);
      expect(json).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read:projects' });
    }
    const bad = await fetch(`${origin()}/oauth/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Basic ${Buffer.from(`${registered.id}:svc_oacs_wrong`).toString('base64')}`,
      },
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: 'svc_refresh_x' }),
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(await bad.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('Deny sends access_denied with the state; the same scopes again skip the page', async () => {
    const { browser, registered } = await setting();
    const app = await oauthApp(registered, redirectUri);
    const denied = await app.start('read:projects');
    const { redirect } = await answerConsent(browser, denied.url, 'deny');
    expect(Object.fromEntries(redirect.searchParams)).toMatchObject({ error: 'access_denied', state: denied.state, iss: origin() });
    expect(() => oauth.validateAuthResponse(app.server, { client_id: registered.id }, redirect, denied.state)).toThrow();

    const first = await app.start('read:projects');
    await app.finish((await answerConsent(browser, first.url)).redirect, first);
    const again = await app.start('read:projects');
    const skipped = await answerConsent(browser, again.url);
    expect(skipped.page.status).toBe(302);
    const tokens = await app.finish(skipped.redirect, again);
    expect(tokens.scope).toBe('read:projects');

    // Once the authorization is revoked, the person is asked again (as GitHub does), not skipped past.
    await app.revoke(tokens.refresh_token!);
    const afterRevoke = await app.start('read:projects');
    const asked = await answerConsent(browser, afterRevoke.url);
    expect(asked.page.status).toBe(200);
  });

  it('a viewer grants read scopes only: the page says which will not be granted, the token is narrower, nothing grantable is access_denied', async () => {
    const { browser, registered } = await setting('viewer');
    const app = await oauthApp(registered, redirectUri);
    const pending = await app.start('read:projects write:projects');
    const { page, redirect } = await answerConsent(browser, pending.url);
    expect(page.text).toContain('Not granted: you are a viewer');
    expect((await app.finish(redirect, pending)).scope).toBe('read:projects');
    const writeOnly = await app.start('write:projects');
    const answer = await browser.get(`${writeOnly.url.pathname}${writeOnly.url.search}`);
    expect(new URL(answer.location!).searchParams.get('error')).toBe('access_denied');
  });

  it('Allow grants for the account the consent page named: switched to another account meanwhile, nothing is granted', async () => {
    // A viewer of one account (read only) who is an admin of another.
    const person = await newPerson({ role: 'viewer' });
    const other = await newAccount();
    await createUser({ email: person.email, accountId: other.account.id, role: 'admin' }, person.deps);
    const browser = webClient();
    await browser.signIn(person.email, person.password);
    const chooser = await browser.get('/dashboard/accounts');
    const choose = (accountId: string) =>
      browser.post('/dashboard/accounts', {
        csrf_token: /name="csrf_token" value="([^"]+)"/.exec(chooser.text)![1]!,
        account_id: accountId,
      });
    expect((await choose(person.account.id)).status).toBe(303);

    const loopback = 'http://127.0.0.1:8400/callback';
    const app = await oauthApp(await registerApp(loopback), loopback);
    const pending = await app.start('read:projects write:projects');
    const page = await browser.get(`${pending.url.pathname}${pending.url.search}`);
    expect(page.text).toContain(`asks to act for the account <code>${person.account.id}</code>`);
    expect(page.text).toContain('Not granted: you are a viewer');

    // Another tab switches to the account where the person is an admin; then Allow is pressed here.
    expect((await choose(other.account.id)).status).toBe(303);
    const request = /name="request" value="([^"]*)"/.exec(page.text)![1]!.replace(/&amp;/g, '&');
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.text)![1]!;
    const answered = await browser.post('/oauth/authorize', { csrf_token: csrf, request, decision: 'allow' });
    expect(answered.status).toBe(409);
    expect(answered.location).toBeNull();
    expect(answered.text.replace(/<[^>]+>/g, '')).toContain(
      `This form was opened for the account ${person.account.id}; you are now acting for the account ${other.account.id}. Nothing was changed.`,
    );
    const reload = /<a href="([^"]+)">Reload the page<\/a>/.exec(answered.text)![1]!.replace(/&amp;/g, '&');
    expect(reload).toBe(`/oauth/authorize?${request}`);
    // Deny too, like every form of an account: it is sent again from the page reloaded for this one.
    expect((await browser.post('/oauth/authorize', { csrf_token: csrf, request, decision: 'deny' })).status).toBe(409);
    // The same Allow with a token that names no account is refused too (a page of before this check).
    const unnamed = await browser.post('/oauth/authorize', { csrf_token: csrf.split('.').at(-1)!, request, decision: 'allow' });
    expect([unnamed.status, unnamed.location]).toEqual([409, null]);

    // Reloaded, the page asks for the account acted for now, and Allow grants there.
    const { page: again, redirect } = await answerConsent(browser, pending.url);
    expect(again.text).toContain(`asks to act for the account <code>${other.account.id}</code>`);
    expect((await app.finish(redirect, pending)).scope).toBe('read:projects write:projects');
  });

  it('never redirects to an unregistered redirect URI or for an unknown client; other errors go back with the state', async () => {
    const { browser, registered } = await setting();
    const app = await oauthApp(registered, redirectUri);
    const pending = await app.start('read:projects');
    const tampered = new URL(pending.url);
    tampered.searchParams.set('redirect_uri', 'https://evil.example.com/callback');
    const page = await browser.get(`${tampered.pathname}${tampered.search}`);
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    expect(page.text).toContain('not one that CI Bot registered');
    tampered.searchParams.set('client_id', 'oac_unknownunknownunknownunknown0000000');
    expect((await browser.get(`${tampered.pathname}${tampered.search}`)).status).toBe(400);

    const unknownScope = await app.start('read:projects read:everything');
    const answer = await browser.get(`${unknownScope.url.pathname}${unknownScope.url.search}`);
    expect(Object.fromEntries(new URL(answer.location!).searchParams)).toMatchObject({ error: 'invalid_scope', state: unknownScope.state });
    // The description repeats the unknown scope, kept within the characters RFC 6749 allows it.
    const unusual = await app.start('read:projects read:"ünïcode"');
    const unusualAnswer = await browser.get(`${unusual.url.pathname}${unusual.url.search}`);
    const description = new URL(unusualAnswer.location!).searchParams.get('error_description');
    expect(description).toContain("read:'?n?code'");
    expect(description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
    // Not signed in: sign-in first, then back.
    const anonymous = await webClient().get(`${pending.url.pathname}${pending.url.search}`);
    expect(anonymous.location).toBe(`/dashboard/sign-in?return_to=${encodeURIComponent(`${pending.url.pathname}${pending.url.search}`)}`);
  });

  it('uses a code once (the second use revokes what it issued), checks PKCE, and lets a code live 10 minutes', async () => {
    const { browser, registered } = await setting();
    const app = await oauthApp(registered, redirectUri);
    const pending = await app.start('read:projects');
    const { redirect } = await answerConsent(browser, pending.url);
    const tokens = await app.finish(redirect, pending);
    await expect(app.finish(redirect, pending)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await as(tokens.access_token).get('/projects')).status).toBe(401);

    const wrongVerifier = await app.start('read:projects');
    const second = await answerConsent(browser, wrongVerifier.url);
    await expect(app.finish(second.redirect, { ...wrongVerifier, verifier: oauth.generateRandomCodeVerifier() })).rejects.toMatchObject({
      error: 'invalid_grant',
    });

    const late = await app.start('read:projects');
    const third = await answerConsent(browser, late.url);
    const table = await runtimeTable();
    await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.authorizationCode(hashSecretToken(third.redirect.searchParams.get('code')!)),
        UpdateExpression: 'SET expires_at = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    await expect(app.finish(third.redirect, late)).rejects.toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/expired/),
    });
  });

  it('a public application uses PKCE and no secret, on a loopback redirect URI with any port', async () => {
    const { browser, registered } = await setting('admin', { public: true });
    expect(registered.client_secret).toBeUndefined();
    const app = await oauthApp(registered, 'http://127.0.0.1:53123/callback', 'none');
    const pending = await app.start('read:projects');
    const { redirect } = await answerConsent(browser, pending.url);
    expect(redirect.origin).toBe('http://127.0.0.1:53123');
    const tokens = await app.finish(redirect, pending);
    expect((await app.refresh(tokens.refresh_token!)).access_token).toMatch(/^svc_oauth_/);

    // Consent given once does not skip the page for a public client: any program could use its id.
    const again = await app.start('read:projects');
    expect((await answerConsent(browser, again.url)).page.status).toBe(200);
  });

  it('revocation (RFC 7009): an access token alone, a refresh token with its whole grant', async () => {
    const { browser, registered } = await setting();
    const app = await oauthApp(registered, redirectUri, 'basic');
    const begin = async () => {
      const pending = await app.start('read:projects');
      return app.finish((await answerConsent(browser, pending.url)).redirect, pending);
    };
    const first = await begin();
    await app.revoke(first.access_token);
    expect((await as(first.access_token).get('/projects')).status).toBe(401);
    expect((await app.refresh(first.refresh_token!)).access_token).toMatch(/^svc_oauth_/);

    const second = await begin();
    await app.revoke(second.refresh_token!);
    expect((await as(second.access_token).get('/projects')).status).toBe(401);
    await expect(app.refresh(second.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    // Unknown tokens are answered the same way.
    await expect(app.revoke('svc_oauth_notatokennotatokennotatokennota000000')).resolves.toBeUndefined();
  });

  it("records the grant's last use, and refuses the token once its person leaves the account", async () => {
    const { person, browser, registered } = await setting();
    const app = await oauthApp(registered, redirectUri);
    const pending = await app.start('read:projects');
    const tokens = await app.finish((await answerConsent(browser, pending.url)).redirect, pending);
    expect((await as(tokens.access_token).get('/projects')).status).toBe(200);
    const grants = await person.deps.grants.grantsOfAccount(person.account.id);
    expect(grants).toHaveLength(1);
    expect((await grantOf(grants[0]!.id))?.last_used_at).toEqual(expect.any(String));

    await removeMember({ accountId: person.account.id, userId: person.user.id }, person.deps);
    const refused = await as(tokens.access_token).get('/projects');
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/revoked/);
  });

  it('keeps audit records of sign-ins, grants and revocations in the account', async () => {
    const { person, browser, registered } = await setting();
    const app = await oauthApp(registered, redirectUri);
    const pending = await app.start('read:projects');
    const tokens = await app.finish((await answerConsent(browser, pending.url)).redirect, pending);
    await app.revoke(tokens.refresh_token!);
    const actions = (await person.deps.audit.list(person.account.id, 50)).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['user.signed_in', 'oauth.grant_created', 'oauth.grant_revoked', 'user.added']));
  });
});
