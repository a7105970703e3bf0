import { renderToString } from 'preact-render-to-string';
import type { Framework } from '../../../functions/core/testing/results';
import type { TestRun } from '../../../functions/core/testing/test-records';
import { TestObjectPage } from '../../../functions/pages/views/dashboard/tests/test-object';
import { TestsPage } from '../../../functions/pages/views/dashboard/tests/tests';
import { adminShell } from '../fakes/dashboard-shell';

const noCases = { passed: 0, failed: 0, skipped: 0, errored: 0 };

const run = (overrides: Partial<TestRun> & { framework?: Framework | null } = {}): TestRun => ({
  id: 'run_01JD2QE5K9M1N3P5R7S9T1V3W0',
  object: 'test_run',
  project_id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G',
  suite_id: null,
  branch: 'main',
  commit: null,
  framework: 'jest',
  timeout_seconds: 300,
  status: 'completed',
  results: {
    totals: noCases,
    duration_ms: 812,
    cases: [],
    log_excerpt: 'No tests found, exiting with code 1',
    exit_code: 1,
    timed_out: false,
  },
  error: null,
  created_at: '2026-11-21T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:05.000Z',
  started_at: '2026-11-21T10:00:01.000Z',
  completed_at: '2026-11-21T10:00:05.000Z',
  revision: 3,
  ...overrides,
});

/** The page's text as read: tags dropped, entities and spaces settled. */
const textOf = (html: string): string =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,:])/g, '$1');

const runPage = (of: TestRun) => textOf(renderToString(TestObjectPage({ shell: adminShell(`/dashboard/tests/${of.id}`), object: of })));
const listed = (of: TestRun) => textOf(renderToString(TestsPage({ shell: adminShell('/dashboard/tests'), suites: [], runs: [of] })));

describe('a test run that found no tests', () => {
  it("says so on the run's page, with what to check for the repository's own tests: the framework and where it looks", () => {
    const text = runPage(run());
    expect(text).toContain('No tests found in');
    expect(text).toContain('No tests were found.');
    expect(text).toContain(
      "jest ran and reported no test case, so nothing passed or failed. Check that jest is the repository's test framework",
    );
    expect(text).toContain('files named *.test.js or *.spec.js');
    expect(text).toContain('Failing cases None: no test case ran.');
    expect(text).not.toContain('0 passed');

    expect(runPage(run({ framework: 'pytest' }))).toContain('files named test_*.py or *_test.py');
  });

  it("points a generated suite's run at the suite's files", () => {
    const html = renderToString(
      TestObjectPage({ shell: adminShell('/dashboard/tests/run_1'), object: run({ suite_id: 'test_01JD2QE5K9M1N3P5R7S9T1V3W0' }) }),
    );
    expect(textOf(html)).toContain("jest reported no test case from them: check the suite's files and the cases they declare on its page.");
    expect(html).toContain('href="/dashboard/tests/test_01JD2QE5K9M1N3P5R7S9T1V3W0">its page</a>');
  });

  it('says so in the Tests list too', () => {
    const text = listed(run());
    expect(text).toContain('No tests found: check its framework and where its tests are');
    expect(text).not.toContain('0 passed');
  });

  it('keeps the totals of a run that ran cases, and of a failed run, which says why in its error', () => {
    const ran = run({
      results: { ...run().results!, totals: { ...noCases, passed: 3 }, cases: [] },
    });
    expect(runPage(ran)).toContain('3 passed, 0 failed, 0 skipped');
    expect(runPage(ran)).not.toContain('No tests were found');
    expect(runPage(ran)).toContain('Failing cases None.');

    const timedOut = run({ status: 'failed', error: 'the run timed out after 300 s' });
    expect(runPage(timedOut)).toContain('the run timed out after 300 s');
    expect(runPage(timedOut)).not.toContain('No tests were found');
    expect(listed(timedOut)).toContain('0 passed, 0 failed, 0 skipped');
  });
});
