import type { TestRun, TestSuite } from './test-records';

/** Event data of `test.generation.completed`: the suite after it finished, whatever finished it, without its files' content. */
export const suiteSnapshot = (suite: TestSuite): Record<string, unknown> => ({
  id: suite.id,
  project_id: suite.project_id,
  status: suite.status,
  branch: suite.branch_used ?? suite.branch,
  commit: suite.commit,
  framework: suite.framework,
  files: suite.files.map((file) => ({ cases: file.cases, path: file.path })),
  error: suite.error,
  completed_at: suite.completed_at,
});

/** Event data of `test.run.completed`: the run after it finished, whatever finished it. */
export const runSnapshot = (run: TestRun): Record<string, unknown> => ({
  id: run.id,
  project_id: run.project_id,
  suite_id: run.suite_id,
  status: run.status,
  framework: run.framework,
  totals: run.results?.totals ?? null,
  duration_ms: run.results?.duration_ms ?? null,
  error: run.error,
  completed_at: run.completed_at,
});
