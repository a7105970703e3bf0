import { isoTime } from '../../../functions/core/clock';
import { isId } from '../../../functions/core/ids';
import { generateTests, getTestObject, getTestResults, runTests, type TestDeps } from '../../../functions/core/testing/test-use-cases';
import { viewOfTestObject } from '../../../functions/core/testing/views';
import { apiErrorOf } from '../fakes/api-error';
import { controlledClock, startOfTests } from '../fakes/clock';
import { fakeTestJobStarter } from '../fakes/test-job-starter';
import { completedSuiteRecord, runRecord, suiteRecord, testProjectId, testTenant } from '../fakes/test-fixtures';
import { inMemoryTestRepository } from '../fakes/testing-repository';
import { statusOf } from '../../../functions/http/error-status';

const tenant = testTenant;
const projectId = testProjectId;

const setup = (providers: string[] = ['anthropic', 'openai']) => {
  const tests = inMemoryTestRepository();
  tests.addProject(tenant, projectId);
  const jobs = fakeTestJobStarter();
  const clock = controlledClock();
  const deps: TestDeps = { tests, jobs, clock, configuredProviders: () => providers };
  return { tests, jobs, clock, deps };
};

const now = isoTime(startOfTests);
const refOf = (id: string) => ({ account_id: tenant.accountId, mode: tenant.mode, id });

describe('generateTests', () => {
  it('stores a queued suite with the request as given, then starts a generate job for it', async () => {
    const { deps, tests, jobs } = setup();
    const suite = await generateTests(
      tenant,
      {
        project_id: projectId,
        branch: 'develop',
        paths: ['src'],
        framework: 'vitest',
        ai_provider: 'openai',
        instructions: 'Edge cases please',
      },
      deps,
    );

    expect(isId('testSuite', suite.id)).toBe(true);
    expect(suite).toEqual({
      id: suite.id,
      object: 'test_suite',
      project_id: projectId,
      branch: 'develop',
      branch_used: null,
      commit: null,
      paths: ['src'],
      framework: 'vitest',
      framework_detected: false,
      ai_provider: 'openai',
      instructions: 'Edge cases please',
      status: 'queued',
      summary: null,
      files: [],
      ai_usage: null,
      latest_run_id: null,
      error: null,
      created_at: now,
      updated_at: now,
      started_at: null,
      completed_at: null,
      revision: 1,
    });
    expect(tests.storedSuite(tenant, suite.id)).toEqual(suite);
    expect(jobs.started).toEqual([{ action: 'generate', ref: refOf(suite.id) }]);
  });

  it('leaves out what was not asked: null branch, paths, framework and instructions', async () => {
    const { deps } = setup();
    const suite = await generateTests(tenant, { project_id: projectId, ai_provider: 'anthropic' }, deps);
    expect(suite).toMatchObject({ branch: null, paths: null, framework: null, instructions: null, ai_provider: 'anthropic' });
  });

  it('defaults the provider to the first configured one', async () => {
    const { deps } = setup(['openai', 'anthropic']);
    const suite = await generateTests(tenant, { project_id: projectId }, deps);
    expect(suite.ai_provider).toBe('openai');
  });

  it('answers 422 ai_provider for a provider this deployment has not configured, listing the configured ones; nothing stored or started', async () => {
    const { deps, tests, jobs } = setup(['anthropic', 'openai']);
    const error = await apiErrorOf(generateTests(tenant, { project_id: projectId, ai_provider: 'bedrock' }, deps));
    expect(statusOf(error)).toBe(422);
    expect(error.code).toBe('validation_error');
    expect(error.details).toEqual({ field: 'ai_provider', issue: 'is not configured in this deployment; configured: anthropic, openai' });
    expect(tests.calls.createSuite).toBe(0);
    expect(jobs.started).toEqual([]);
  });

  it('answers 422 ai_provider naming none when no provider is configured, also without ai_provider', async () => {
    const { deps } = setup([]);
    const error = await apiErrorOf(generateTests(tenant, { project_id: projectId }, deps));
    expect(statusOf(error)).toBe(422);
    expect(error.details).toEqual({ field: 'ai_provider', issue: 'is not configured in this deployment; configured: none' });
  });

  it.each([['not-an-id'], ['proj_'], ['wf_01JD2Q8X4B6V3C1N0M9K8J7H6G'], ['proj_01jd2q8x4b6v3c1n0m9k8j7h6g']])(
    'answers 422 project_id for the malformed project id %p without asking the repository',
    async (id) => {
      const { deps, tests, jobs } = setup();
      const error = await apiErrorOf(generateTests(tenant, { project_id: id }, deps));
      expect(statusOf(error)).toBe(422);
      expect(error.details).toEqual({ field: 'project_id', issue: 'is not a project of this account and mode' });
      expect(tests.calls.createSuite).toBe(0);
      expect(jobs.started).toEqual([]);
    },
  );

  it('answers 422 project_id for a well-formed id the account does not have (or has in the other mode); no job', async () => {
    const { deps, jobs } = setup();
    const unknown = await apiErrorOf(generateTests(tenant, { project_id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6H' }, deps));
    expect(statusOf(unknown)).toBe(422);
    expect(unknown.details).toEqual({ field: 'project_id', issue: 'is not a project of this account and mode' });
    const otherMode = await apiErrorOf(generateTests({ ...tenant, mode: 'live' }, { project_id: projectId }, deps));
    expect(otherMode.details).toMatchObject({ field: 'project_id' });
    expect(jobs.started).toEqual([]);
  });

  it('marks the suite failed (revision 2) with its test.generation.completed when the job cannot be started', async () => {
    const { deps, tests, jobs } = setup();
    jobs.behaviour.failStart = true;
    const suite = await generateTests(tenant, { project_id: projectId, branch: 'develop' }, deps);
    expect(jobs.started).toHaveLength(1);
    expect(suite).toMatchObject({
      status: 'failed',
      error: 'The generation could not be started; ask again.',
      completed_at: now,
      revision: 2,
    });
    expect(tests.storedSuite(tenant, suite.id)).toEqual(suite);
    expect(tests.events).toEqual([
      {
        type: 'test.generation.completed',
        data: {
          id: suite.id,
          project_id: projectId,
          status: 'failed',
          branch: 'develop',
          commit: null,
          framework: null,
          files: [],
          error: 'The generation could not be started; ask again.',
          completed_at: now,
        },
        recordId: suite.id,
      },
    ]);
  });

  it('answers the queued suite when the job failed to start and the suite changed meanwhile (the job may yet run)', async () => {
    const { deps, tests, jobs } = setup();
    jobs.behaviour.failStart = true;
    tests.interfere((record) => ({ ...record, revision: record.revision + 1 }));
    const suite = await generateTests(tenant, { project_id: projectId }, deps);
    expect(suite.status).toBe('queued');
    expect(tests.calls.savesRejected).toBe(1);
    expect(tests.events).toEqual([]);
  });
});

describe('runTests', () => {
  it.each([
    ['neither test_id nor project_id', {}, /^give test_id \(a generated suite\) or project_id \(the repository’s own tests\)$/],
    ['both test_id and project_id', { test_id: 'test_01JD2Q8X4B6V3C1N0M9K8J7H6G', project_id: projectId }, /, not both$/],
  ])('answers 422 test_id for %s, saying which; nothing stored or started', async (_, input, issue) => {
    const { deps, tests, jobs } = setup();
    const error = await apiErrorOf(runTests(tenant, input, deps));
    expect(statusOf(error)).toBe(422);
    expect(error.details).toMatchObject({ field: 'test_id', issue: expect.stringMatching(issue) });
    expect(tests.calls.createRun).toBe(0);
    expect(jobs.started).toEqual([]);
  });

  it.each([['test_01JD2Q8X4B6V3C1N0M9K8J7H6G'], ['run_01JD2Q8X4B6V3C1N0M9K8J7H6G'], ['nope']])(
    'answers 422 test_id for %p, which names no suite of the account',
    async (id) => {
      const { deps, tests } = setup();
      const error = await apiErrorOf(runTests(tenant, { test_id: id }, deps));
      expect(statusOf(error)).toBe(422);
      expect(error.details).toEqual({ field: 'test_id', issue: 'is not a generated test suite of this account and mode' });
      expect(tests.calls.createRun).toBe(0);
    },
  );

  it("answers 422 test_id for another mode's suite", async () => {
    const { deps, tests } = setup();
    const suite = completedSuiteRecord();
    tests.putSuite({ ...tenant, mode: 'live' }, suite);
    const error = await apiErrorOf(runTests(tenant, { test_id: suite.id }, deps));
    expect(error.details).toMatchObject({ field: 'test_id' });
  });

  it.each([['queued' as const], ['running' as const], ['failed' as const]])(
    'answers 409 for a %s suite; nothing stored or started',
    async (status) => {
      const { deps, tests, jobs } = setup();
      const suite = suiteRecord({ status });
      tests.putSuite(tenant, suite);
      const error = await apiErrorOf(runTests(tenant, { test_id: suite.id }, deps));
      expect(statusOf(error)).toBe(409);
      expect(error.code).toBe('conflict');
      expect(error.message).toBe(`The suite is ${status}; only a completed suite can be run.`);
      expect(tests.calls.createRun).toBe(0);
      expect(jobs.started).toEqual([]);
    },
  );

  it('answers 422 branch for a branch given with test_id', async () => {
    const { deps, tests } = setup();
    const suite = completedSuiteRecord();
    tests.putSuite(tenant, suite);
    const error = await apiErrorOf(runTests(tenant, { test_id: suite.id, branch: 'main' }, deps));
    expect(statusOf(error)).toBe(422);
    expect(error.details).toMatchObject({ field: 'branch' });
    expect(tests.calls.createRun).toBe(0);
  });

  it("runs a suite on the suite's branch_used and commit with its framework, timeout 300 by default; the run becomes the suite's latest", async () => {
    const { deps, tests, jobs } = setup();
    const suite = completedSuiteRecord();
    tests.putSuite(tenant, suite);
    const run = await runTests(tenant, { test_id: suite.id }, deps);

    expect(isId('testRun', run.id)).toBe(true);
    expect(run).toEqual({
      id: run.id,
      object: 'test_run',
      project_id: projectId,
      suite_id: suite.id,
      branch: 'develop',
      commit: suite.commit,
      framework: 'jest',
      timeout_seconds: 300,
      status: 'queued',
      results: null,
      error: null,
      created_at: now,
      updated_at: now,
      started_at: null,
      completed_at: null,
      revision: 1,
    });
    expect(tests.storedRun(tenant, run.id)).toEqual(run);
    expect(tests.storedSuite(tenant, suite.id)?.latest_run_id).toBe(run.id);
    expect(jobs.started).toEqual([{ action: 'run', ref: refOf(run.id) }]);
  });

  it("runs the repository's own tests on the given branch with the given timeout; framework and commit are left to the job", async () => {
    const { deps, jobs } = setup();
    const run = await runTests(tenant, { project_id: projectId, branch: 'feature/x', timeout_seconds: 42 }, deps);
    expect(run).toMatchObject({
      project_id: projectId,
      suite_id: null,
      branch: 'feature/x',
      commit: null,
      framework: null,
      timeout_seconds: 42,
      status: 'queued',
    });
    expect(jobs.started).toEqual([{ action: 'run', ref: refOf(run.id) }]);
  });

  it('defaults the branch of a repository run to null (the default branch) and the timeout to 300', async () => {
    const { deps } = setup();
    const run = await runTests(tenant, { project_id: projectId }, deps);
    expect(run).toMatchObject({ branch: null, timeout_seconds: 300 });
  });

  it('answers 422 project_id for a malformed or unknown project', async () => {
    const { deps, tests, jobs } = setup();
    const malformed = await apiErrorOf(runTests(tenant, { project_id: 'shop' }, deps));
    expect(statusOf(malformed)).toBe(422);
    expect(malformed.details).toEqual({ field: 'project_id', issue: 'is not a project of this account and mode' });
    expect(tests.calls.createRun).toBe(0);
    const unknown = await apiErrorOf(runTests(tenant, { project_id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6H' }, deps));
    expect(unknown.details).toMatchObject({ field: 'project_id' });
    expect(jobs.started).toEqual([]);
  });

  it('marks the run failed (revision 2) with its test.run.completed when the job cannot be started', async () => {
    const { deps, tests, jobs } = setup();
    jobs.behaviour.failStart = true;
    const run = await runTests(tenant, { project_id: projectId }, deps);
    expect(jobs.started).toHaveLength(1);
    expect(run).toMatchObject({ status: 'failed', error: 'The run could not be started; ask again.', completed_at: now, revision: 2 });
    expect(tests.storedRun(tenant, run.id)).toEqual(run);
    expect(tests.events).toEqual([
      {
        type: 'test.run.completed',
        data: expect.objectContaining({
          id: run.id,
          status: 'failed',
          error: 'The run could not be started; ask again.',
          completed_at: now,
        }),
        recordId: run.id,
      },
    ]);
  });

  it('answers the queued run when the job failed to start and the run changed meanwhile', async () => {
    const { deps, tests, jobs } = setup();
    jobs.behaviour.failStart = true;
    tests.interfere((record) => ({ ...record, revision: record.revision + 1 }));
    const run = await runTests(tenant, { project_id: projectId }, deps);
    expect(run.status).toBe('queued');
    expect(tests.calls.savesRejected).toBe(1);
  });
});

describe('viewOfTestObject', () => {
  it('shows a suite in the documented order, without its revision', () => {
    const suite = completedSuiteRecord({ latest_run_id: 'run_01JD2Q8X4B6V3C1N0M9K8J7H6G' });
    const view = viewOfTestObject(suite);
    expect(Object.keys(view)).toEqual([
      'id',
      'object',
      'project_id',
      'branch',
      'branch_used',
      'commit',
      'paths',
      'framework',
      'framework_detected',
      'ai_provider',
      'instructions',
      'status',
      'summary',
      'files',
      'ai_usage',
      'latest_run_id',
      'error',
      'created_at',
      'updated_at',
      'started_at',
      'completed_at',
    ]);
    const { revision: _revision, ...rest } = suite;
    expect(view).toEqual(rest);
  });

  it('shows a run in the documented order, without its revision', () => {
    const run = runRecord({ status: 'completed' });
    const view = viewOfTestObject(run);
    expect(Object.keys(view)).toEqual([
      'id',
      'object',
      'project_id',
      'suite_id',
      'branch',
      'commit',
      'framework',
      'timeout_seconds',
      'status',
      'results',
      'error',
      'created_at',
      'updated_at',
      'started_at',
      'completed_at',
    ]);
    const { revision: _revision, ...rest } = run;
    expect(view).toEqual(rest);
  });
});

describe('getTestObject', () => {
  it('finds a suite by its test_ prefix and a run by its run_ prefix', async () => {
    const { deps, tests } = setup();
    const suite = completedSuiteRecord();
    const run = runRecord();
    tests.putSuite(tenant, suite);
    tests.putRun(tenant, run);
    expect(await getTestObject(tenant, suite.id, deps)).toEqual(suite);
    expect(await getTestObject(tenant, run.id, deps)).toEqual(run);
  });

  it.each([
    ['nope'],
    ['test_'],
    ['wf_01JD2Q8X4B6V3C1N0M9K8J7H6G'],
    ['test_01JD2Q8X4B6V3C1N0M9K8J7H6G'],
    ['run_01JD2Q8X4B6V3C1N0M9K8J7H6G'],
  ])('answers 404 for %p', async (id) => {
    const { deps } = setup();
    const error = await apiErrorOf(getTestObject(tenant, id, deps));
    expect(statusOf(error)).toBe(404);
    expect(error.message).toBe('Test suite or run not found.');
  });

  it("answers 404 for another tenant's suite or run", async () => {
    const { deps, tests } = setup();
    const suite = completedSuiteRecord();
    const run = runRecord();
    tests.putSuite({ ...tenant, mode: 'live' }, suite);
    tests.putRun({ accountId: 'acct_01JD2Q7A0B1C2D3E4F5G6H7J8Z', mode: 'test' }, run);
    expect(statusOf(await apiErrorOf(getTestObject(tenant, suite.id, deps)))).toBe(404);
    expect(statusOf(await apiErrorOf(getTestObject(tenant, run.id, deps)))).toBe(404);
  });
});

describe('getTestResults', () => {
  it('answers a run itself', async () => {
    const { deps, tests } = setup();
    const run = runRecord({ status: 'completed' });
    tests.putRun(tenant, run);
    expect(await getTestResults(tenant, run.id, deps)).toEqual(run);
  });

  it('answers 404 for a suite that has no run yet, and for a malformed id', async () => {
    const { deps, tests } = setup();
    const suite = completedSuiteRecord();
    tests.putSuite(tenant, suite);
    const error = await apiErrorOf(getTestResults(tenant, suite.id, deps));
    expect(statusOf(error)).toBe(404);
    expect(error.message).toContain('A run of this suite');
    expect(statusOf(await apiErrorOf(getTestResults(tenant, 'junk', deps)))).toBe(404);
  });

  it("answers a suite's latest run, the one runTests made last", async () => {
    const { deps, tests, clock } = setup();
    const suite = completedSuiteRecord();
    tests.putSuite(tenant, suite);
    const first = await runTests(tenant, { test_id: suite.id }, deps);
    clock.advance(1000);
    const second = await runTests(tenant, { test_id: suite.id, timeout_seconds: 60 }, deps);
    expect(first.id).not.toBe(second.id);
    expect(await getTestResults(tenant, suite.id, deps)).toEqual(second);
  });

  it('answers 404 when the latest run a suite names is not there', async () => {
    const { deps, tests } = setup();
    const suite = completedSuiteRecord({ latest_run_id: 'run_01JD2Q8X4B6V3C1N0M9K8J7H6G' });
    tests.putSuite(tenant, suite);
    const error = await apiErrorOf(getTestResults(tenant, suite.id, deps));
    expect(statusOf(error)).toBe(404);
    expect(error.message).toBe('Test run not found.');
  });
});
