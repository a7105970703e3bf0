import { createUser } from '../../functions/core/users/manage-users';
import { as } from './support/http';
import { newAccount } from './support/runtime';
import { fixtureRepository } from './support/workflows';
import { csrfTokenIn, formFieldsIn, newPerson, outboxOf, type WebClient, webClient } from './support/web-client';

/**
 * A dashboard form acts only for the account and in the mode its page was shown for: sent after
 * another tab switched either (one browser, one session, one mode cookie), it changes nothing.
 */
describe('dashboard forms and the account and mode they were shown for', () => {
  const signedInClient = async () => {
    const person = await newPerson();
    const client = webClient();
    expect((await client.signIn(person.email, person.password)).status).toBe(303);
    return { person, client };
  };

  /** What "another tab" does: opens a page and flips the switch on it. */
  const switchMode = async (client: WebClient, mode: 'live' | 'test') => {
    const switched = await client.submit('/dashboard', '/dashboard/mode', { mode, return_to: '/dashboard' });
    expect(switched.status).toBe(303);
  };

  const textOf = (html: string): string => html.replace(/<[^>]+>/g, '');
  const reloadLinkIn = (html: string): string | undefined => /<a href="([^"]+)">Reload the page<\/a>/.exec(html)?.[1];

  it('a creation shown in Test mode and sent after another tab switched to Live creates nothing (409); sent in Test mode it creates there', async () => {
    const { person, client } = await signedInClient();
    const accountId = person.account.id;
    const keysPath = '/dashboard/developers/api-keys';
    await switchMode(client, 'test');
    const projectForm = formFieldsIn((await client.get('/dashboard/projects')).text, '/dashboard/projects', 'Create a project');
    const webhookForm = formFieldsIn((await client.get('/dashboard/webhooks')).text, '/dashboard/webhooks', 'Add an endpoint');
    const keyForm = formFieldsIn((await client.get(keysPath)).text, keysPath, 'Create a key');
    const webhook = { ...webhookForm, url: 'http://127.0.0.1:9/shown-in-test', events: '*' };
    const key = { ...keyForm, name: 'shown in test', type: 'test', scopes: 'read:projects' };

    const project = { ...projectForm, name: 'Shown in test', repository: (await fixtureRepository()).url, description: '' };
    const projectsIn = async (mode: 'live' | 'test') =>
      (await as(person[mode].key).get('/projects')).body.data.map((p: { name: string }) => p.name);

    await switchMode(client, 'live');
    const projectRefused = await client.post('/dashboard/projects', project);
    expect(projectRefused.status).toBe(409);
    expect(projectRefused.text).toContain('<h1>You are now in Live mode</h1>');
    expect(reloadLinkIn(projectRefused.text)).toBe('/dashboard/projects');
    expect(await projectsIn('live')).toEqual([]);
    expect(await projectsIn('test')).toEqual([]);
    const refused = await client.post('/dashboard/webhooks', webhook);
    expect(refused.status).toBe(409);
    expect(textOf(refused.text)).toContain(
      `This form was opened for the account ${accountId} in Test mode; you are now acting for the account ${accountId} in Live mode. Nothing was changed.`,
    );
    expect(reloadLinkIn(refused.text)).toBe('/dashboard/webhooks');
    const keyRefused = await client.post(keysPath, key);
    expect(keyRefused.status).toBe(409);
    expect(keyRefused.text).not.toMatch(/svc_(test|live)_/);
    expect((await as(person.live.key).get('/webhooks')).body.data).toEqual([]);
    expect((await as(person.test.key).get('/webhooks')).body.data).toEqual([]);
    expect((await client.get(keysPath)).text).not.toContain('shown in test');

    // Switched back to Test mode, the same forms act there, once each (the refusal spent nothing).
    await switchMode(client, 'test');
    expect((await client.post('/dashboard/projects', project)).status).toBe(303);
    expect(await projectsIn('test')).toEqual(['Shown in test']);
    expect(await projectsIn('live')).toEqual([]);
    const created = await client.post('/dashboard/webhooks', webhook);
    expect(created.status).toBe(200);
    expect((await as(person.test.key).get('/webhooks')).body.data).toEqual([
      expect.objectContaining({ url: 'http://127.0.0.1:9/shown-in-test' }),
    ]);
    expect((await as(person.live.key).get('/webhooks')).body.data).toEqual([]);
    const keyCreated = await client.post(keysPath, key);
    expect(keyCreated.status).toBe(200);
    expect(keyCreated.text).toMatch(/svc_test_[0-9A-Za-z]+/);
  });

  it('actions shown for one account and sent after another tab chose another do nothing (409); sent for their account they act', async () => {
    const { person, client } = await signedInClient();
    const first = person.account.id;
    const other = await newAccount();
    await createUser({ email: person.email, accountId: other.account.id, role: 'admin' }, person.deps);
    // The chooser's form names the account it switches to: one page of it serves every switch.
    const chooser = formFieldsIn((await client.get('/dashboard/accounts')).text, '/dashboard/accounts');
    const choose = async (accountId: string) =>
      expect((await client.post('/dashboard/accounts', { ...chooser, account_id: accountId })).status).toBe(303);
    await choose(first);

    const project = (await as(person.live.key).post('/projects', { name: 'Kept', repository: (await fixtureRepository()).url })).body.data;
    const projectPath = `/dashboard/projects/${project.id}`;
    const deletion = formFieldsIn((await client.get(projectPath)).text, `${projectPath}/delete`);
    // Without the script, a deletion is confirmed on a page of the server's: that page is for this account too.
    const asked = await client.post(`${projectPath}/delete`, deletion);
    expect(asked.status).toBe(200);
    const confirmed = formFieldsIn(asked.text, `${projectPath}/delete`);
    expect(confirmed.confirmed).toBe('yes');
    const invitee = `invitee-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const invitation = {
      ...formFieldsIn((await client.get('/dashboard/team')).text, '/dashboard/team', 'Invite someone'),
      email: invitee,
      role: 'viewer',
    };

    await choose(other.account.id);
    // The team's forms are bound to the account alone (the team is the same in either mode): the page says no mode.
    for (const [path, form, reload, inMode] of [
      [`${projectPath}/delete`, { ...deletion, confirmed: 'yes' }, projectPath, ' in Live mode'],
      [`${projectPath}/delete`, confirmed, projectPath, ' in Live mode'],
      ['/dashboard/team', invitation, '/dashboard/team', ''],
    ] as const) {
      const refused = await client.post(path, form);
      expect([path, refused.status]).toEqual([path, 409]);
      expect(textOf(refused.text)).toContain(
        `This form was opened for the account ${first}${inMode}; you are now acting for the account ${other.account.id}${inMode}. Nothing was changed.`,
      );
      expect(reloadLinkIn(refused.text)).toBe(reload);
    }
    expect((await as(person.live.key).get(`/projects/${project.id}`)).status).toBe(200);
    expect((await client.get('/dashboard/team')).text).not.toContain(invitee);

    // Back in the first account, the same forms act there.
    await choose(first);
    expect((await client.post('/dashboard/team', invitation)).status).toBe(303);
    expect((await client.get('/dashboard/team')).text).toContain(invitee);
    expect((await client.post(`${projectPath}/delete`, confirmed)).status).toBe(303);
    expect((await as(person.live.key).get(`/projects/${project.id}`)).status).toBe(404);
    await choose(other.account.id);
    expect((await client.get('/dashboard/team')).text).not.toContain(invitee);
  });

  it("the account's own pages (Team, Applications, Authorized applications) act from a page of the other mode, and a form sent twice acts once", async () => {
    const { client } = await signedInClient();
    const applicationsPath = '/dashboard/developers/applications';
    await switchMode(client, 'test');
    const invitee = `invitee-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const invitation = {
      ...formFieldsIn((await client.get('/dashboard/team')).text, '/dashboard/team', 'Invite someone'),
      email: invitee,
      role: 'viewer',
    };
    const registration = {
      ...formFieldsIn((await client.get(applicationsPath)).text, applicationsPath, 'Register an application'),
      name: 'Shown in test',
      redirect_uris: 'http://127.0.0.1:9/callback',
    };
    const authorized = (await client.get('/dashboard/developers/authorized-applications')).text;

    await switchMode(client, 'live');
    expect((await client.post('/dashboard/team', invitation)).status).toBe(303);
    expect((await client.get('/dashboard/team')).text).toContain(invitee);
    const registered = await client.post(applicationsPath, registration);
    expect(registered.status).toBe(200);
    expect(registered.text).toMatch(/svc_oacs_[0-9A-Za-z]+/);
    const applicationId = /oac_[0-9A-Za-z]+/.exec(registered.text)![0];
    // Without the script, a revocation asks first: the question, not a refusal, answers the form shown in Test mode.
    const revoke = `/dashboard/developers/authorized-applications/${applicationId}/revoke`;
    const asked = await client.post(revoke, { csrf_token: csrfTokenIn(authorized) });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Revoke this application?');

    // Sent again (the back button) after switching back, the registration is the same form: refused, made once.
    await switchMode(client, 'test');
    const again = await client.post(applicationsPath, registration);
    expect(again.status).toBe(409);
    expect(again.text).toContain('This form was already sent');
    expect(again.text).not.toMatch(/svc_oacs_/);
    const listed = (await client.get(applicationsPath)).text.match(/oac_[0-9A-Za-z]+/g) ?? [];
    expect(new Set(listed)).toEqual(new Set([applicationId]));
    expect(await outboxOf(invitee)).toHaveLength(1);
  });

  it("the mode switch, the person's own forms and Sign out work from a page of another mode", async () => {
    const { person, client } = await signedInClient();
    const other = webClient();
    expect((await other.signIn(person.email, person.password)).status).toBe(303);
    const page = (await client.get('/dashboard')).text;
    const sessionsPage = (await client.get('/dashboard/sessions')).text;
    await switchMode(client, 'test');

    // The switch names the mode it turns to (test, from a live page): the same as now, and it goes.
    const switched = await client.post('/dashboard/mode', formFieldsIn(page, '/dashboard/mode'));
    expect(switched.status).toBe(303);
    expect((await client.get('/dashboard')).text).toContain('Test data');
    const signedOutElsewhere = await client.post('/dashboard/sessions/sign-out', {
      ...formFieldsIn(sessionsPage, '/dashboard/sessions/sign-out'),
      session_id: 'others',
    });
    expect(signedOutElsewhere.status).toBe(303);
    expect((await other.get('/dashboard')).status).toBe(302);
    expect((await client.post('/dashboard/sign-out', formFieldsIn(page, '/dashboard/sign-out'))).status).toBe(303);
    expect((await client.get('/dashboard')).location).toMatch(/^\/dashboard\/sign-in/);
  });
});
