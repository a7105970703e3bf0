import { contractProblems, expectDeclared } from './support/contract';
import { type ApiAnswer, as, call } from './support/http';
import { newAccount } from './support/runtime';
import { fixtureRepository } from './support/workflows';

/** Real answers checked against the OpenAPI document the service serves: statuses declared, bodies valid. */
describe('answers match the served OpenAPI document', () => {
  it('GET /v1/event-types is the {data: [...]} the document declares', async () => {
    const answer = await call('GET', '/event-types');
    expect(answer.status).toBe(200);
    await expectDeclared('GET', '/v1/event-types', answer);
  });

  it('the check can fail: a bare array, an undeclared status, a wrong field are each reported', async () => {
    const answer = await call('GET', '/event-types');
    expect(await contractProblems('GET', '/v1/event-types', { ...answer, body: answer.body.data })).not.toEqual([]);
    expect(await contractProblems('GET', '/v1/event-types', { ...answer, status: 418 })).toEqual([
      'GET /v1/event-types answered 418, which the document does not declare',
    ]);
    const { test } = await newAccount();
    const list = await as(test.key).get('/tests');
    expect(
      await contractProblems('GET', '/v1/tests', { ...list, body: { ...list.body, meta: { ...list.body.meta, total: '0' } } }),
    ).not.toEqual([]);
  });

  it('projects: create, get, list, an empty PATCH refused, an unknown id, a malformed body', async () => {
    const { test } = await newAccount();
    const api = as(test.key);
    const repository = (await fixtureRepository()).url;
    const created = await api.post('/projects', { name: 'Contract', repository });
    await expectDeclared('POST', '/v1/projects', created);
    await expectDeclared('GET', '/v1/projects/{id}', await api.get(`/projects/${created.body.data.id}`));
    await expectDeclared('GET', '/v1/projects', await api.get('/projects?per_page=1'));
    const empty = await api.patch(`/projects/${created.body.data.id}`, {});
    expect(empty.status).toBe(422);
    await expectDeclared('PATCH', '/v1/projects/{id}', empty);
    await expectDeclared('GET', '/v1/projects/{id}', await api.get('/projects/proj_01JD2Q8X4B6V3C1N0M9K8J7H6G'));
    await expectDeclared('POST', '/v1/projects', await api.post('/projects', { name: '' }));
  });

  it('tests: the list, and GET /v1/tests/run answered 405 as GET /v1/tests/{id} declares', async () => {
    const { test } = await newAccount();
    const api = as(test.key);
    await expectDeclared('GET', '/v1/tests', await api.get('/tests'));
    await expectDeclared('GET', '/v1/tests', await api.get('/tests?object=test_case'));
    const misrouted = await api.get('/tests/run');
    expect(misrouted.status).toBe(405);
    await expectDeclared('GET', '/v1/tests/{id}', misrouted);
  });

  it('headers: an undeclared header sent, or a required one missing, is reported', async () => {
    const withHeaders = (answer: ApiAnswer, change: (headers: Headers) => void): ApiAnswer => {
      const headers = new Headers(answer.headers);
      change(headers);
      return { ...answer, headers };
    };
    const types = await call('GET', '/event-types');
    expect(
      await contractProblems(
        'GET',
        '/v1/event-types',
        withHeaders(types, (h) => h.set('Retry-After', '1')),
      ),
    ).toEqual(['GET /v1/event-types 200 sent retry-after, which the document does not declare']);
    // A public operation counts nothing: no RateLimit there.
    expect(
      await contractProblems(
        'GET',
        '/v1/event-types',
        withHeaders(types, (h) => h.set('RateLimit', '"credential";r=1;t=1')),
      ),
    ).toEqual(['GET /v1/event-types 200 sent ratelimit, which the document does not declare']);
    const anonymous = await call('GET', '/projects');
    expect(anonymous.status).toBe(401);
    expect(
      await contractProblems(
        'GET',
        '/v1/projects',
        withHeaders(anonymous, (h) => h.delete('WWW-Authenticate')),
      ),
    ).toEqual(['GET /v1/projects 401 lacks WWW-Authenticate, which the document declares required']);
  });

  it('headers: 401 with WWW-Authenticate; RateLimit fields on a counted answer; Idempotent-Replayed on a replay; Allow on 405', async () => {
    const anonymous = await call('GET', '/projects');
    expect([anonymous.status, anonymous.headers.get('www-authenticate'), anonymous.headers.get('ratelimit')]).toEqual([
      401,
      'Bearer realm="api"',
      null,
    ]);
    await expectDeclared('GET', '/v1/projects', anonymous);

    const { test } = await newAccount();
    const api = as(test.key);
    const repository = (await fixtureRepository()).url;
    const key = { headers: { 'Idempotency-Key': `contract-${Date.now()}` } };
    const first = await api.post('/projects', { name: 'Headers', repository }, key);
    const replay = await api.post('/projects', { name: 'Headers', repository }, key);
    expect([first.status, first.headers.get('idempotent-replayed'), replay.status, replay.headers.get('idempotent-replayed')]).toEqual([
      201,
      null,
      201,
      'true',
    ]);
    for (const answer of [first, replay]) {
      expect(answer.headers.get('ratelimit')).toMatch(/^"credential";r=\d+;t=\d+$/);
      expect(answer.headers.get('ratelimit-policy')).toMatch(/^"credential";q=\d+;w=\d+$/);
      await expectDeclared('POST', '/v1/projects', answer);
    }
    // A replayed validation error carries it too.
    const badKey = { headers: { 'Idempotency-Key': `contract-bad-${Date.now()}` } };
    await api.post('/projects', { name: '' }, badKey);
    const badReplay = await api.post('/projects', { name: '' }, badKey);
    expect([badReplay.status, badReplay.headers.get('idempotent-replayed')]).toEqual([422, 'true']);
    await expectDeclared('POST', '/v1/projects', badReplay);

    const misrouted = await api.get('/tests/run');
    expect([misrouted.status, misrouted.headers.get('allow')]).toEqual([405, 'POST']);
    await expectDeclared('GET', '/v1/tests/{id}', misrouted);
  });

  it('POST /v1/webhooks/{id}/rotate-secret takes no body (200), and the document says the body may be left out', async () => {
    const { test } = await newAccount();
    const api = as(test.key);
    const hook = await api.post('/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    expect(hook.status).toBe(201);
    const rotated = await call('POST', `/webhooks/${hook.body.data.id}/rotate-secret`, { key: test.key });
    expect(rotated.status).toBe(200);
    await expectDeclared('POST', '/v1/webhooks/{id}/rotate-secret', rotated);
    const served = await call('GET', '/openapi.json');
    expect(served.body.paths['/v1/webhooks/{id}/rotate-secret'].post.requestBody.required).toBe(false);
  });
});
