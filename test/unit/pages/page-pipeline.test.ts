import { h } from 'preact';
import { selectAccount, startSession } from '../../../functions/core/sessions/manage-sessions';
import { safeReturnPath } from '../../../functions/http/pages/origin';
import { sessionCookieValue } from '../../../functions/http/pages/session-cookie';
import { createPageHandler, sessionCookie, type AccessLevel, type PageOptions } from '../../../functions/http/pages/page-handler';
import { PostForm } from '../../../functions/pages/parts/post-form';
import { Layout } from '../../../functions/pages/layout';
import { SignInPage } from '../../../functions/pages/views/sign-in';
import { defineWebRoute } from '../../../functions/routes/route';
import { apiEvent } from '../fakes/api-gateway-event';
import { inMemoryPeople } from '../fakes/people';
import { createAccount } from '../../../functions/core/credentials/manage-credentials';
import { createUser } from '../../../functions/core/users/manage-users';

const route = defineWebRoute({
  kind: 'page',
  domain: 'Dashboard',
  operationId: 'testPage',
  summary: 'a page',
  method: 'GET',
  path: '/dashboard/test',
  handler: 'x',
  tableAccess: 'write',
});

const world = async () => {
  const people = inMemoryPeople();
  const account = await createAccount({ email: 'owner@acme.test' }, people);
  const user = (await createUser({ email: 'alice@acme.test', accountId: account.id }, people)).user;
  const signedIn = await startSession(
    { userId: user.id, accountId: account.id, stage: 'active', origin: { ip: null, userAgent: null } },
    people,
  );
  return { people, account, user, signedIn };
};

/** The session cookie's value for the world's session. */
const cookieOf = (env: Awaited<ReturnType<typeof world>>): string => sessionCookieValue(env.signedIn.session, env.signedIn.token);

const handlerOf = (env: Awaited<ReturnType<typeof world>>, access: AccessLevel = 'public') =>
  createPageHandler(
    route,
    access,
    async (request) => ({ page: h('p', null, `csrf=${request.csrfToken} user=${request.signedIn?.user.email ?? 'none'}`) }),
    () => env.people,
  );

const withOrigin = async <T>(origin: string | undefined, run: () => Promise<T>): Promise<T> => {
  const previous = process.env.PUBLIC_ORIGIN;
  if (origin === undefined) delete process.env.PUBLIC_ORIGIN;
  else process.env.PUBLIC_ORIGIN = origin;
  try {
    return await run();
  } finally {
    if (previous === undefined) delete process.env.PUBLIC_ORIGIN;
    else process.env.PUBLIC_ORIGIN = previous;
  }
};

describe('every page', () => {
  it('answers with the security headers: CSP without inline script, no framing, no referrer, no caching, HSTS over https', async () => {
    const env = await world();
    const response = await withOrigin(undefined, () => handlerOf(env)(apiEvent({ method: 'GET', path: '/dashboard/test' })));
    expect(response.statusCode).toBe(200);
    const csp = response.headers['Content-Security-Policy']!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(response.headers).toMatchObject({
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Content-Type': 'text/html; charset=utf-8',
      'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
    });
    expect(response.body).toMatch(/^<!doctype html>/);
  });

  it('uses __Host- cookies with Secure over https, and plain names without Secure on http://localhost', async () => {
    const env = await world();
    const secure = await withOrigin(undefined, () => handlerOf(env)(apiEvent({ method: 'GET', path: '/dashboard/test' })));
    expect(secure.cookies).toEqual([
      expect.stringMatching(/^__Host-csrf=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Secure; Max-Age=7200$/),
    ]);
    const local = await withOrigin('http://localhost:3000', () => handlerOf(env)(apiEvent({ method: 'GET', path: '/dashboard/test' })));
    expect(local.cookies).toEqual([expect.stringMatching(/^csrf=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=7200$/)]);
    expect(local.headers['Strict-Transport-Security']).toBeUndefined();
    const cookie = sessionCookie({ secure: true }, 'tok', env.signedIn.session, Date.parse(env.signedIn.session.created_at));
    expect(cookie).toBe(`__Host-session=${env.user.id}.${env.account.id}.tok; Path=/; HttpOnly; SameSite=Lax; Secure; Max-Age=604800`);
  });

  it('reads the session from its cookie, and sends the signed-out to sign-in, then back', async () => {
    const env = await world();
    const event = (cookie?: string) => apiEvent({ method: 'GET', path: '/dashboard/test?tab=1', headers: cookie ? { cookie } : {} });
    const signedIn = await withOrigin(undefined, () => handlerOf(env, 'account')(event(`__Host-session=${cookieOf(env)}`)));
    expect(signedIn.body).toContain('user=alice@acme.test');
    expect(signedIn.body).toContain(`csrf=${env.signedIn.session.csrf_token}`);
    const signedOut = await withOrigin(undefined, () => handlerOf(env, 'account')(event()));
    expect([signedOut.statusCode, signedOut.headers.Location]).toEqual([302, '/dashboard/sign-in?return_to=%2Fdashboard%2Ftest%3Ftab%3D1']);
    // The local cookie name means nothing over https.
    const wrongName = await withOrigin(undefined, () => handlerOf(env, 'account')(event(`session=${cookieOf(env)}`)));
    expect(wrongName.statusCode).toBe(302);
  });

  it('trusts the ids in the session cookie only when the session names the same user and account', async () => {
    const env = await world();
    const other = await createAccount({ email: 'other@acme.test' }, env.people);
    const mallory = (await createUser({ email: 'mallory@acme.test', accountId: other.id }, env.people)).user;
    const opens = async (cookie: string) => {
      const event = apiEvent({ method: 'GET', path: '/dashboard/test', headers: { cookie: `__Host-session=${cookie}` } });
      return (await withOrigin(undefined, () => handlerOf(env, 'account')(event))).statusCode === 200;
    };
    const { token } = env.signedIn;
    expect(await opens(`${env.user.id}.${env.account.id}.${token}`)).toBe(true);
    // A cookie of before (the token alone) now counts for nothing: sign in again.
    expect(await opens(token)).toBe(false);
    expect(await opens(`${mallory.id}.${other.id}.${token}`)).toBe(false);
    expect(await opens(`${env.user.id}.${other.id}.${token}`)).toBe(false);
    expect(await opens(`${env.user.id}.-.${token}`)).toBe(false);
    expect(await opens(`${env.user.id}.${env.account.id}.${'x'.repeat(43)}`)).toBe(false);
    expect(await opens(`${env.user.id}.${env.account.id}.${token}.more`)).toBe(false);
  });

  it("refuses a POST without the form's CSRF token, with another token, or from another site", async () => {
    const env = await world();
    const post = (body: string, headers: Record<string, string> = {}) =>
      withOrigin(undefined, () =>
        createPageHandler(
          { ...route, method: 'POST' },
          'signed_in',
          async () => ({ redirect: '/dashboard' }),
          () => env.people,
        )(
          apiEvent({
            method: 'POST',
            path: '/dashboard/test',
            raw: body,
            headers: { cookie: `__Host-session=${cookieOf(env)}`, 'content-type': 'application/x-www-form-urlencoded', ...headers },
          }),
        ),
      );
    const token = env.signedIn.session.csrf_token;
    expect((await post('a=1')).statusCode).toBe(403);
    expect((await post(`csrf_token=${'x'.repeat(43)}`)).statusCode).toBe(403);
    expect((await post(`csrf_token=${token}`, { origin: 'https://evil.test' })).statusCode).toBe(403);
    expect((await post(`csrf_token=${token}`, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await post(`csrf_token=${token}`, { origin: 'https://api.example.test' })).statusCode).toBe(303);
    // Referrer-Policy no-referrer makes browsers send `Origin: null` for the page's own forms.
    expect((await post(`csrf_token=${token}`, { origin: 'null' })).statusCode).toBe(303);
    expect((await post(`csrf_token=${token}`, { 'content-type': 'text/plain' })).statusCode).toBe(415);
    // Signed in, a token of the anonymous cookie is not the session's, whoever planted the cookie.
    const planted = 'p'.repeat(43);
    const withPlanted = { cookie: `__Host-session=${cookieOf(env)}; __Host-csrf=${planted}` };
    expect((await post(`csrf_token=${planted}`, withPlanted)).statusCode).toBe(403);
    expect((await post(`csrf_token=${token}`, withPlanted)).statusCode).toBe(303);
  });

  it('shows an error page with the request id, never a stack, when a page fails', async () => {
    const env = await world();
    const failing = createPageHandler(
      route,
      'public',
      async () => {
        throw new Error('secret internals at /var/task/index.mjs');
      },
      () => env.people,
    );
    const response = await failing(apiEvent({ method: 'GET', path: '/dashboard/test', requestId: 'req-500' }));
    expect(response.statusCode).toBe(500);
    expect(response.body).toContain('req-500');
    expect(response.body).not.toContain('internals');
    expect(response.headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
  });
});

describe('a form acts only for the account and in the mode its page was shown for', () => {
  /** A page of `access` that renders its forms' token, and an action that counts what it did. */
  const pageAndAction = (env: Awaited<ReturnType<typeof world>>, access: AccessLevel, options: PageOptions = {}) => {
    const done: string[] = [];
    const handle = createPageHandler(
      { ...route, method: 'POST' },
      access,
      async (request) => {
        if (request.event.requestContext.http.method === 'GET')
          return { page: h('p', null, `token=${request.signedIn!.viewer.csrfToken}`) };
        done.push(request.form.get('what') ?? '');
        return { redirect: '/dashboard' };
      },
      () => env.people,
      options,
    );
    const cookie = (mode: 'live' | 'test') => `__Host-session=${cookieOf(env)}; __Host-mode=${mode}`;
    const open = async (mode: 'live' | 'test'): Promise<string> => {
      const page = await withOrigin(undefined, () =>
        handle(apiEvent({ method: 'GET', path: '/dashboard/test', headers: { cookie: cookie(mode) } })),
      );
      return /token=(\S+)</.exec(page.body ?? '')![1]!;
    };
    const send = (mode: 'live' | 'test', token: string, what = 'create') =>
      withOrigin(undefined, () =>
        handle(
          apiEvent({
            method: 'POST',
            path: '/dashboard/webhooks',
            raw: new URLSearchParams({ csrf_token: token, what }).toString(),
            headers: { cookie: cookie(mode), 'content-type': 'application/x-www-form-urlencoded', origin: 'null' },
          }),
        ),
      );
    return { done, open, send };
  };

  it("binds the account and mode a page shows into its forms' token", async () => {
    const env = await world();
    const { open } = pageAndAction(env, 'account');
    const csrf = env.signedIn.session.csrf_token;
    expect(await open('test')).toBe(`${env.account.id}.test.${csrf}`);
    expect(await open('live')).toBe(`${env.account.id}.live.${csrf}`);
  });

  it('refuses with 409, doing nothing, a form shown in another mode than the session is in now, and takes one of the same mode', async () => {
    const env = await world();
    const { done, open, send } = pageAndAction(env, 'account', { pageToReload: () => '/dashboard/webhooks' });
    const shownInTest = await open('test');
    // Another tab switched to live mode; then the form shown in test mode is sent.
    const refused = await send('live', shownInTest, 'create in test');
    expect(refused.statusCode).toBe(409);
    expect(done).toEqual([]);
    const text = (refused.body ?? '').replace(/<[^>]+>/g, '');
    expect(text).toContain(
      `This form was opened for the account ${env.account.id} in Test mode; you are now acting for the account ${env.account.id} in Live mode. Nothing was changed.`,
    );
    expect(refused.body).toContain('<h1>You are now in Live mode</h1>');
    expect(refused.body).toContain('<a href="/dashboard/webhooks">Reload the page</a>');
    // The page reloaded in live mode gives forms that act there.
    expect((await send('live', await open('live'), 'create in live')).statusCode).toBe(303);
    expect((await send('test', shownInTest, 'create in test')).statusCode).toBe(303);
    expect(done).toEqual(['create in live', 'create in test']);
  });

  it('refuses with 409, doing nothing, a form shown for another account than the session acts for now', async () => {
    const env = await world();
    const other = await createAccount({ email: 'other@acme.test' }, env.people);
    await createUser({ email: 'alice@acme.test', accountId: other.id, role: 'admin' }, env.people);
    const { done, open, send } = pageAndAction(env, 'account');
    const shownForFirst = await open('live');
    // Another tab chose the other account (the session cookie names it; the CSRF token stays).
    env.signedIn.session = await selectAccount(env.signedIn.session, other.id, env.people);
    const refused = await send('live', shownForFirst, 'delete');
    expect(refused.statusCode).toBe(409);
    expect(done).toEqual([]);
    expect((refused.body ?? '').replace(/<[^>]+>/g, '')).toContain(
      `This form was opened for the account ${env.account.id} in Live mode; you are now acting for the account ${other.id} in Live mode. Nothing was changed.`,
    );
    expect(refused.body).toContain('<h1>You now act for another account</h1>');
    expect(refused.body).toContain('<a href="/dashboard">Reload the page</a>');
    expect((await send('live', await open('live'), 'delete')).statusCode).toBe(303);
    expect(done).toEqual(['delete']);
  });

  it('refuses a token that names no account (a page of before) to an account, and a token of another shape as expired', async () => {
    const env = await world();
    const { done, send } = pageAndAction(env, 'account');
    const csrf = env.signedIn.session.csrf_token;
    const unbound = await send('live', csrf);
    expect(unbound.statusCode).toBe(409);
    expect(unbound.body).toContain('This form does not say which account it was opened for');
    for (const bad of [
      `${env.account.id}.sandbox.${csrf}`,
      `usr_01ARZ3NDEKTSV4RRFFQ69G5FAV.live.${csrf}`,
      `${env.account.id}.live.${'x'.repeat(43)}`,
      `${env.account.id}.live`,
      `x.${env.account.id}.live.${csrf}`,
    ]) {
      expect([bad, (await send('live', bad)).statusCode]).toEqual([bad, 403]);
    }
    expect(done).toEqual([]);
  });

  it("checks the account alone where told to, nothing on the switches' and the person's own forms", async () => {
    const env = await world();
    const accountOnly = pageAndAction(env, 'account', { formsBoundTo: 'account' });
    expect((await accountOnly.send('live', await accountOnly.open('test'))).statusCode).toBe(303);
    expect((await accountOnly.send('live', `acct_01ARZ3NDEKTSV4RRFFQ69G5FAV.live.${env.signedIn.session.csrf_token}`)).statusCode).toBe(
      409,
    );
    const modeSwitch = pageAndAction(env, 'account', { formsBoundTo: 'none' });
    expect((await modeSwitch.send('live', `acct_01ARZ3NDEKTSV4RRFFQ69G5FAV.test.${env.signedIn.session.csrf_token}`)).statusCode).toBe(303);
    // Sign-out, sessions, two-factor, the account chooser: the person's forms, sent from any page.
    const personal = pageAndAction(env, 'signed_in');
    for (const token of [
      env.signedIn.session.csrf_token,
      `acct_01ARZ3NDEKTSV4RRFFQ69G5FAV.test.${env.signedIn.session.csrf_token}`,
      await personal.open('live'),
    ]) {
      expect((await personal.send('test', token)).statusCode).toBe(303);
    }
    expect(personal.done).toHaveLength(3);
  });
});

describe('pages render text escaped, by construction', () => {
  it('an e-mail or error that holds markup is shown as text', async () => {
    const { renderToString } = await import('preact-render-to-string');
    const html = renderToString(
      SignInPage({ csrfToken: 't', email: '"><script>alert(1)</script>', error: '<img src=x onerror=alert(1)>' }),
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)>');
    expect(html).toContain('value="&quot;>&lt;script>alert(1)&lt;/script>"');
  });

  it('the sign-in form has the fields Email and Password and the button Sign in, and carries its CSRF token', async () => {
    const { renderToString } = await import('preact-render-to-string');
    const html = renderToString(SignInPage({ csrfToken: 'tok123' }));
    expect(html).toContain('<label for="field-email">Email</label>');
    expect(html).toContain('<label for="field-password">Password</label>');
    expect(html).toMatch(/<button type="submit" class="button">Sign in<\/button>/);
    expect(html).toContain('<input type="hidden" name="csrf_token" value="tok123"/>');
    const layout = renderToString(h(Layout, { title: 'T', children: h(PostForm, { action: '/x', csrfToken: 'abc', children: null }) }));
    expect(layout).toMatch(/<link rel="stylesheet" href="\/dashboard\/assets\/dashboard\.[0-9a-f]{12}\.css"\/>/);
    // One script, the hashed file of this origin; nothing inline.
    expect(layout.match(/<script[^>]*>/g)).toEqual([
      expect.stringMatching(/^<script src="\/dashboard\/assets\/dashboard\.[0-9a-f]{12}\.js" defer>$/),
    ]);
    expect(layout).not.toMatch(/<script[^>]*>[^<]|style=/);
  });
});

describe('return_to', () => {
  it("accepts this service's dashboard and authorization paths only", () => {
    expect(safeReturnPath('/dashboard/sessions')).toBe('/dashboard/sessions');
    expect(safeReturnPath('/oauth/authorize?client_id=oac_1&x=%2F%2F')).toBe('/oauth/authorize?client_id=oac_1&x=%2F%2F');
    for (const bad of [
      '//evil.test/dashboard',
      '/\\evil.test',
      'https://evil.test/dashboard',
      '/v1/projects',
      'dashboard',
      '/dashboardx',
      '/%2F%2Fevil.test',
    ]) {
      expect([bad, safeReturnPath(bad)]).toEqual([bad, undefined]);
    }
  });
});
