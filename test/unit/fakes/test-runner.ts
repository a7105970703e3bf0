import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { RunResults, TestRunInput, TestRunner } from '../../../functions/core/testing/results';

/** Every file under `root` (path → content), `/`-separated, in path order. */
export const filesUnder = async (root: string): Promise<Record<string, string>> => {
  const found: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) found[relative(root, path).split('\\').join('/')] = await readFile(path, 'utf8');
    }
  };
  await walk(root);
  return Object.fromEntries(Object.entries(found).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
};

export const passingResults = (overrides: Partial<RunResults> = {}): RunResults => ({
  status: 'completed',
  reason: null,
  totals: { passed: 2, failed: 1, skipped: 0, errored: 0 },
  duration_ms: 1234,
  cases: [
    { name: 'math > adds', file: '__tests__/math.test.js', status: 'passed', duration_ms: 3, failure_message: null },
    { name: 'math > multiplies', file: '__tests__/math.test.js', status: 'passed', duration_ms: 1, failure_message: null },
    {
      name: 'math > adds wrongly',
      file: '__tests__/math.test.js',
      status: 'failed',
      duration_ms: 2,
      failure_message: 'Expected: 5\nReceived: 4',
    },
  ],
  log_excerpt: 'Tests: 1 failed, 2 passed, 3 total',
  exit_code: 1,
  timed_out: false,
  ...overrides,
});

/**
 * A TestRunner that records each input with the tree it was given (read when `run` is called),
 * and answers `results` (an Error is thrown).
 */
export const fakeTestRunner = (results: RunResults | Error = passingResults()) => {
  const calls: Array<{ input: TestRunInput; tree: Record<string, string> }> = [];
  const behaviour: { results: RunResults | Error } = { results };
  const runner: TestRunner = {
    async run(input) {
      calls.push({ input: structuredClone(input), tree: await filesUnder(input.dir) });
      if (behaviour.results instanceof Error) throw behaviour.results;
      return structuredClone(behaviour.results);
    },
  };
  return { ...runner, calls, behaviour };
};
