import type { Framework } from '../../../../core/testing/results';
import type { TestRun } from '../../../../core/testing/test-records';
import { Alert } from '../../../parts/alert';

/**
 * Whether a run completed with no test case at all: the framework ran and found nothing to run. A
 * failed run (timed out, no report) has no cases either, but says why in its error instead.
 */
export const foundNoTests = (run: TestRun): boolean => {
  if (run.status !== 'completed' || !run.results) return false;
  const { passed, failed, skipped, errored } = run.results.totals;
  return passed + failed + skipped + errored === 0 && run.results.cases.length === 0;
};

/** Where each framework looks for tests when the repository's configuration does not say. */
const whereTestsAreLooked: Record<Framework, string> = {
  jest: 'files named *.test.js or *.spec.js (or .ts, .jsx, .tsx), or any file in a __tests__ folder, unless its jest config sets testMatch or roots',
  vitest: 'files named *.test.* or *.spec.*, unless its vitest config sets test.include',
  'node:test':
    'files named *.test.js, *-test.js, *_test.js, test-*.js or test.js (also .cjs and .mjs), or any JavaScript file in a test folder',
  pytest:
    'files named test_*.py or *_test.py, with functions named test_* (or classes named Test*), unless its pytest configuration sets testpaths or python_files',
};

/** A run that found no tests says so, and what to check: the suite's files, or the framework and where it looks. */
export const NoTestsFound = ({ run }: { run: TestRun }) => (
  <Alert kind="info" title="No tests were found.">
    {run.suite_id ? (
      <p>
        The run wrote the suite's generated files and {run.framework ?? 'its framework'} reported no test case from them: check the suite's
        files and the cases they declare on <a href={`/dashboard/tests/${encodeURIComponent(run.suite_id)}`}>its page</a>.
      </p>
    ) : (
      <p>
        {run.framework ? `${run.framework} ran` : 'The run ended'} and reported no test case, so nothing passed or failed. Check that{' '}
        {run.framework ?? 'the framework used'} is the repository's test framework (it is detected from the repository's config files,
        package.json and pytest's markers) and that the tests are where it looks
        {run.framework ? `: ${whereTestsAreLooked[run.framework]}` : ''}.
      </p>
    )}
  </Alert>
);
