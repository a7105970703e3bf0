import type { TestRun } from './test-records';

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
