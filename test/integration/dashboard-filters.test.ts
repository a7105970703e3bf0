import { as } from './support/http';
import { newPerson, webClient } from './support/web-client';
import { fixtureRepository } from './support/workflows';

/**
 * A list page's filter given a value it does not take (a bookmark of a renamed value, an address
 * typed by hand): 400 with the error beside the filter, the value kept there to be corrected, and
 * nothing listed under a filter that seems to apply; the rest of the page stays usable.
 */
describe('the dashboard list pages, given a filter value they do not take', () => {
  const signedIn = async () => {
    const person = await newPerson();
    const client = webClient();
    expect((await client.signIn(person.email, person.password)).status).toBe(303);
    await client.submit('/dashboard', '/dashboard/mode', { mode: 'test', return_to: '/dashboard' });
    return { person, client };
  };

  /** What the page says beside a field: its error, when the field is marked invalid and names it. */
  const errorBeside = (html: string, name: string): string | undefined => {
    const field = new RegExp(`<(?:select|input)[^>]*\\bname="${name}"[^>]*>`).exec(html)?.[0] ?? '';
    if (!/aria-invalid="true"/.test(field) || !field.includes(`aria-describedby="field-${name}-error"`)) return undefined;
    return new RegExp(`<div class="field__error" id="field-${name}-error">([^<]*)</div>`).exec(html)?.[1];
  };
  /** The option a select shows chosen. */
  const chosen = (html: string, name: string): string | undefined => {
    const select = new RegExp(`<select[^>]*\\bname="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1] ?? '';
    return /<option value="([^"]*)" selected/.exec(select)?.[1];
  };
  const refusedAlert = 'Nothing is listed: a filter has a value it does not take.';
  /** The count or page links under a list ("0 items", "Page 1 of 2 (23 items)"), as the page shows them. */
  const listCount = (html: string): string | undefined => /<p class="muted">\d+ items?<\/p>|<nav class="pagination"/.exec(html)?.[0];

  it('answer 400 with the error beside each refused filter, the value kept, nothing listed; a value they take still lists', async () => {
    const { person, client } = await signedIn();
    const api = as(person.test.key);
    const project = (await api.post('/projects', { name: 'Listed', repository: (await fixtureRepository()).url })).body.data;
    const webhook = (await api.post('/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] })).body.data;

    const cases: { path: string; refused: Record<string, string>; listed?: string }[] = [
      { path: '/dashboard/workflows', refused: { status: 'bogus' } },
      { path: '/dashboard/deployments', refused: { status: 'done', environment: 'prod' } },
      { path: '/dashboard/security', refused: { severity: 'urgent', status: 'closed', type: 'dast' } },
      { path: `/dashboard/webhooks/${webhook.id}`, refused: { status: 'lost', event_type: 'project.updated' } },
      { path: '/dashboard/projects', refused: { sort: 'size', order: 'up' }, listed: project.name },
    ];
    for (const { path, refused } of cases) {
      const answer = await client.get(`${path}?${new URLSearchParams(refused)}`);
      expect([path, answer.status]).toEqual([path, 400]);
      expect(answer.text).toContain(refusedAlert);
      expect(answer.text).toContain('Nothing is listed until the filter is corrected.');
      for (const [name, value] of Object.entries(refused)) {
        expect([path, name, errorBeside(answer.text, name)]).toEqual([path, name, expect.stringMatching(/^must be one of /)]);
        expect([path, name, chosen(answer.text, name)]).toEqual([path, name, value]);
      }
      // Nothing was counted: no "0 items" under the list, as if nothing matched.
      expect([path, listCount(answer.text)]).toEqual([path, undefined]);
      // The rest of the page is there: its navigation, and the filter form to correct it with.
      expect(answer.text).toContain('aria-label="Dashboard"');
      expect(answer.text).toMatch(/<form method="get"/);
    }

    // A day that is none (30 February), typed in the address: refused beside its field too.
    const day = await client.get('/dashboard/projects?created_after=2026-02-30&created_before=soon');
    expect(day.status).toBe(400);
    expect(errorBeside(day.text, 'created_after')).toBe('must be a date (YYYY-MM-DD)');
    expect(errorBeside(day.text, 'created_before')).toBe('must be a date (YYYY-MM-DD)');
    expect(day.text).not.toContain(project.name);
    expect(listCount(day.text)).toBeUndefined();

    // The webhooks list filters by links, not a form: the alert says which to choose.
    const hooks = await client.get('/dashboard/webhooks?status=paused');
    expect(hooks.status).toBe(400);
    expect(hooks.text).toContain(refusedAlert);
    expect(hooks.text).toContain('Status must be one of enabled, failed: choose All, Failed or Enabled above.');
    expect(hooks.text).not.toContain(webhook.url);
    expect(listCount(hooks.text)).toBeUndefined();

    // Values they take, an empty one ("Any") among them, list as before: 200, nothing marked.
    for (const path of [
      '/dashboard/workflows?status=running',
      '/dashboard/deployments?status=&environment=production',
      '/dashboard/security?severity=high&status=open&type=sast',
      `/dashboard/webhooks/${webhook.id}?status=pending&event_type=workflow.completed`,
      '/dashboard/projects?sort=name&order=asc&created_after=2026-01-01',
      '/dashboard/webhooks?status=enabled',
    ]) {
      const answer = await client.get(path);
      expect([path, answer.status]).toEqual([path, 200]);
      expect(answer.text).not.toContain(refusedAlert);
      expect(answer.text).not.toContain('aria-invalid');
      expect([path, listCount(answer.text)]).toEqual([path, expect.any(String)]);
    }
    expect((await client.get('/dashboard/projects?sort=name&order=asc')).text).toContain(project.name);
    expect((await client.get('/dashboard/webhooks?status=enabled')).text).toContain(webhook.url);
  });
});
