import { dynamoWebhookRepository } from '../../functions/adapters/dynamodb/webhook-repository';
import { as } from './support/http';
import { runtimeTable } from './support/runtime';
import { eventually } from './support/receiver';
import { fixtureRepository } from './support/workflows';
import { csrfTokenIn, formFieldsIn, newPerson, outboxOf, waitForMail, webClient } from './support/web-client';

/**
 * The dashboard's pages over HTTP, as a browser without a browser: the rules that hold whatever
 * the page shows (CSRF on every form, viewers refused on the server, secrets never in an address).
 */
describe('dashboard pages over HTTP', () => {
  const signedInClient = async (role: 'admin' | 'viewer' = 'admin') => {
    const person = await newPerson({ role });
    const client = webClient();
    const answer = await client.signIn(person.email, person.password);
    expect(answer.status).toBe(303);
    return { person, client };
  };

  it('refuses a form without its CSRF token, and one with another session’s token (403), changing nothing', async () => {
    const { person, client } = await signedInClient();
    const missing = await client.post('/dashboard/developers/api-keys', { name: 'no token', type: 'live', scopes: 'read:projects' });
    expect(missing.status).toBe(403);
    expect(missing.text).toContain('This form has expired');

    const other = await signedInClient();
    const foreignToken = csrfTokenIn((await other.client.get('/dashboard/developers/api-keys')).text);
    const foreign = await client.post('/dashboard/developers/api-keys', {
      csrf_token: foreignToken,
      name: 'foreign token',
      type: 'live',
      scopes: 'read:projects',
    });
    expect(foreign.status).toBe(403);

    const page = await client.get('/dashboard/developers/api-keys');
    expect(page.text).not.toContain('no token');
    expect(page.text).not.toContain('foreign token');
    expect((await as(person.live.key).get('/projects')).status).toBe(200);
  });

  it('every page answers with the security headers; the script may fetch only this origin', async () => {
    const { client } = await signedInClient();
    for (const path of ['/dashboard', '/dashboard/projects', '/dashboard/webhooks', '/dashboard/developers/api-keys', '/dashboard/team']) {
      const answer = await client.get(path);
      expect([path, answer.status]).toEqual([path, 200]);
      const csp = answer.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it("answers a method a dashboard address does not take with the dashboard's HTML 405 page and Allow, as its 404", async () => {
    const { client } = await signedInClient();
    const notFound = await client.get('/dashboard/nonexistent');
    for (const [method, path, allow] of [
      ['PUT', '/dashboard/projects', 'GET, POST'],
      ['DELETE', '/dashboard/developers/api-keys', 'GET, POST'],
      ['PATCH', '/dashboard', 'GET'],
    ] as const) {
      const answer = await client.request(method, path);
      expect([method, path, answer.status, answer.headers.get('allow')]).toEqual([method, path, 405, allow]);
      // The same kind of page as the 404: HTML, the pages' headers, the way back to the dashboard.
      for (const header of ['content-type', 'content-security-policy', 'cache-control', 'referrer-policy'])
        expect([header, answer.headers.get(header)]).toEqual([header, notFound.headers.get(header)]);
      expect(answer.text).toMatch(/^<!doctype html>/);
      expect(answer.text).toContain(`This address of the dashboard takes ${allow.replace(', ', ' and ')}, not ${method}`);
      expect(answer.text).toContain(answer.headers.get('x-request-id'));
      expect(answer.text).toContain('href="/dashboard"');
    }
    // The page still answers its own methods.
    expect((await client.get('/dashboard/projects')).status).toBe(200);
  });

  it('shows a new key in the answer to the form only, never in an address', async () => {
    const { client } = await signedInClient();
    const created = await client.submit('/dashboard/developers/api-keys', '/dashboard/developers/api-keys', {
      name: 'once',
      type: 'test',
      scopes: 'read:projects',
    });
    expect(created.status).toBe(200);
    expect(created.location).toBeNull();
    const key = /svc_test_[0-9A-Za-z]+/.exec(created.text)?.[0] ?? '';
    expect((await as(key).get('/projects')).status).toBe(200);
    expect((await client.get('/dashboard/developers/api-keys')).text).not.toContain(key);
  });

  it('makes a key or a secret once per form: a form sent again (a reload, a second click) is refused with 409 and makes nothing', async () => {
    const { client } = await signedInClient();
    const keysPath = '/dashboard/developers/api-keys';
    const keyRows = async () =>
      [...(await client.get(keysPath)).text.matchAll(/<tr>[\s\S]*?<\/tr>/g)].filter((row) => row[0].includes('resent-key-1'));

    // A form corrected after a refusal (422) is the same form: it may still take effect, once.
    const form = formFieldsIn((await client.get(keysPath)).text, keysPath);
    expect(form.form_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await client.post(keysPath, { ...form, name: '', type: 'test', scopes: 'read:projects' })).status).toBe(422);
    const created = await client.post(keysPath, { ...form, name: 'resent-key-1', type: 'test', scopes: 'read:projects' });
    expect(created.status).toBe(200);
    expect(created.text).toMatch(/svc_test_[0-9A-Za-z]+/);
    const again = await client.post(keysPath, { ...form, name: 'resent-key-1', type: 'test', scopes: 'read:projects' });
    expect(again.status).toBe(409);
    expect(again.text).toContain('This form was already sent');
    expect(again.text).not.toMatch(/svc_test_[0-9A-Za-z]+/);
    expect(await keyRows()).toHaveLength(1);

    // A rotation confirmed on the server's own page (no script) carries the form's id through it.
    // Test mode: a loopback webhook nothing listens on (a rotation sends nothing).
    await client.submit('/dashboard/webhooks', '/dashboard/mode', { mode: 'test', return_to: '/dashboard/webhooks' });
    const webhook = await client.submit('/dashboard/webhooks', '/dashboard/webhooks', { url: 'http://127.0.0.1:9/once', events: '*' });
    expect(webhook.status).toBe(200);
    const webhookPath = /href="(\/dashboard\/webhooks\/wh_[0-9A-Z]+)"/.exec((await client.get('/dashboard/webhooks')).text)![1]!;
    const rotate = formFieldsIn((await client.get(webhookPath)).text, `${webhookPath}/rotate-secret`);
    const asked = await client.post(`${webhookPath}/rotate-secret`, rotate);
    expect(asked.status).toBe(200);
    const confirmed = formFieldsIn(asked.text, `${webhookPath}/rotate-secret`);
    expect(confirmed).toMatchObject({ form_id: rotate.form_id, confirmed: 'yes' });
    const rotated = await client.post(`${webhookPath}/rotate-secret`, confirmed);
    expect(rotated.status).toBe(200);
    expect(rotated.text).toMatch(/whsec_[A-Za-z0-9_-]{43}/);
    const resent = await client.post(`${webhookPath}/rotate-secret`, confirmed);
    expect(resent.status).toBe(409);
    expect(resent.text).not.toMatch(/whsec_/);
  });

  it('saving an edit of a failed webhook keeps it failed: Re-enable, or ticking Active on a paused one, re-enables it', async () => {
    const { person, client } = await signedInClient();
    await client.submit('/dashboard/webhooks', '/dashboard/mode', { mode: 'test', return_to: '/dashboard/webhooks' });
    const api = as(person.test.key);
    const hook = (await api.post('/webhooks', { url: 'http://127.0.0.1:9/down', events: ['*'] })).body.data;
    // Failed, as the dispatcher fails a webhook after a delivery's last attempt.
    const now = new Date().toISOString();
    const tenant = { accountId: person.account.id, mode: 'test' as const };
    await dynamoWebhookRepository(await runtimeTable()).update(tenant, hook.id, { status: 'failed', failed_at: now }, now);
    const path = `/dashboard/webhooks/${hook.id}`;
    const edit = { url: 'http://127.0.0.1:9/mended', events: '*', description: 'mended' };

    // Active stays ticked as the form showed it: the edit is saved, and the webhook stays failed.
    const opened = formFieldsIn((await client.get(path)).text, path, 'Edit the webhook');
    const saved = await client.post(path, { ...opened, ...edit, active: 'true' });
    expect([saved.status, saved.location]).toEqual([303, `${path}?done=saved`]);
    expect((await api.get(`/webhooks/${hook.id}`)).body.data).toMatchObject({ ...edit, events: ['*'], active: true, status: 'failed' });
    expect((await api.get('/events?type=webhook.enabled')).body.data).toEqual([]);

    // Paused meanwhile; ticking Active again is the person's own change: it re-enables the webhook.
    expect((await api.patch(`/webhooks/${hook.id}`, { active: false })).status).toBe(200);
    const paused = formFieldsIn((await client.get(path)).text, path, 'Edit the webhook');
    const resumed = await client.post(path, { ...paused, ...edit, active: 'true' });
    expect(resumed.status).toBe(303);
    expect((await api.get(`/webhooks/${hook.id}`)).body.data).toMatchObject({ active: true, status: 'enabled', failed_at: null });
    expect((await api.get('/events?type=webhook.enabled')).body.data).toHaveLength(1);
  });

  it("Home's counts are the API's: open critical findings after a scan, each a link to the filtered list", async () => {
    const { person, client } = await signedInClient();
    const api = as(person.live.key);
    const token = ['ghp', '_', 'Hm4', 'q7T'.repeat(2), 'Pz8sK2wL5nB3vC9xD1fG6hJ0kA4e'].join('').slice(0, 40);
    const repository = await fixtureRepository({ 'config/deploy.js': `export const github = '${token}';\n`, 'README.md': '# Deploy\n' });
    const project = (await api.post('/projects', { name: 'Counted', repository: repository.url })).body.data;
    const openCritical = /stat__value">(\d+)<\/span><span class="stat__label">Open critical findings/;
    expect(openCritical.exec((await client.get('/dashboard')).text)?.[1]).toBe('0');

    const scan = (await api.post('/security/scans', { project_id: project.id, scan_types: ['secrets'] })).body.data;
    await eventually(
      async () => ['completed', 'failed'].includes((await api.get(`/security/scans/${scan.id}`)).body.data.status) || undefined,
      60_000,
      () => `scan ${scan.id} did not finish`,
      100,
    );
    const total = (await api.get('/security/findings?severity=critical&status=open&per_page=1')).body.meta.total;
    expect(total).toBeGreaterThan(0);
    const home = (await client.get('/dashboard')).text;
    expect(openCritical.exec(home)?.[1]).toBe(String(total));
    expect(home).toContain('href="/dashboard/security?severity=critical&amp;status=open"');
  });

  it('refuses admin-only actions to a viewer on the server (403), whatever the page showed', async () => {
    const { client } = await signedInClient('viewer');
    const token = csrfTokenIn((await client.get('/dashboard/projects')).text);
    for (const [path, form] of [
      ['/dashboard/projects', { name: 'Nope', repository: 'https://github.com/acme/nope' }],
      ['/dashboard/webhooks', { url: 'https://hooks.example.com/x', events: '*' }],
      ['/dashboard/developers/applications', { name: 'Nope', redirect_uris: 'https://app.example.com/cb' }],
      ['/dashboard/team', { email: 'someone@example.com', role: 'admin' }],
    ] as const) {
      const answer = await client.post(path, { csrf_token: token, ...form });
      expect([path, answer.status]).toEqual([path, 403]);
    }
    expect((await client.get('/dashboard/audit-log')).status).toBe(403);
  });

  it('refuses a viewer before asking: revoking or rolling a key that can write is a 403, never a confirmation page', async () => {
    const viewer = await signedInClient('viewer');
    const token = csrfTokenIn((await viewer.client.get('/dashboard/developers/api-keys')).text);
    for (const action of ['revoke', 'roll']) {
      const answer = await viewer.client.post(`/dashboard/developers/api-keys/${viewer.person.live.id}/${action}`, { csrf_token: token });
      expect([action, answer.status]).toEqual([action, 403]);
      expect(answer.text).toContain('A viewer can manage only the keys they made with read:* scopes');
    }
    expect((await as(viewer.person.live.key).get('/projects')).status).toBe(200);
  });

  describe('the actions of workflows, findings, deployments and webhooks', () => {
    const actions = (webhookId: string) => [
      '/dashboard/workflows/wf_00000000000000000000000000/cancel',
      '/dashboard/security/findings/fnd_00000000000000000000000000/remediate',
      '/dashboard/deployments/dep_00000000000000000000000000/rollback',
      `/dashboard/webhooks/${webhookId}/deliveries/dlv_00000000000000000000000000/redeliver`,
      `/dashboard/webhooks/${webhookId}/recover`,
    ];
    /** A test-mode webhook on a loopback address nothing listens on: these tests deliver nothing. */
    const webhookOf = async (person: { test: { key: string } }): Promise<string> =>
      (await as(person.test.key).post('/webhooks', { url: 'http://127.0.0.1:9/in', events: ['workflow.completed'] })).body.data.id;

    it('refuse a form without its CSRF token, and refuse a viewer even with one (403)', async () => {
      const admin = await signedInClient();
      for (const path of actions(await webhookOf(admin.person))) {
        const answer = await admin.client.post(path, { confirmed: 'yes', since: '2026-01-01T00:00' });
        expect([path, answer.status]).toEqual([path, 403]);
      }
      const viewer = await signedInClient('viewer');
      const token = csrfTokenIn((await viewer.client.get('/dashboard/projects')).text);
      for (const path of actions(await webhookOf(viewer.person))) {
        const answer = await viewer.client.post(path, { csrf_token: token, confirmed: 'yes', since: '2026-01-01T00:00' });
        expect([path, answer.status]).toEqual([path, 403]);
        expect(answer.text).toContain('Only an admin of the account can do this');
        // Told inside the dashboard's navigation, with the way back to the page the action belongs to.
        expect(answer.text).toContain('aria-label="Dashboard"');
      }
      const backOf = async (path: string) =>
        /<a href="([^"]+)">Back to the page<\/a>/.exec((await viewer.client.post(path, { csrf_token: token, confirmed: 'yes' })).text)?.[1];
      const [cancel, remediate, rollback, redeliver, recover] = actions(await webhookOf(viewer.person));
      expect(await backOf(cancel!)).toBe('/dashboard/workflows/wf_00000000000000000000000000');
      expect(await backOf(remediate!)).toBe('/dashboard/security/findings/fnd_00000000000000000000000000');
      expect(await backOf(rollback!)).toBe('/dashboard/deployments/dep_00000000000000000000000000');
      expect(await backOf(redeliver!)).toBe(recover!.replace(/\/recover$/, ''));
      // And the pages offer a viewer none of those forms.
      await viewer.client.submit('/dashboard/webhooks', '/dashboard/mode', { mode: 'test', return_to: '/dashboard/webhooks' });
      const webhookPage = (await viewer.client.get(recover!.replace(/\/recover$/, ''))).text;
      expect(webhookPage).toContain('Delivery log');
      for (const form of ['Send test event', 'Recover missed deliveries', 'Rotate secret', 'Edit the webhook', '/delete']) {
        expect([form, webhookPage.includes(form)]).toEqual([form, false]);
      }
      expect((await viewer.client.get('/dashboard/webhooks')).text).not.toContain('Add an endpoint');
    });

    it('ask before cancelling or rolling back, then reach the same use cases as the API', async () => {
      const { person, client } = await signedInClient();
      await client.submit('/dashboard/projects', '/dashboard/mode', { mode: 'test', return_to: '/dashboard/projects' });
      const token = csrfTokenIn((await client.get('/dashboard/projects')).text);
      const [cancel, remediate, rollback, redeliver, recover] = actions(await webhookOf(person));
      const asked = await client.post(cancel!, { csrf_token: token });
      expect(asked.status).toBe(200);
      expect(asked.text).toContain('Cancel this workflow?');
      expect((await client.post(rollback!, { csrf_token: token })).text).toContain('Roll back to the previous deployment');
      for (const path of [cancel!, remediate!, rollback!, redeliver!]) {
        const answer = await client.post(path, { csrf_token: token, confirmed: 'yes' });
        expect([path, answer.status]).toEqual([path, 404]);
      }
      expect((await client.post(recover!, { csrf_token: token, since: 'yesterday' })).status).toBe(422);
      const nothing = await client.post(recover!, { csrf_token: token, since: '2026-01-01T00:00' });
      expect(nothing.status).toBe(303);
      expect((await client.get(nothing.location!)).text).toContain('Nothing to recover');
    });
  });

  it("refuses an edit saved after someone else's (409), keeps the edits in the form, and saves them over it the second time", async () => {
    const { person, client } = await signedInClient();
    const api = as(person.live.key);
    const project = (await api.post('/projects', { name: 'Shop', repository: 'https://github.com/acme/shop' })).body.data;
    const path = `/dashboard/projects/${project.id}`;
    const hiddenFields = (html: string) => formFieldsIn(html, path, 'Edit the project');
    const edit = { name: 'Shop', repository: 'https://github.com/acme/shop', description: 'Mine' };

    const opened = hiddenFields((await client.get(path)).text);
    expect(opened.etag).toMatch(/^"[0-9a-f]{64}"$/);
    await api.patch(`/projects/${project.id}`, { description: 'Theirs' });
    const refused = await client.post(path, { ...opened, ...edit });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('Someone else changed this after you opened the page');
    expect(refused.text).toContain('value="Mine"');
    expect((await api.get(`/projects/${project.id}`)).body.data.description).toBe('Theirs');

    const saved = await client.post(path, { ...hiddenFields(refused.text), ...edit });
    expect([saved.status, saved.location]).toEqual([303, `${path}?done=saved`]);
    expect((await api.get(`/projects/${project.id}`)).body.data.description).toBe('Mine');
  });

  it('after a conflict, the form shows the other change in the fields this person left: saving again keeps both', async () => {
    const { person, client } = await signedInClient();
    const api = as(person.live.key);
    const project = (await api.post('/projects', { name: 'Shop', repository: 'https://github.com/acme/shop' })).body.data;
    const path = `/dashboard/projects/${project.id}`;
    const opened = formFieldsIn((await client.get(path)).text, path, 'Edit the project');
    await api.patch(`/projects/${project.id}`, { description: 'set by a colleague' });
    // This person renamed it and left the description as the form showed it (empty).
    const refused = await client.post(path, { ...opened, name: 'Shop 2', repository: project.repository, description: '' });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('value="Shop 2"');
    expect(refused.text).toContain('value="set by a colleague"');
    const again = formFieldsIn(refused.text, path, 'Edit the project');
    const saved = await client.post(path, { ...again, name: 'Shop 2', repository: project.repository, description: 'set by a colleague' });
    expect(saved.status).toBe(303);
    expect((await api.get(`/projects/${project.id}`)).body.data).toMatchObject({ name: 'Shop 2', description: 'set by a colleague' });
  });

  it("refuses a webhook's edit saved after a change made meanwhile (a rotation), changing nothing", async () => {
    const { person, client } = await signedInClient();
    const api = as(person.test.key);
    await client.submit('/dashboard/webhooks', '/dashboard/mode', { mode: 'test', return_to: '/dashboard/webhooks' });
    const webhook = (await api.post('/webhooks', { url: 'http://127.0.0.1:9/edit', events: ['*'] })).body.data;
    const path = `/dashboard/webhooks/${webhook.id}`;
    // The edit form (the deliveries' filter form is sent to the same address, by GET).
    const opened = formFieldsIn((await client.get(path)).text, path, 'Edit the webhook');
    expect(opened.etag).toMatch(/^"[0-9a-f]{64}"$/);
    await api.post(`/webhooks/${webhook.id}/rotate-secret`, {});
    const refused = await client.post(path, { ...opened, url: webhook.url, events: '*', description: 'Mine', active: 'true' });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('Someone else changed this after you opened the page');
    expect((await api.get(`/webhooks/${webhook.id}`)).body.data.description).toBeNull();
  });

  it('answers a POST that acts (an invitation, a test event, Recover) with a redirect: a reload of the answer acts no more', async () => {
    const { person, client } = await signedInClient();
    const email = `invited-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const invited = await client.submit('/dashboard/team', '/dashboard/team', { email, role: 'viewer' });
    expect([invited.status, invited.location]).toEqual([303, '/dashboard/team?done=invited']);
    const team = await client.get(invited.location!);
    expect(team.text).toContain('The invitation is sent');
    expect(team.text).toContain(email);
    await waitForMail(email);
    await client.get(invited.location!);
    expect(await outboxOf(email)).toHaveLength(1);

    const api = as(person.test.key);
    await client.submit('/dashboard/webhooks', '/dashboard/mode', { mode: 'test', return_to: '/dashboard/webhooks' });
    const webhook = (await api.post('/webhooks', { url: 'http://127.0.0.1:9/tested', events: ['*'] })).body.data;
    const path = `/dashboard/webhooks/${webhook.id}`;
    const tested = await client.submit(path, `${path}/test`, { type: 'workflow.completed' });
    expect(tested.status).toBe(303);
    expect(tested.location).toMatch(new RegExp(`^${path}\\?done=tested&delivery=dlv_`));
    const shown = await client.get(tested.location!);
    expect(shown.text).toContain('Test event failed');
    await client.get(tested.location!);
    const deliveries = (await api.get(`/webhooks/${webhook.id}/deliveries`)).body;
    expect(deliveries.meta.total).toBe(1);

    const recovered = await client.submit(path, `${path}/recover`, { since: '2026-01-01T00:00' });
    expect([recovered.status, recovered.location]).toEqual([303, `${path}?done=recovered&requeued=0`]);
    expect((await client.get(recovered.location!)).text).toContain('Nothing to recover');
  });

  it('shows what is wrong beside each field it is about, and names the field by its label in the summary', async () => {
    const { client, person } = await signedInClient();
    const project = await client.submit('/dashboard/projects', '/dashboard/projects', {
      name: 'Fine',
      repository: 'ssh://git@example.com/acme/shop.git',
      description: '',
    });
    expect(project.status).toBe(422);
    expect(project.text).toMatch(
      /<input id="field-repository"[^>]*aria-invalid="true"[^>]*aria-describedby="field-repository-hint field-repository-error"/,
    );
    expect(project.text).toContain('<div class="field__error" id="field-repository-error">');
    expect(project.text).toContain('Repository: ');
    expect(project.text).not.toMatch(/<input id="field-name"[^>]*aria-invalid/);

    const key = await client.submit('/dashboard/developers/api-keys', '/dashboard/developers/api-keys', {
      name: '   ',
      type: 'live',
      scopes: 'read:projects',
    });
    expect(key.status).toBe(422);
    expect(key.text).toContain('Name: must not be blank');
    expect(key.text).toMatch(/<input id="field-name"[^>]*aria-invalid="true"/);

    const invite = await client.submit('/dashboard/team', '/dashboard/team', { email: 'not-an-address', role: 'admin' });
    expect(invite.status).toBe(422);
    expect(invite.text).toMatch(/<input id="field-email"[^>]*value="not-an-address"[^>]*aria-invalid="true"/);
    expect(invite.text).toMatch(/<option value="admin" selected/);

    const webhook = await client.submit('/dashboard/webhooks', '/dashboard/webhooks', { url: 'not a url', events: '*' });
    expect(webhook.status).toBe(422);
    expect(webhook.text).toContain('Endpoint URL: ');
    expect(webhook.text).toMatch(/<input id="field-url"[^>]*aria-invalid="true"/);

    // Recover's time, on the webhook's own page, with what was typed kept.
    await client.submit('/dashboard/webhooks', '/dashboard/mode', { mode: 'test', return_to: '/dashboard/webhooks' });
    const hook = (await as(person.test.key).post('/webhooks', { url: 'http://127.0.0.1:9/recovered', events: ['*'] })).body.data;
    const path = `/dashboard/webhooks/${hook.id}`;
    const recover = await client.submit(path, `${path}/recover`, { since: 'yesterday' });
    expect(recover.status).toBe(422);
    expect(recover.text).toMatch(
      /<input id="field-since"[^>]*value="yesterday"[^>]*aria-invalid="true" aria-describedby="field-since-error"/,
    );
    expect(recover.text).toContain('<div class="field__error" id="field-since-error">must be a date and time (UTC)</div>');
  });

  it('switches to test mode and back: each mode shows its own data', async () => {
    const { person, client } = await signedInClient();
    await as(person.test.key).post('/projects', { name: 'Only in test', repository: 'https://github.com/acme/test-only' });
    expect((await client.get('/dashboard/projects')).text).not.toContain('Only in test');
    const switched = await client.submit('/dashboard/projects', '/dashboard/mode', { mode: 'test', return_to: '/dashboard/projects' });
    expect([switched.status, switched.location]).toEqual([303, '/dashboard/projects']);
    const test = await client.get('/dashboard/projects');
    expect(test.text).toContain('Only in test');
    expect(test.text).toContain('You are viewing test data');
    await client.submit('/dashboard/projects', '/dashboard/mode', { mode: 'live', return_to: 'https://evil.example/' });
    expect((await client.get('/dashboard/projects')).text).not.toContain('Only in test');
  });
});
