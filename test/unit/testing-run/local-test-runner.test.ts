import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { localTestRunner } from '../../../functions/adapters/testing/local-runner/local-test-runner';
import type { RunResults } from '../../../functions/core/testing/results';
import {
  environmentRepository,
  esmJestRepository,
  type Files,
  hangingRepository,
  jestRepository,
  loudRepository,
  nodeTestRepository,
  pytestRepository,
  writeRepository,
} from './fixtures';

/**
 * Runs the real frameworks on fixture repositories: the service's own jest (none of the fixtures has
 * node_modules), node 20's test runner and python3's pytest. vitest is not installed, so only its absence is run.
 */
const runner = localTestRunner();
const made: string[] = [];
const repository = async (files: Files): Promise<string> => {
  const dir = await writeRepository(files, 'testing-run-');
  made.push(dir);
  return dir;
};

afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Alive and not a zombie (a container's init may be slow to reap orphans). */
const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return existsSync(`/proc/${pid}`);
  }
};

const waitUntilGone = async (pid: number, ms: number): Promise<boolean> => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
};

describe('localTestRunner', () => {
  it("runs jest with the service's own jest, counting todo and skip as skipped, with relative files and messages", async () => {
    const dir = await repository(jestRepository);

    const results = await runner.run({ dir, framework: 'jest', timeoutSeconds: 60 });

    expect(results.status).toBe('completed');
    expect(results.totals).toEqual({ passed: 3, failed: 2, skipped: 2, errored: 0 });
    expect(results.exit_code).toBe(1);
    expect(results.timed_out).toBe(false);
    expect(results.reason).toBeNull();
    expect(new Set(results.cases.map((c) => c.file))).toEqual(new Set(['__tests__/math.test.js']));
    const failing = results.cases.filter((c) => c.status === 'failed');
    expect(failing.map((c) => c.name).sort()).toEqual(['math > adds wrongly', 'top level throws']);
    expect(failing.find((c) => c.name === 'math > adds wrongly')?.failure_message).toContain('Expected: 5');
    expect(failing.find((c) => c.name === 'top level throws')?.failure_message).toContain('kaboom');
    expect(results.log_excerpt).toContain('Tests:');
    expect(Buffer.byteLength(results.log_excerpt)).toBeLessThanOrEqual(4096);
  });

  it('runs only the files given, and fails with a reason when the framework writes no report', async () => {
    const dir = await repository({ ...jestRepository, '__tests__/other.test.js': "test('other', () => {});\n" });
    const nodeDir = await repository(nodeTestRepository);

    const [only, missing] = await Promise.all([
      runner.run({ dir, framework: 'jest', timeoutSeconds: 60, files: ['__tests__/other.test.js'] }),
      runner.run({ dir: nodeDir, framework: 'node:test', timeoutSeconds: 60, files: ['test/missing.test.js'] }),
    ]);

    expect(only.status).toBe('completed');
    expect(only.cases).toEqual([expect.objectContaining({ name: 'other', file: '__tests__/other.test.js', status: 'passed' })]);
    expect(missing).toMatchObject({
      status: 'failed',
      reason: 'the test framework wrote no report (exit code 1)',
      exit_code: 1,
      cases: [],
    });
    expect(missing.log_excerpt).toContain('Could not find');
  });

  it('runs jest on an ES module package (import statements, no config)', async () => {
    const dir = await repository(esmJestRepository);

    const results = await runner.run({ dir, framework: 'jest', timeoutSeconds: 60 });

    expect(results.status).toBe('completed');
    expect(results.cases.map((c) => [c.name, c.file, c.status])).toEqual([
      ['greets', 'test/greet.test.js', 'passed'],
      ['greets rudely', 'test/greet.test.js', 'failed'],
    ]);
  });

  it('runs node:test, counting both kinds of skip', async () => {
    const dir = await repository(nodeTestRepository);

    const results = await runner.run({ dir, framework: 'node:test', timeoutSeconds: 30 });

    expect(results.status).toBe('completed');
    expect(results.totals).toEqual({ passed: 2, failed: 1, skipped: 2, errored: 0 });
    expect(results.cases.map((c) => [c.name, c.status])).toEqual([
      ['adds', 'passed'],
      ['adds wrongly', 'failed'],
      ['skipped by option', 'skipped'],
      ['skipped at run time', 'skipped'],
      ['nested > multiplies', 'passed'],
    ]);
    expect(results.cases.find((c) => c.status === 'failed')?.failure_message).toContain('4 !== 5');
    // The spec reporter goes to the log, the junit one to the report.
    expect(results.log_excerpt).toContain('adds wrongly');
  });

  it('runs pytest, counting an erroring fixture as errored', async () => {
    const dir = await repository(pytestRepository);

    const results = await runner.run({ dir, framework: 'pytest', timeoutSeconds: 60 });

    expect(results.status).toBe('completed');
    expect(results.totals).toEqual({ passed: 2, failed: 1, skipped: 1, errored: 1 });
    expect(results.cases.find((c) => c.name === 'test_needs_database')).toMatchObject({ status: 'errored', file: 'tests/test_math.py' });
    expect(results.cases.find((c) => c.name === 'test_adds_wrongly')?.failure_message).toContain('two and two');
    // No cache or bytecode left in the repository.
    expect(existsSync(join(dir, '.pytest_cache'))).toBe(false);
    expect(existsSync(join(dir, 'tests', '__pycache__'))).toBe(false);
  });

  it('kills the whole process group on timeout, a sleeping grandchild included', async () => {
    const dir = await repository(hangingRepository);
    const started = Date.now();

    const results = await runner.run({ dir, framework: 'node:test', timeoutSeconds: 3 });

    expect(results).toMatchObject({ status: 'failed', timed_out: true, reason: 'timed out after 3 s', exit_code: null });
    expect(Date.now() - started).toBeLessThan(10_000);
    const grandchild = Number(await readFile(join(dir, 'grandchild.pid'), 'utf8'));
    expect(grandchild).toBeGreaterThan(0);
    expect(await waitUntilGone(grandchild, 3_000)).toBe(true);
  });

  it("gives the tests none of the service's environment", async () => {
    const dir = await repository(environmentRepository);
    const planted = {
      AWS_SECRET_ACCESS_KEY: 'fake-secret-for-the-isolation-test',
      AWS_ACCESS_KEY_ID: 'AKIAFAKEFAKEFAKE',
      TABLE_NAME: 'service-table',
      OPENAI_API_KEY: 'sk-fake',
      LOCAL_DATA_DIR: '/srv/data',
    };
    const previous = Object.fromEntries(Object.keys(planted).map((key) => [key, process.env[key]]));
    Object.assign(process.env, planted);
    let results: RunResults;
    try {
      results = await runner.run({ dir, framework: 'node:test', timeoutSeconds: 30 });
    } finally {
      for (const [key, value] of Object.entries(previous)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }

    expect(results.status).toBe('completed');
    expect(results.totals.passed).toBe(1);
    const seen = JSON.parse(await readFile(join(dir, 'seen-env.json'), 'utf8')) as Record<string, string>;
    for (const key of Object.keys(planted)) expect(seen).not.toHaveProperty(key);
    expect(Object.keys(seen).filter((key) => key.startsWith('AWS_'))).toEqual([]);
    // Only the allow-list, plus what node:test itself sets in its per-file child (NODE_TEST_CONTEXT).
    const allowed = new Set(['PATH', 'HOME', 'TMPDIR', 'LANG', 'CI', 'NODE_ENV']);
    const fromParent = Object.keys(seen).filter((key) => !allowed.has(key) && key in process.env);
    expect(fromParent).toEqual([]);
    expect(seen).toMatchObject({ LANG: 'C.UTF-8', CI: 'true', NODE_ENV: 'test' });
    expect(seen['HOME']).not.toBe(process.env['HOME']);
    expect(seen['TMPDIR']?.startsWith(join(seen['HOME'] ?? '', '..'))).toBe(true);
    expect(seen['PATH']).not.toBe(process.env['PATH']);
    // The fresh HOME and TMPDIR are gone after the run.
    expect(existsSync(seen['HOME'] ?? '/')).toBe(false);
  });

  it('keeps only the last 4 KiB of 5 MiB of output, and still completes', async () => {
    const dir = await repository(loudRepository);

    const results = await runner.run({ dir, framework: 'jest', timeoutSeconds: 60 });

    expect(results.status).toBe('completed');
    expect(results.totals).toEqual({ passed: 1, failed: 0, skipped: 0, errored: 0 });
    expect(Buffer.byteLength(results.log_excerpt)).toBeLessThanOrEqual(4096);
    expect(results.log_excerpt.length).toBeGreaterThan(1000);
  });

  it('fails without running what cannot run', async () => {
    const dir = await repository({ ...nodeTestRepository, 'package.json': JSON.stringify({ devDependencies: { vitest: '^3.0.0' } }) });

    const vitest = await runner.run({ dir, framework: 'vitest', timeoutSeconds: 30 });
    const escaping = await runner.run({ dir, framework: 'node:test', timeoutSeconds: 30, files: ['../outside.test.js'] });
    const none = await runner.run({ dir, framework: 'node:test', timeoutSeconds: 30, files: [] });
    const nowhere = await runner.run({ dir: join(dir, 'missing'), framework: 'node:test', timeoutSeconds: 30 });
    const noPython = await localTestRunner({ toolPaths: { python: '/nonexistent/python3' } }).run({
      dir,
      framework: 'pytest',
      timeoutSeconds: 30,
    });

    expect(vitest).toMatchObject({ status: 'failed', reason: 'vitest is not installed in the repository', cases: [], timed_out: false });
    expect(escaping).toMatchObject({ status: 'failed', reason: expect.stringContaining('".." segment') });
    expect(none).toMatchObject({ status: 'failed', reason: 'no test files to run' });
    expect(nowhere).toMatchObject({ status: 'failed', reason: 'the repository directory does not exist' });
    expect(noPython).toMatchObject({
      status: 'failed',
      reason: 'could not start python3: spawn /nonexistent/python3 ENOENT',
      exit_code: null,
    });
  });
});
