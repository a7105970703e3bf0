import { contractProblems, expectDeclared } from './support/contract';
import { as, call } from './support/http';
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
});
