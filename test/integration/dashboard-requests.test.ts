import { as } from './support/http';
import { newPerson, webClient } from './support/web-client';

/**
 * Developers → Requests: the account's API requests read back from the API's own log (the local
 * runtime's request log file), with the right status and credential hint, and only the account's.
 */
describe('the Requests page', () => {
  const signedIn = async () => {
    const person = await newPerson();
    const client = webClient();
    expect((await client.signIn(person.email, person.password)).status).toBe(303);
    return { person, client };
  };

  /** The rows of the page's table, as text per cell (tags dropped, entities decoded). */
  const rowsOf = (html: string): string[][] =>
    [...html.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].slice(1).map((row) =>
      [...(row[1] as string).matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) =>
        (cell[1] as string)
          .replace(/<[^>]+>/g, '')
          .replace(/&#x2F;|&#47;/g, '/')
          .replace(/&amp;/g, '&')
          .trim(),
      ),
    );

  it("lists the account's requests newest first with method, path, status and the credential's hint, never another account's", async () => {
    const { person, client } = await signedIn();
    const other = await newPerson();
    const created = await as(person.live.key).post('/projects', { name: 'Logged', repository: 'https://github.com/acme/logged' });
    expect(created.status).toBe(201);
    // Refused for its unknown query parameter; the log keeps the path only, never the query string.
    const withQuery = await as(person.live.key).get('/projects/proj_doesnotexist?secret_looking=abc123');
    expect(withQuery.status).toBe(422);
    const refused = await as(person.live.key).post('/projects', { name: '' });
    expect(refused.status).toBe(422);
    const foreign = await as(other.live.key).get('/projects');
    expect(foreign.status).toBe(200);
    const testMode = await as(person.test.key).get('/projects');
    expect(testMode.status).toBe(200);

    const page = await client.get('/dashboard/developers/requests');
    expect(page.status).toBe(200);
    const rows = rowsOf(page.text);
    // When, method, path, status, duration, credential, request id.
    expect(rows.map((r) => [r[1], r[2], r[3], r[5], r[6]])).toEqual([
      ['POST', '/v1/projects', '422', person.live.hint, refused.headers.get('x-request-id')],
      ['GET', '/v1/projects/proj_doesnotexist', '422', person.live.hint, withQuery.headers.get('x-request-id')],
      ['POST', '/v1/projects', '201', person.live.hint, created.headers.get('x-request-id')],
    ]);
    expect(page.text).not.toContain('secret_looking');
    expect(page.text).not.toContain(person.live.key);
    expect(page.text).not.toContain(foreign.headers.get('x-request-id'));
    expect(page.text).not.toContain(testMode.headers.get('x-request-id'));

    // The test-mode key's request shows in test mode.
    await client.submit('/dashboard/developers/requests', '/dashboard/mode', { mode: 'test', return_to: '/dashboard/developers/requests' });
    const test = rowsOf((await client.get('/dashboard/developers/requests')).text);
    expect(test.map((r) => [r[1], r[2], r[3], r[5], r[6]])).toEqual([
      ['GET', '/v1/projects', '200', person.test.hint, testMode.headers.get('x-request-id')],
    ]);
  });

  it('filters by method, status class, path prefix and credential, and refuses a filter it cannot apply', async () => {
    const { person, client } = await signedIn();
    const pat = await person.newKey('pat');
    await as(person.live.key).get('/projects');
    await as(person.live.key).get('/projects/proj_nothere');
    await as(pat.key).get('/webhooks');

    const statuses = async (query: string) =>
      rowsOf((await client.get(`/dashboard/developers/requests?${query}`)).text).map((r) => `${r[1]} ${r[2]} ${r[3]}`);
    expect(await statuses('status_class=4xx')).toEqual(['GET /v1/projects/proj_nothere 404']);
    expect(await statuses('path_prefix=/v1/webhooks')).toEqual(['GET /v1/webhooks 200']);
    expect(await statuses(`credential_id=${pat.id}`)).toEqual(['GET /v1/webhooks 200']);
    expect(await statuses('method=POST')).toEqual([]);
    expect(await statuses('per_page=25&method=GET&status_class=2xx')).toEqual(['GET /v1/webhooks 200', 'GET /v1/projects 200']);

    const refused = await client.get('/dashboard/developers/requests?status_class=7xx&path_prefix=%22%20or%201');
    expect(refused.status).toBe(400);
    // Each beside its field, as typed, as on every list page.
    expect(refused.text).toContain('<div class="field__error" id="field-status_class-error">must be one of 2xx, 3xx, 4xx, 5xx</div>');
    expect(refused.text).toContain('<option value="7xx" selected');
    expect(refused.text).toMatch(/<div class="field__error" id="field-path_prefix-error">must start with \//);
    expect(refused.text).toContain('Nothing is listed: a filter has a value it does not take.');
  });
});
