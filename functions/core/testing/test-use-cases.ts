import { type Clock, isoTime } from '../clock';
import { conflict, notFound, validationError } from '../errors';
import { isId, newId } from '../ids';
import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import type { Framework } from './results';
import { runSnapshot, suiteSnapshot } from './snapshots';
import type { TestJob, TestListFilters, TestRepository, TestRun, TestSuite, TestWrites } from './test-records';

export interface TestDeps {
  tests: TestRepository;
  jobs: { start(job: TestJob): Promise<void> };
  clock: Clock;
  configuredProviders: () => string[];
}

/** What generating and running tests use: one suite or run at a time, no lists. */
export interface TestJobDeps extends Omit<TestDeps, 'tests'> {
  tests: TestWrites;
}

const unknownProject = () => validationError([{ field: 'project_id', issue: 'is not a project of this account and mode' }]);

export interface GenerateRequest {
  project_id: string;
  branch?: string;
  paths?: string[];
  framework?: Framework;
  ai_provider?: string;
  instructions?: string;
}

export const generateTests = async (tenant: Tenant, input: GenerateRequest, deps: TestJobDeps): Promise<TestSuite> => {
  const configured = deps.configuredProviders();
  const provider = input.ai_provider ?? configured[0];
  if (!provider || !configured.includes(provider)) {
    throw validationError([
      { field: 'ai_provider', issue: `is not configured in this deployment; configured: ${configured.join(', ') || 'none'}` },
    ]);
  }
  if (!isId('project', input.project_id)) throw unknownProject();
  const now = deps.clock.now();
  const at = isoTime(now);
  const suite: TestSuite = {
    id: newId('testSuite', now),
    object: 'test_suite',
    project_id: input.project_id,
    branch: input.branch ?? null,
    branch_used: null,
    commit: null,
    paths: input.paths ? [...new Set(input.paths)] : null,
    framework: input.framework ?? null,
    framework_detected: false,
    ai_provider: provider,
    instructions: input.instructions ?? null,
    status: 'queued',
    summary: null,
    files: [],
    ai_usage: null,
    latest_run_id: null,
    error: null,
    created_at: at,
    updated_at: at,
    started_at: null,
    completed_at: null,
    revision: 1,
  };
  if (!(await deps.tests.createSuite(tenant, suite))) throw unknownProject();
  try {
    await deps.jobs.start({ action: 'generate', ref: { account_id: tenant.accountId, mode: tenant.mode, id: suite.id } });
  } catch {
    const failed = {
      ...suite,
      status: 'failed' as const,
      error: 'The generation could not be started; ask again.',
      completed_at: at,
      revision: 2,
    };
    if (await deps.tests.saveSuite(tenant, suite, failed, [{ type: 'test.generation.completed', data: suiteSnapshot(failed) }]))
      return failed;
  }
  return suite;
};

export interface RunRequest {
  test_id?: string;
  project_id?: string;
  branch?: string;
  timeout_seconds?: number;
}

export const runTests = async (tenant: Tenant, input: RunRequest, deps: TestJobDeps): Promise<TestRun> => {
  if ((input.test_id === undefined) === (input.project_id === undefined)) {
    const choice = 'give test_id (a generated suite) or project_id (the repository’s own tests)';
    throw validationError([{ field: 'test_id', issue: input.test_id === undefined ? choice : `${choice}, not both` }]);
  }
  let suite: TestSuite | undefined;
  if (input.test_id !== undefined) {
    suite = isId('testSuite', input.test_id) ? await deps.tests.getSuite(tenant, input.test_id) : undefined;
    if (!suite) throw validationError([{ field: 'test_id', issue: 'is not a generated test suite of this account and mode' }]);
    if (suite.status !== 'completed') throw conflict(`The suite is ${suite.status}; only a completed suite can be run.`);
    if (input.branch !== undefined) throw validationError([{ field: 'branch', issue: 'is the suite’s own; give it only with project_id' }]);
  } else if (!isId('project', input.project_id as string)) {
    throw unknownProject();
  }
  const now = deps.clock.now();
  const at = isoTime(now);
  const run: TestRun = {
    id: newId('testRun', now),
    object: 'test_run',
    project_id: suite?.project_id ?? (input.project_id as string),
    suite_id: suite?.id ?? null,
    branch: suite ? suite.branch_used : (input.branch ?? null),
    commit: suite?.commit ?? null,
    framework: suite?.framework ?? null,
    timeout_seconds: input.timeout_seconds ?? 300,
    status: 'queued',
    results: null,
    error: null,
    created_at: at,
    updated_at: at,
    started_at: null,
    completed_at: null,
    revision: 1,
  };
  if (!(await deps.tests.createRun(tenant, run))) {
    throw suite ? validationError([{ field: 'test_id', issue: 'belongs to a project that no longer exists' }]) : unknownProject();
  }
  try {
    await deps.jobs.start({ action: 'run', ref: { account_id: tenant.accountId, mode: tenant.mode, id: run.id } });
  } catch {
    const failed = { ...run, status: 'failed' as const, error: 'The run could not be started; ask again.', completed_at: at, revision: 2 };
    if (await deps.tests.saveRun(tenant, run, failed, [{ type: 'test.run.completed', data: runSnapshot(failed) }])) return failed;
  }
  return run;
};

/** `test_…` is a suite, `run_…` a run; anything else names nothing. */
export const getTestObject = async (tenant: Tenant, id: string, deps: Pick<TestDeps, 'tests'>): Promise<TestSuite | TestRun> => {
  const found = isId('testSuite', id)
    ? await deps.tests.getSuite(tenant, id)
    : isId('testRun', id)
      ? await deps.tests.getRun(tenant, id)
      : undefined;
  if (!found) throw notFound('Test suite or run');
  return found;
};

/** The latest generated suites and runs of the tenant, newest first, optionally of one project. */
export const listRecentTests = async (
  tenant: Tenant,
  filters: { project_id?: string },
  deps: Pick<TestDeps, 'tests'>,
  limit = 50,
): Promise<{ suites: TestSuite[]; runs: TestRun[] }> => {
  const [suites, runs] = await Promise.all([deps.tests.recentSuites(tenant, limit), deps.tests.recentRuns(tenant, limit)]);
  const ofProject = <T extends { project_id: string }>(items: T[]) =>
    filters.project_id ? items.filter((item) => item.project_id === filters.project_id) : items;
  return { suites: ofProject(suites), runs: ofProject(runs) };
};

/** A run's results; for a suite, its latest run's. */
export const getTestResults = async (tenant: Tenant, id: string, deps: Pick<TestDeps, 'tests'>): Promise<TestRun> => {
  const found = await getTestObject(tenant, id, deps);
  if (found.object === 'test_run') return found;
  if (!found.latest_run_id) throw notFound('A run of this suite (POST /v1/tests/run with its test_id)');
  const run = await deps.tests.getRun(tenant, found.latest_run_id);
  if (!run) throw notFound('Test run');
  return run;
};

/** Suites and runs together, newest first by default; a project id that cannot exist matches nothing. */
export const listTests = (
  tenant: Tenant,
  query: ListQuery<'created_at'>,
  filters: TestListFilters,
  deps: Pick<TestDeps, 'tests'>,
): Promise<Page<TestSuite | TestRun>> => {
  if (filters.project_id !== undefined && !isId('project', filters.project_id)) return Promise.resolve({ items: [], total: 0 });
  return deps.tests.list(tenant, query, filters);
};
