import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import type { TokenUsage } from '../workflows/stage-data';
import type { PendingEvent } from '../workflows/workflow';
import type { Framework, RunResults } from './results';

export const jobStatuses = ['queued', 'running', 'completed', 'failed'] as const;
export type JobStatus = (typeof jobStatuses)[number];

export interface GeneratedTestFile {
  path: string;
  content: string;
  /** The test cases the file declares. */
  cases: string[];
}

/** A generated test suite (`test_…`). */
export interface TestSuite {
  id: string;
  object: 'test_suite';
  project_id: string;
  /** As asked; null means the repository's default branch (`branch_used` says which). */
  branch: string | null;
  branch_used: string | null;
  commit: string | null;
  /**
   * The repository it was generated from (the project's then): its runs check `commit` out of it,
   * whatever the project names later. Absent on suites stored before it was kept (their runs use
   * the project's) and until generation completes.
   */
  repository?: string;
  paths: string[] | null;
  /** As asked, or detected from the repository when not given. */
  framework: Framework | null;
  framework_detected: boolean;
  ai_provider: string;
  instructions: string | null;
  status: JobStatus;
  summary: string | null;
  files: GeneratedTestFile[];
  ai_usage: (TokenUsage & { provider: string; model: string }) | null;
  /** The suite's latest run, if any. */
  latest_run_id: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  revision: number;
}

/** A run (`run_…`) of a generated suite or of a repository's own tests. */
export interface TestRun {
  id: string;
  object: 'test_run';
  project_id: string;
  suite_id: string | null;
  branch: string | null;
  commit: string | null;
  framework: Framework | null;
  timeout_seconds: number;
  status: JobStatus;
  results: Omit<RunResults, 'status' | 'reason'> | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  revision: number;
}

export interface TestJobRef {
  account_id: string;
  mode: Tenant['mode'];
  id: string;
}

export interface TestJob {
  action: 'generate' | 'run';
  ref: TestJobRef;
}

export interface TestListFilters {
  project_id?: string;
  object?: 'test_suite' | 'test_run';
  status?: JobStatus;
}

export interface TestRepository {
  /** Suites and runs together, in creation order. */
  list(tenant: Tenant, query: ListQuery<'created_at'>, filters: TestListFilters): Promise<Page<TestSuite | TestRun>>;
  /** False when the project does not exist. */
  createSuite(tenant: Tenant, suite: TestSuite): Promise<boolean>;
  /** Stores the run; a run of a suite also becomes the suite's latest run. False when the project does not exist. */
  createRun(tenant: Tenant, run: TestRun): Promise<boolean>;
  getSuite(tenant: Tenant, id: string): Promise<TestSuite | undefined>;
  getRun(tenant: Tenant, id: string): Promise<TestRun | undefined>;
  saveSuite(tenant: Tenant, previous: TestSuite, next: TestSuite, events: PendingEvent[]): Promise<boolean>;
  saveRun(tenant: Tenant, previous: TestRun, next: TestRun, events: PendingEvent[]): Promise<boolean>;
  /** The tenant's latest suites, newest first (ids sort by creation time). */
  recentSuites(tenant: Tenant, limit: number): Promise<TestSuite[]>;
  /** The tenant's latest runs, newest first. */
  recentRuns(tenant: Tenant, limit: number): Promise<TestRun[]>;
}

/** One suite or run at a time: what generating and running tests use. */
export type TestWrites = Pick<TestRepository, 'createSuite' | 'createRun' | 'getSuite' | 'getRun' | 'saveSuite' | 'saveRun'>;
