import { checkedFetch } from './support/contract';
import { generate } from 'otplib';
import { stylesheetPath } from '../../functions/pages/assets/paths';
import { as } from './support/http';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { paginateScan } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { entityTypes } from '../../functions/adapters/dynamodb/keys';
import { dynamoPasswordResetRequestStore, passwordResetRequestItem } from '../../functions/adapters/dynamodb/password-reset-request-store';
import { dynamoUserRepository } from '../../functions/adapters/dynamodb/user-repository';
import { outboxMailer } from '../../functions/adapters/email/outbox-mailer';
import { systemClock } from '../../functions/core/clock';
import { passwordResetEmails } from '../../functions/handlers/workers/password-reset-emails';
import { eventually } from './support/receiver';
import { runtimeTable } from './support/runtime';
import { csrfTokenIn, newPerson, origin, outboxOf, waitForMail, webClient } from './support/web-client';

/** The "forgot password" requests of `email` still in the runtime's table (the stream's function removes each it handled). */
const resetRequestsFor = async (email: string) => {
  const table = await runtimeTable();
  const items: Record<string, unknown>[] = [];
  const pages = paginateScan(
    { client: table.client },
    {
      TableName: table.tableName,
      FilterExpression: 'entity = :entity AND email = :email',
      ExpressionAttributeValues: { ':entity': entityTypes.passwordResetRequest, ':email': email },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) items.push(...(page.Items ?? []));
  return items;
};

const pageHeaders = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-opener-policy': 'same-origin',
  'content-type': 'text/html; charset=utf-8',
};

const expectPageHeaders = (headers: Headers, redirect = false) => {
  for (const [name, value] of Object.entries(pageHeaders)) {
    if (!(redirect && name === 'content-type')) expect([name, headers.get(name)]).toEqual([name, value]);
  }
  const csp = headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(headers.get('x-request-id')).toBeTruthy();
  // http://localhost: no HSTS (it would pin https on localhost for every other local app).
  expect(headers.get('strict-transport-security')).toBeNull();
};

describe('sign-in and sessions, over HTTP', () => {
  it('signs in with Email and Password: a session cookie HttpOnly, SameSite=Lax, named `session` on http://localhost', async () => {
    const person = await newPerson();
    const browser = webClient();
    const page = await browser.get('/dashboard/sign-in');
    expect(page.status).toBe(200);
    expectPageHeaders(page.headers);
    expect(page.setCookies).toEqual([expect.stringMatching(/^csrf=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=7200$/)]);
    expect(page.text).toContain('<label for="field-email">Email</label>');

    const signedIn = await browser.post('/dashboard/sign-in', {
      csrf_token: csrfTokenIn(page.text),
      email: person.email.toUpperCase(),
      password: person.password,
    });
    expect([signedIn.status, signedIn.location]).toEqual([303, '/dashboard']);
    expectPageHeaders(signedIn.headers, true);
    // The value names the user and account (where the pages read them) beside the secret token.
    expect(signedIn.setCookies).toEqual([
      expect.stringMatching(
        new RegExp(`^session=${person.user.id}\\.${person.account.id}\\.[\\w-]{43}; Path=/; HttpOnly; SameSite=Lax; Max-Age=60479\\d$`),
      ),
    ]);
    const home = await browser.get('/dashboard');
    expect(home.status).toBe(200);
    expect(home.text).toContain(person.email);
    expect(home.text).toContain(person.account.id);
    expectPageHeaders(home.headers);
  });

  it('serves the stylesheet under its hash, cached for a year', async () => {
    const css = await fetch(`${origin()}${stylesheetPath}`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await css.text()).toContain('.button');
  });

  it('answers a wrong password and an unknown e-mail alike (401), then slows the e-mail down (429 + Retry-After)', async () => {
    const person = await newPerson();
    const browser = webClient();
    const wrong = await browser.signIn(person.email, 'not the password');
    const unknown = await browser.signIn(`nobody-${Date.now()}@example.com`, 'not the password');
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    const message = (html: string) => /role="alert"[^>]*><p>([^<]+)</.exec(html)?.[1];
    expect(message(wrong.text)).toBe('The e-mail or password is not correct.');
    expect(message(unknown.text)).toBe(message(wrong.text));
    // Past five failures each try must wait, twice as long each time: wait out each due time and fail again.
    const waits: number[] = [];
    for (let attempt = 0; attempt < 12 && (waits.at(-1) ?? 0) < 8; attempt += 1) {
      const answer = await browser.signIn(person.email, 'not the password');
      if (answer.status !== 429) {
        expect(answer.status).toBe(401);
        continue;
      }
      waits.push(Number(answer.headers.get('retry-after')));
      if (waits.at(-1)! < 8) await new Promise((resolve) => setTimeout(resolve, waits.at(-1)! * 1000 + 100));
    }
    expect(waits.at(-1)).toBeGreaterThanOrEqual(8);
    expect(waits).toEqual([...waits].sort((a, b) => a - b));
    const throttled = await browser.signIn(person.email, person.password);
    expect(throttled.status).toBe(429);
    expect(throttled.text).toContain('Too many failed attempts');
  });

  it('refuses a form without its CSRF token (403), and a page behind sign-in sends the signed-out to sign-in', async () => {
    const person = await newPerson();
    const browser = webClient();
    await browser.get('/dashboard/sign-in');
    const forged = await browser.post('/dashboard/sign-in', { email: person.email, password: person.password });
    expect(forged.status).toBe(403);
    expectPageHeaders(forged.headers);
    const away = await webClient().get('/dashboard/sessions');
    expect([away.status, away.location]).toEqual([302, '/dashboard/sign-in?return_to=%2Fdashboard%2Fsessions']);
  });

  it('sign-out ends the session on the server: the old cookie opens nothing afterwards', async () => {
    const person = await newPerson();
    const browser = webClient();
    await browser.signIn(person.email, person.password);
    const sessionCookie = browser.cookies.get('session')!;
    const out = await browser.submit('/dashboard', '/dashboard/sign-out', {});
    expect([out.status, out.location]).toEqual([303, '/dashboard/sign-in?notice=signed_out']);
    expect(out.setCookies).toEqual(['session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0']);
    const replayed = await fetch(`${origin()}/dashboard`, { redirect: 'manual', headers: { Cookie: `session=${sessionCookie}` } });
    expect(replayed.status).toBe(302);
  });

  it('lists the sessions and signs out everywhere else', async () => {
    const person = await newPerson();
    const here = webClient();
    const there = webClient();
    await here.signIn(person.email, person.password);
    await there.signIn(person.email, person.password);
    const list = await here.get('/dashboard/sessions');
    expect(list.text.match(/<tr>/g)?.length).toBe(3);
    expect(list.text).toContain('this browser');
    const done = await here.post('/dashboard/sessions/sign-out', { csrf_token: csrfTokenIn(list.text), session_id: 'others' });
    expect(done.location).toBe('/dashboard/sessions?ended=others');
    expect((await there.get('/dashboard')).status).toBe(302);
    expect((await here.get('/dashboard')).status).toBe(200);
  });

  it('resets a forgotten password by an e-mailed one-time link (the local outbox), which then ends every session', async () => {
    const person = await newPerson();
    const old = webClient();
    await old.signIn(person.email, person.password);
    const browser = webClient();
    const asked = await browser.submit('/dashboard/forgot-password', '/dashboard/forgot-password', { email: person.email });
    // Answered by a redirect: a reload of the answer shows it again and sends no second e-mail.
    expect([asked.status, asked.location]).toEqual([303, '/dashboard/forgot-password?sent=1']);
    expect((await browser.get(asked.location!)).text).toContain('If a user has that e-mail address');
    const [mail] = await waitForMail(person.email);
    const link = /http:\/\/localhost:\d+\/dashboard\/set-password\?token=[\w-]+/.exec(mail!.text)![0];
    expect(link.startsWith(origin())).toBe(true);

    const form = await browser.get(link);
    expect(form.status).toBe(200);
    expect(form.headers.get('referrer-policy')).toBe('no-referrer');
    const token = new URL(link).searchParams.get('token')!;
    const weak = await browser.post('/dashboard/set-password', { csrf_token: csrfTokenIn(form.text), token, password: 'password123' });
    expect(weak.status).toBe(422);
    const set = await browser.post('/dashboard/set-password', {
      csrf_token: csrfTokenIn(form.text),
      token,
      password: 'a fresh pass phrase',
    });
    expect([set.status, set.location]).toEqual([303, '/dashboard']);
    expect((await browser.get('/dashboard')).status).toBe(200);
    expect((await old.get('/dashboard')).status).toBe(302);
    expect((await browser.get(link)).status).toBe(410);
    expect((await webClient().signIn(person.email, 'a fresh pass phrase')).status).toBe(303);
  });

  it('answers an address no user has as one a user has, and the stream then sends it nothing', async () => {
    const person = await newPerson();
    const unknown = `nobody-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    for (const email of [unknown, person.email]) {
      const asked = await webClient().submit('/dashboard/forgot-password', '/dashboard/forgot-password', { email });
      expect([asked.status, asked.location]).toEqual([303, '/dashboard/forgot-password?sent=1']);
    }
    // Both went the same way: the user's e-mail arrives, and the stream's function removed both requests.
    await waitForMail(person.email);
    await eventually(
      async () => (await resetRequestsFor(unknown)).length + (await resetRequestsFor(person.email)).length === 0,
      10_000,
      () => 'a reset request is still in the table',
    );
    expect(await outboxOf(unknown)).toEqual([]);
  });

  it('sends one e-mail for a request the stream delivers twice, and its link works', async () => {
    const person = await newPerson();
    const table = await runtimeTable();
    const resetRequests = dynamoPasswordResetRequestStore(table);
    const now = Date.now();
    const request = {
      id: randomUUID(),
      email: person.email,
      origin: origin(),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + 3_600_000).toISOString(),
    };
    await resetRequests.record(request);
    const [mail] = await waitForMail(person.email);
    await eventually(
      async () => (await resetRequestsFor(person.email)).length === 0,
      10_000,
      () => 'the request is still in the table after its e-mail',
    );
    // The same record handed over again, as a retried batch would: the function passes it over.
    const redeliver = passwordResetEmails({
      users: dynamoUserRepository(table),
      resetRequests,
      mailer: outboxMailer(join(process.env.IT_DATA_DIR as string, 'outbox'), systemClock),
      clock: systemClock,
    });
    const record = {
      eventName: 'INSERT' as const,
      dynamodb: { SequenceNumber: '1', NewImage: marshall(passwordResetRequestItem(request)) },
    };
    expect(await redeliver({ Records: [record as never] })).toEqual({ batchItemFailures: [] });
    expect(await outboxOf(person.email)).toHaveLength(1);

    const path = new URL(/http:\/\/\S+\/dashboard\/set-password\?token=[\w-]+/.exec(mail!.text)![0]);
    const browser = webClient();
    const form = await browser.get(`${path.pathname}${path.search}`);
    expect(form.status).toBe(200);
    const set = await browser.post('/dashboard/set-password', {
      csrf_token: csrfTokenIn(form.text),
      token: path.searchParams.get('token')!,
      password: 'a redelivered pass phrase',
    });
    expect([set.status, set.location]).toEqual([303, '/dashboard']);
  });

  it('turns on two-factor sign-in (TOTP, recovery codes shown once) and asks for a code at the next sign-in', async () => {
    const person = await newPerson();
    const browser = webClient();
    await browser.signIn(person.email, person.password);
    const setup = await browser.get('/dashboard/two-factor');
    const secret = /name="secret" value="([A-Z2-7]{32})"/.exec(setup.text)![1]!;
    expect(setup.text).toContain('data:image/svg+xml;base64,');
    // A session alone does not turn it on: the current password is asked too.
    const withoutPassword = await browser.post('/dashboard/two-factor/enable', {
      csrf_token: csrfTokenIn(setup.text),
      secret,
      code: await generate({ secret }),
    });
    expect(withoutPassword.status).toBe(422);
    expect(withoutPassword.text).toContain('is not your current password');
    const enabled = await browser.post('/dashboard/two-factor/enable', {
      csrf_token: csrfTokenIn(setup.text),
      secret,
      code: await generate({ secret }),
      password: person.password,
    });
    expect(enabled.status).toBe(200);
    const codes = [...enabled.text.matchAll(/<li>([a-z2-9]{5}-[a-z2-9]{5})<\/li>/g)].map((m) => m[1]!);
    expect(codes).toHaveLength(10);
    // New recovery codes too: none are made without it.
    const again = await browser.post('/dashboard/two-factor/recovery-codes', {
      csrf_token: csrfTokenIn(setup.text),
      password: 'not it at all',
    });
    expect(again.status).toBe(422);
    expect(again.text).not.toMatch(/<li>[a-z2-9]{5}-[a-z2-9]{5}<\/li>/);

    const next = webClient();
    const step = await next.signIn(person.email, person.password);
    expect([step.status, step.location]).toEqual([303, '/dashboard/sign-in/two-factor']);
    expect((await next.get('/dashboard')).location).toBe('/dashboard/sign-in/two-factor');
    const challenge = await next.get('/dashboard/sign-in/two-factor');
    // A well-formed code valid at no step the service may accept now ('000000' itself is valid about once in a million).
    const nowSeconds = Math.floor(Date.now() / 1000);
    const valid = new Set(await Promise.all([-30, 0, 30, 60].map((d) => generate({ secret, epoch: nowSeconds + d }))));
    const wrongCode = ['000000', '000001', '000002', '000003', '000004'].find((c) => !valid.has(c))!;
    expect((await next.post('/dashboard/sign-in/two-factor', { csrf_token: csrfTokenIn(challenge.text), code: wrongCode })).status).toBe(
      401,
    );
    const halfway = next.cookies.get('session')!;
    const done = await next.post('/dashboard/sign-in/two-factor', { csrf_token: csrfTokenIn(challenge.text), code: codes[0]! });
    expect([done.status, done.location]).toEqual([303, '/dashboard']);
    // A new session's cookie: a new token, naming the account and living as long as the full session.
    expect(done.setCookies).toEqual([
      expect.stringMatching(new RegExp(`^session=${person.user.id}\\.${person.account.id}\\.[\\w-]{43}; .*Max-Age=60479\\d$`)),
    ]);
    const tokenOf = (cookie: string) => cookie.split('.')[2];
    expect(tokenOf(next.cookies.get('session')!)).not.toBe(tokenOf(halfway));
    expect((await next.get('/dashboard')).status).toBe(200);
    // The cookie from before the second factor opens nothing: not the dashboard, not the second step (it is signed out).
    const replayed = await fetch(`${origin()}/dashboard`, { redirect: 'manual', headers: { Cookie: `session=${halfway}` } });
    expect([replayed.status, replayed.headers.get('location')]).toEqual([302, '/dashboard/sign-in?return_to=%2Fdashboard']);
  });

  it('keeps pages off the API: a session cookie is no credential for /v1', async () => {
    const person = await newPerson();
    const browser = webClient();
    await browser.signIn(person.email, person.password);
    const answer = await checkedFetch()(`${origin()}/v1/projects`, { headers: { Cookie: `session=${browser.cookies.get('session')}` } });
    expect(answer.status).toBe(401);
    expect((await as(person.live.key).get('/projects')).status).toBe(200);
  });
});
