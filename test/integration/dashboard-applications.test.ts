import { createUser } from '../../functions/core/users/manage-users';
import { answerConsent, oauthApp } from './support/oauth-app';
import { csrfTokenIn, newPerson, webClient } from './support/web-client';

const kept = 'https://ci.example.com/oauth/callback';
const dropped = 'https://old.ci.example.com/oauth/callback';

/** A signed-in person of a fresh account. */
const signedIn = async (role: 'admin' | 'viewer' = 'admin') => {
  const person = await newPerson({ role });
  const client = webClient();
  expect((await client.signIn(person.email, person.password)).status).toBe(303);
  return { person, client };
};

/** An application registered through the dashboard's form: its client id and secret from the answer. */
const registerInDashboard = async (vendor: Awaited<ReturnType<typeof signedIn>>) => {
  const created = await vendor.client.submit('/dashboard/developers/applications', '/dashboard/developers/applications', {
    name: 'CI Bot',
    redirect_uris: `${kept}\n${dropped}`,
  });
  expect(created.status).toBe(200);
  return { id: /oac_[0-9A-Za-z]+/.exec(created.text)![0], client_secret: /svc_oacs_[0-9A-Za-z]+/.exec(created.text)![0] };
};

describe('editing an OAuth application in the dashboard', () => {
  it('takes effect on the next authorization request: a redirect URI taken off is refused, the new name shown', async () => {
    const vendor = await signedIn();
    const registered = await registerInDashboard(vendor);
    const customer = await signedIn();
    const viaDropped = await oauthApp(registered, dropped);
    const before = await answerConsent(customer.client, (await viaDropped.start('read:projects')).url);
    expect(before.redirect.origin + before.redirect.pathname).toBe(dropped);

    const page = `/dashboard/developers/applications/${registered.id}`;
    const form = await vendor.client.get(page);
    expect(form.status).toBe(200);
    expect(form.text).toContain(`${kept}\n${dropped}</textarea>`);
    const saved = await vendor.client.post(page, { csrf_token: csrfTokenIn(form.text), name: 'CI Bot 2', redirect_uris: kept });
    expect([saved.status, saved.location]).toEqual([303, `${page}?done=saved`]);

    const again = (await viaDropped.start('read:projects')).url;
    const refused = await customer.client.get(`${again.pathname}${again.search}`);
    expect(refused.status).toBe(400);
    expect(refused.location).toBeNull();
    expect(refused.text).toContain('not one that CI Bot 2 registered');
    const viaKept = await oauthApp(registered, kept);
    const pending = await viaKept.start('read:projects write:projects');
    const consent = await customer.client.get(`${pending.url.pathname}${pending.url.search}`);
    expect(consent.status).toBe(200);
    expect(consent.text).toContain('CI Bot 2');
    const allowed = await answerConsent(customer.client, pending.url);
    const tokens = await viaKept.finish(allowed.redirect, pending);
    expect(tokens.scope).toBe('read:projects write:projects');

    const audit = await vendor.client.get('/dashboard/audit-log');
    expect(audit.text).toContain('oauth.client_updated');
  });

  it('applies the rules of registration, with each problem beside its field, and changes nothing', async () => {
    const vendor = await signedIn();
    const registered = await registerInDashboard(vendor);
    const page = `/dashboard/developers/applications/${registered.id}`;
    const answer = await vendor.client.submit(page, page, {
      name: '',
      redirect_uris: 'http://ci.example.com/cb\nhttps://ci.example.com/*',
    });
    expect(answer.status).toBe(422);
    expect(answer.text).toMatch(/id="field-name"[^>]*aria-invalid="true"/);
    expect(answer.text).toContain('id="field-name-error">must be 1 to 100 characters, without control characters</div>');
    expect(answer.text).toContain('aria-invalid="true" aria-describedby="field-redirect_uris-hint field-redirect_uris-error"');
    expect(answer.text).toContain('https://ci.example.com/* must be exact: no wildcards');
    // What was sent is shown again to correct; what is stored did not move.
    expect(answer.text).toContain('http://ci.example.com/cb\nhttps://ci.example.com/*</textarea>');
    const stored = await vendor.client.get(page);
    expect(stored.text).toContain(`${kept}\n${dropped}</textarea>`);
  });

  it('is refused to a viewer on the server (403), and another account does not find the application (404)', async () => {
    const vendor = await signedIn();
    const registered = await registerInDashboard(vendor);
    const page = `/dashboard/developers/applications/${registered.id}`;
    // A viewer of the same account reads the application, without the form, and is refused the edit.
    const password = 'a viewer pass phrase 1';
    const { user } = await createUser(
      { email: `viewer-${Date.now()}@example.com`, accountId: vendor.person.account.id, role: 'viewer', password },
      vendor.person.deps,
    );
    const viewer = webClient();
    expect((await viewer.signIn(user.email, password)).status).toBe(303);
    const shown = await viewer.get(page);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Only an admin of the account can edit an application.');
    const refused = await viewer.post(page, { csrf_token: csrfTokenIn(shown.text), name: 'Viewer edit', redirect_uris: kept });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Only an admin of the account can do this');
    const stranger = await signedIn();
    const strangerToken = csrfTokenIn((await stranger.client.get('/dashboard/developers/applications')).text);
    expect((await stranger.client.get(page)).status).toBe(404);
    expect((await stranger.client.post(page, { csrf_token: strangerToken, name: 'Mine now', redirect_uris: kept })).status).toBe(404);
    const missing = await vendor.client.post(page, { name: 'No token', redirect_uris: kept });
    expect(missing.status).toBe(403);
    expect((await vendor.client.get(page)).text).toContain('<h1>CI Bot</h1>');
  });
});
