import { renderToString } from 'preact-render-to-string';
import type { TestRun } from '../../../functions/core/testing/test-records';
import { TestsPage } from '../../../functions/pages/views/dashboard/tests/tests';
import { adminShell } from '../fakes/dashboard-shell';

const run = (totals: { passed: number; failed: number; skipped: number; errored: number }): TestRun => ({
  id: `run_01JD2QE5K9M1N3P5R7S9T1V3W${totals.errored}`,
  object: 'test_run',
  project_id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G',
  suite_id: null,
  branch: 'main',
  commit: null,
  framework: 'jest',
  timeout_seconds: 300,
  status: 'completed',
  results: { totals, duration_ms: 4120, cases: [], log_excerpt: '', exit_code: 1, timed_out: false },
  error: null,
  created_at: '2026-11-21T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:05.000Z',
  started_at: '2026-11-21T10:00:01.000Z',
  completed_at: '2026-11-21T10:00:05.000Z',
  revision: 3,
});

/** Each run's row: whether it is marked failed, and its totals as read. */
const rows = (html: string) =>
  [...html.matchAll(/<tr( class="row--failed")?><th scope="row">[\s\S]*?<\/th><td>[\s\S]*?<\/td><td>([^<]*)<\/td>/g)].map(
    ([, failed, totals]) => ({ failed: Boolean(failed), totals }),
  );

describe('the Tests list', () => {
  it('says how many cases could not run (errored), and marks such a run as one with failures', () => {
    const html = renderToString(
      TestsPage({
        shell: adminShell('/dashboard/tests'),
        suites: [],
        runs: [run({ passed: 4, failed: 0, skipped: 1, errored: 2 }), run({ passed: 5, failed: 0, skipped: 0, errored: 0 })],
      }),
    );
    expect(rows(html)).toEqual([
      { failed: true, totals: '4 passed, 0 failed, 1 skipped, 2 errored' },
      { failed: false, totals: '5 passed, 0 failed, 0 skipped' },
    ]);
  });
});
