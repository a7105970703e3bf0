/**
 * What running a repository's tests (its own or generated ones) yields. Results come from the
 * framework's machine reporter (JUnit XML or jest's JSON), never from scraping console text.
 */

export const frameworks = ['jest', 'vitest', 'node:test', 'pytest'] as const;
export type Framework = (typeof frameworks)[number];

/**
 * passed / failed (an assertion or the test body threw) / skipped (skip, todo, xfail) /
 * errored (the test could not run: a fixture or hook that failed, a file that failed to load).
 */
export type CaseStatus = 'passed' | 'failed' | 'skipped' | 'errored';

export const maxFailureMessageChars = 2000;

export interface TestCaseResult {
  name: string;
  /** Relative to the repository root, with `/` separators; null when the reporter does not say. */
  file: string | null;
  status: CaseStatus;
  duration_ms: number | null;
  /** Capped at {@link maxFailureMessageChars} characters. */
  failure_message: string | null;
}

export interface RunTotals {
  passed: number;
  failed: number;
  skipped: number;
  errored: number;
}

export interface RunResults {
  /** failed = could not run, timed out, or the reporter wrote nothing; completed even when tests fail. */
  status: 'completed' | 'failed';
  reason: string | null;
  totals: RunTotals;
  duration_ms: number;
  cases: TestCaseResult[];
  /** The last ~4 KiB of the combined stdout and stderr. */
  log_excerpt: string;
  exit_code: number | null;
  timed_out: boolean;
}

export interface TestRunInput {
  /** The checked-out tree, with any generated files already written. */
  dir: string;
  framework: Framework;
  timeoutSeconds: number;
  /** Run only these test files (repository-relative paths) when given. */
  files?: string[];
}

export interface TestRunner {
  run(input: TestRunInput): Promise<RunResults>;
}

export const isFramework = (value: unknown): value is Framework =>
  typeof value === 'string' && (frameworks as readonly string[]).includes(value);

export const totalsOf = (cases: readonly TestCaseResult[]): RunTotals => {
  const totals: RunTotals = { passed: 0, failed: 0, skipped: 0, errored: 0 };
  for (const testCase of cases) totals[testCase.status] += 1;
  return totals;
};
