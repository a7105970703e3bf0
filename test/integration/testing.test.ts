import { as } from './support/http';
import { eventually, startReceiver } from './support/receiver';
import { newAccount } from './support/runtime';
import { createWebhook } from './support/webhooks';
import { fixtureRepository } from './support/workflows';

type Api = ReturnType<typeof as>;

const jestRepository: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'calc', version: '1.0.0', scripts: { test: 'jest' }, devDependencies: { jest: '^30.0.0' } }, null, 2)}\n`,
  'src/calc.js':
    'const add = (a, b) => a + b;\nconst divide = (a, b) => {\n  if (b === 0) throw new Error("division by zero");\n  return a / b;\n};\nclass Calculator {}\nmodule.exports = { add, divide, Calculator, version: "1.0.0" };\n',
  'src/calc.test.js': [
    "const { add, divide } = require('./calc');",
    "test('adds', () => expect(add(1, 2)).toBe(3));",
    "test('divides', () => expect(divide(6, 3)).toBe(2));",
    "test('fails on purpose', () => expect(add(1, 1)).toBe(3));",
    "test.skip('skipped on purpose', () => {});",
    "test('reads no credentials', () => { expect(process.env.AWS_SECRET_ACCESS_KEY).toBeUndefined(); expect(process.env.TABLE_NAME).toBeUndefined(); });",
    '',
  ].join('\n'),
};

const hangingRepository: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'hang', version: '1.0.0', scripts: { test: 'node --test' } }, null, 2)}\n`,
  'hang.test.js': "const test = require('node:test');\ntest('never ends', () => new Promise(() => { setInterval(() => {}, 1000); }));\n",
};

const waitFor = async (api: Api, id: string): Promise<any> => {
  let last: any;
  return eventually(
    async () => {
      last = (await api.get(`/tests/${id}`)).body?.data;
      return last && ['completed', 'failed'].includes(last.status) ? last : undefined;
    },
    90_000,
    () => `${id} is ${last?.status}: ${last?.error}`,
    200,
  );
};

const setUp = async (files: Record<string, string>) => {
  const { test: key } = await newAccount();
  const api = as(key.key);
  const project = (await api.post('/projects', { name: 'Tests', repository: (await fixtureRepository(files)).url })).body.data;
  return { api, projectId: project.id as string };
};

describe('AI-generated tests', () => {
  it('generate → run → results with the local provider: smoke tests of the exports, all passing; a webhook is told the suite is ready', async () => {
    const { api, projectId } = await setUp(jestRepository);
    const receiver = await startReceiver();
    await createWebhook(api, { url: receiver.url(), events: ['test.generation.completed'] });
    // A path named twice counts once.
    const created = await api.post('/tests/generate', { project_id: projectId, paths: ['src/calc.js', 'src/calc.js'] });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ object: 'test_suite', status: 'queued', ai_provider: 'local', paths: ['src/calc.js'] });
    const suite = await waitFor(api, created.body.data.id);
    expect(suite).toMatchObject({ status: 'completed', framework: 'jest', framework_detected: true, branch_used: 'main' });
    expect(suite.files.length).toBeGreaterThan(0);
    const declared = suite.files.flatMap((file: any) => file.cases);
    expect(declared).toEqual(expect.arrayContaining([expect.stringContaining('add'), expect.stringContaining('Calculator')]));
    // The webhook learns the suite is ready, with what it holds, without polling it.
    const [delivered] = await receiver.waitFor(1, 20_000);
    await receiver.close();
    const event = JSON.parse(delivered!.body);
    expect(event).toMatchObject({ type: 'test.generation.completed' });
    expect(event.data).toEqual({
      id: suite.id,
      project_id: projectId,
      status: 'completed',
      branch: 'main',
      commit: suite.commit,
      framework: 'jest',
      files: suite.files.map((file: any) => ({ cases: file.cases, path: file.path })),
      error: null,
      completed_at: suite.completed_at,
    });

    expect((await api.get(`/tests/${suite.id}/results`)).status).toBe(404);
    const run = await api.post('/tests/run', { test_id: suite.id, timeout_seconds: 120 });
    expect(run.status).toBe(201);
    const finished = await waitFor(api, run.body.data.id);
    expect(finished.status).toBe('completed');
    expect(finished.results.totals).toEqual({ passed: declared.length, failed: 0, skipped: 0, errored: 0 });
    expect(finished.results.cases.map((c: any) => c.name).sort()).toEqual([...declared].sort());

    // The suite's results are its latest run's.
    const results = await api.get(`/tests/${suite.id}/results`);
    expect(results.body.data.id).toBe(finished.id);
  });

  it("a suite runs on the repository and commit it was generated from, even after the project's repository changed", async () => {
    const { api, projectId } = await setUp(jestRepository);
    const created = await api.post('/tests/generate', { project_id: projectId, paths: ['src/calc.js'] });
    const suite = await waitFor(api, created.body.data.id);
    expect(suite.status).toBe('completed');

    const elsewhere = await fixtureRepository(hangingRepository);
    expect((await api.patch(`/projects/${projectId}`, { repository: elsewhere.url })).status).toBe(200);

    const run = await api.post('/tests/run', { test_id: suite.id, timeout_seconds: 120 });
    expect(run.status).toBe(201);
    const finished = await waitFor(api, run.body.data.id);
    expect([finished.status, finished.error]).toEqual(['completed', null]);
    expect(finished).toMatchObject({ branch: 'main', commit: suite.commit });
    expect(finished.results.totals).toMatchObject({ failed: 0, errored: 0 });
    expect(finished.results.totals.passed).toBe(suite.files.flatMap((file: any) => file.cases).length);
  });

  it("runs the repository's own tests and counts passing, failing and skipped cases exactly; the tests see no credentials", async () => {
    const { api, projectId } = await setUp(jestRepository);
    const run = await api.post('/tests/run', { project_id: projectId, branch: 'main' });
    const finished = await waitFor(api, run.body.data.id);
    expect(finished.status).toBe('completed');
    expect(finished.results.totals).toEqual({ passed: 3, failed: 1, skipped: 1, errored: 0 });
    const failing = finished.results.cases.find((c: any) => c.name.includes('fails on purpose'));
    expect(failing).toMatchObject({ status: 'failed', file: 'src/calc.test.js' });
    expect(failing.failure_message).toContain('Expected');
    expect(finished.results.cases.find((c: any) => c.name.includes('reads no credentials'))?.status).toBe('passed');
  });

  it('a generation that fails is told as one that completes, with its error (GET /v1/events?type=test.generation.completed)', async () => {
    const { api, projectId } = await setUp({ 'README.md': '# No tests here\n', 'src/calc.js': 'module.exports = {};\n' });
    const created = await api.post('/tests/generate', { project_id: projectId });
    const suite = await waitFor(api, created.body.data.id);
    expect(suite).toMatchObject({ status: 'failed', error: expect.stringContaining('no test framework was detected') });
    const events = (await api.get('/events?type=test.generation.completed')).body.data;
    expect(events).toHaveLength(1);
    expect(events[0].data).toEqual({
      id: suite.id,
      project_id: projectId,
      status: 'failed',
      branch: null,
      commit: null,
      framework: null,
      files: [],
      error: suite.error,
      completed_at: suite.completed_at,
    });
  });

  it('a hanging test hits the timeout: the run fails with that reason', async () => {
    const { api, projectId } = await setUp(hangingRepository);
    const run = await api.post('/tests/run', { project_id: projectId, timeout_seconds: 3 });
    const finished = await waitFor(api, run.body.data.id);
    expect(finished.status).toBe('failed');
    expect(finished.error).toBe('timed out after 3 s');
    expect(finished.results.timed_out).toBe(true);
  });

  it('lists suites and runs together, each as GET /tests/{id} answers it, filtered by project, object and status', async () => {
    const { test: key } = await newAccount();
    const api = as(key.key);
    const repositoryA = (await fixtureRepository(jestRepository)).url;
    const repositoryB = (await fixtureRepository(hangingRepository)).url;
    const projectA = (await api.post('/projects', { name: 'Listed A', repository: repositoryA })).body.data.id;
    const projectB = (await api.post('/projects', { name: 'Listed B', repository: repositoryB })).body.data.id;
    const suite = (await api.post('/tests/generate', { project_id: projectA, paths: ['src/calc.js'] })).body.data.id;
    const passing = (await api.post('/tests/run', { project_id: projectA })).body.data.id;
    const hanging = (await api.post('/tests/run', { project_id: projectB, timeout_seconds: 2 })).body.data.id;
    for (const id of [suite, passing, hanging]) await waitFor(api, id);

    const all = await api.get('/tests');
    expect(all.status).toBe(200);
    expect(all.body.meta).toMatchObject({ total: 3, page: 1 });
    expect(all.body.data.map((item: any) => item.id)).toEqual([hanging, passing, suite]);
    for (const item of all.body.data) expect(item).toEqual((await api.get(`/tests/${item.id}`)).body.data);

    const ids = async (query: string) => (await api.get(`/tests?${query}`)).body.data.map((item: any) => item.id);
    expect(await ids('object=test_run&order=asc')).toEqual([passing, hanging]);
    expect(await ids('object=test_suite')).toEqual([suite]);
    expect(await ids(`project_id=${projectB}`)).toEqual([hanging]);
    expect(await ids('status=failed')).toEqual([hanging]);
    expect(await ids(`project_id=${projectA}&object=test_run`)).toEqual([passing]);
    expect(await ids('project_id=proj_01JD2Q8X4B6V3C1N0M9K8J7H6G')).toEqual([]);

    const first = await api.get('/tests?order=asc&per_page=2');
    expect(first.body.data.map((item: any) => item.id)).toEqual([suite, passing]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    const second = await api.get(new URL(next as string).pathname.replace(/^\/v1/, '') + new URL(next as string).search);
    expect(second.body.data.map((item: any) => item.id)).toEqual([hanging]);

    const { test: otherKey } = await newAccount();
    expect((await as(otherKey.key).get('/tests')).body).toMatchObject({ data: [], meta: { total: 0 } });
    const refused = await api.get('/tests?object=test_case');
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.field).toBe('object');
  });

  it('refuses bad input', async () => {
    const { api, projectId } = await setUp(jestRepository);
    expect((await api.post('/tests/run', { project_id: projectId, timeout_seconds: 901 })).status).toBe(422);
    expect((await api.post('/tests/run', {})).status).toBe(422);
    expect((await api.post('/tests/run', { test_id: 'test_01JD2QE4J8K0M2N4P6R8S0T2V4', project_id: projectId })).status).toBe(422);
    expect((await api.post('/tests/generate', { project_id: projectId, framework: 'mocha' })).status).toBe(422);
    expect((await api.post('/tests/generate', { project_id: projectId, ai_provider: 'openai' })).status).toBe(422);
    for (const path of ['/tests/run', '/tests/generate']) {
      const answer = await api.get(path);
      expect([answer.status, answer.headers.get('allow'), answer.body.error.code]).toEqual([405, 'POST', 'method_not_allowed']);
      expect(answer.headers.get('x-request-id')).toBeTruthy();
    }
    expect((await api.get('/tests/test_01JD2QE4J8K0M2N4P6R8S0T2V4')).status).toBe(404);
    expect((await api.get('/tests/nope/results')).status).toBe(404);
  });
});
