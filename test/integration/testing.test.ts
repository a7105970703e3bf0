import { as } from './support/http';
import { eventually } from './support/receiver';
import { newAccount } from './support/runtime';
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
  it('generate → run → results with the local provider: smoke tests of the exports, all passing', async () => {
    const { api, projectId } = await setUp(jestRepository);
    const created = await api.post('/tests/generate', { project_id: projectId, paths: ['src/calc.js'] });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ object: 'test_suite', status: 'queued', ai_provider: 'local' });
    const suite = await waitFor(api, created.body.data.id);
    expect(suite).toMatchObject({ status: 'completed', framework: 'jest', framework_detected: true, branch_used: 'main' });
    expect(suite.files.length).toBeGreaterThan(0);
    const declared = suite.files.flatMap((file: any) => file.cases);
    expect(declared).toEqual(expect.arrayContaining([expect.stringContaining('add'), expect.stringContaining('Calculator')]));

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

  it('a hanging test hits the timeout: the run fails with that reason', async () => {
    const { api, projectId } = await setUp(hangingRepository);
    const run = await api.post('/tests/run', { project_id: projectId, timeout_seconds: 3 });
    const finished = await waitFor(api, run.body.data.id);
    expect(finished.status).toBe('failed');
    expect(finished.error).toBe('timed out after 3 s');
    expect(finished.results.timed_out).toBe(true);
  });

  it('refuses bad input', async () => {
    const { api, projectId } = await setUp(jestRepository);
    expect((await api.post('/tests/run', { project_id: projectId, timeout_seconds: 901 })).status).toBe(422);
    expect((await api.post('/tests/run', {})).status).toBe(422);
    expect((await api.post('/tests/run', { test_id: 'test_01JD2QE4J8K0M2N4P6R8S0T2V4', project_id: projectId })).status).toBe(422);
    expect((await api.post('/tests/generate', { project_id: projectId, framework: 'mocha' })).status).toBe(422);
    expect((await api.post('/tests/generate', { project_id: projectId, ai_provider: 'openai' })).status).toBe(422);
    expect((await api.get('/tests/test_01JD2QE4J8K0M2N4P6R8S0T2V4')).status).toBe(404);
    expect((await api.get('/tests/nope/results')).status).toBe(404);
  });
});
