/**
 * Runs a repository's tests (its own or generated ones) locally, in a child process, and reads the results from
 * the framework's machine reporter (JUnit XML or jest's JSON), never from the console text.
 *
 * What the isolation does:
 * - The command runs with `cwd` = the checked-out tree and an environment built from scratch, not inherited:
 *   PATH (the directory of the service's node, of the resolved python for pytest, then /usr/local/bin:/usr/bin:/bin),
 *   HOME and TMPDIR (fresh empty directories made for this run and deleted after it), LANG=C.UTF-8, CI=true,
 *   NODE_ENV=test, plus NODE_OPTIONS=--experimental-vm-modules for jest in a `"type": "module"` package and
 *   PYTHONDONTWRITEBYTECODE=1 for pytest. Nothing else: no AWS_* credentials, no TABLE_NAME or other service
 *   variables, no *_KEY / *_TOKEN, no LOCAL_*, no proxy or CA settings.
 * - It is spawned `detached`, so it leads its own process group; when the timeout fires the whole group gets
 *   SIGKILL (`process.kill(-pid)`), and after a normal exit the group is killed again to end stray children
 *   (servers, watchers, `sleep`s) the tests left behind. stdin is closed (`ignore`).
 * - stdout and stderr are always drained (a chatty test never blocks on a full pipe) but only the last
 *   {@link defaultLogExcerptBytes} bytes of the combined output are kept, as `log_excerpt`.
 * - The report is written to a separate temporary directory outside the tree, read with a size cap, and
 *   parsed as data (a report that is missing or unparseable makes the run `failed`).
 *
 * What it does NOT do (locally):
 * - No network sandbox: the tests can reach the network, the metadata endpoint included if the host has one.
 * - No file system sandbox: it runs as the same OS user as the service, so the tests can read and write whatever
 *   that user can (the service's files, other temp directories, the report once they find its path).
 * - No CPU, memory, disk or process-count limits beyond the wall-clock timeout.
 * - A process that leaves the group (`setsid`, double fork into a new session) escapes the final kill.
 * - POSIX only (process groups); not for Windows.
 * Locally this limits the damage (no secrets handed over, no runaway processes, bounded memory for output); it
 * is not a sandbox. In AWS the tests run in CodeBuild instead, whose build container is the isolation boundary.
 *
 * Commands (the report path is always an absolute path in the runner's temporary directory):
 * - jest: the repository's own `node_modules/jest` (or `.bin/jest`), else the service's own jest (`jest/bin/jest`), as
 *   `node <jest.js> --ci --json --outputFile=<report> --watchman=false --forceExit [--rootDir <dir>]
 *   [--runTestsByPath <files>]`; `--rootDir` only when the repository has no jest config of its own.
 * - vitest: the repository's own `node_modules/vitest` only (it is not bundled with the service):
 *   `vitest run --reporter=default --reporter=junit --outputFile.junit=<report> [files]`.
 * - node:test: `node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit
 *   --test-reporter-destination=<report> [files]`, with the service's own node (checked on node 20.20; the
 *   service requires ≥ 20.19). node's junit output names no file, so cases have `file: null` unless one file ran.
 * - pytest: `python -m pytest --junitxml=<report> -o junit_family=xunit1 -p no:cacheprovider -q
 *   --continue-on-collection-errors --rootdir=<dir> [files]` (xunit1 so every case names its file).
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { parseJestJson } from '../reports/jest-json';
import { parseJUnitXml } from '../reports/junit-xml';
import type { ParsedReport } from '../reports/report-text';
import { type RunResults, type TestRunInput, type TestRunner, isFramework, totalsOf } from '../../../core/testing/results';
import { repositoryPathProblem } from '../../../core/workspace/repository-path';

export const defaultLogExcerptBytes = 4 * 1024;
const maxReportBytes = 32 * 1024 * 1024;
const maxManifestBytes = 1024 * 1024;
const safePath = ['/usr/local/bin', '/usr/bin', '/bin'];
/** How long to wait for the output pipes to close once the process group is dead. */
const pipeCloseGraceMs = 2_000;

export interface LocalTestRunnerOptions {
  toolPaths?: {
    /** The node binary for jest, vitest and node:test (default: the service's own, `process.execPath`). */
    node?: string;
    /** The python with pytest installed (default: `python3` on the service's PATH, resolved to its real path). */
    python?: string;
    /** jest's `bin/jest.js` used when the repository has none (default: the service's own jest). */
    jest?: string;
  };
  /** How much of the end of the combined output to keep (default 4 KiB). */
  logExcerptBytes?: number;
  /** Where the per-run temporary directories go (default `os.tmpdir()`). */
  tempRoot?: string;
}

type ReportKind = 'junit' | 'jest-json';

interface Plan {
  command: string;
  args: string[];
  env: Record<string, string>;
  report: ReportKind;
}

const isFile = async (path: string): Promise<boolean> => (await stat(path).catch(() => null))?.isFile() ?? false;

const readJson = async (path: string): Promise<Record<string, unknown> | null> => {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile() || info.size > maxManifestBytes) return null;
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

const jestConfigNames = ['js', 'cjs', 'mjs', 'ts', 'cts', 'mts', 'json'].map((ext) => `jest.config.${ext}`);

/** Keeps the last `limit` bytes of everything pushed, holding no more than that. */
class OutputTail {
  private tail = Buffer.alloc(0);
  private total = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (chunk.length >= this.limit) {
      this.tail = Buffer.from(chunk.subarray(chunk.length - this.limit));
      return;
    }
    const joined = Buffer.concat([this.tail, chunk]);
    this.tail = joined.length > this.limit ? Buffer.from(joined.subarray(joined.length - this.limit)) : joined;
  }

  text(): string {
    let bytes = this.tail;
    if (this.total > bytes.length) {
      // Cut mid-way through a character: drop its continuation bytes.
      let start = 0;
      while (start < bytes.length && start < 4 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
      bytes = bytes.subarray(start);
    }

    return bytes.toString('utf8').replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '');
  }
}

const killGroup = (pid: number | undefined): void => {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already gone.
  }
};

const delay = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

const failed = (reason: string, started: number, extra: Partial<RunResults> = {}): RunResults => ({
  status: 'failed',
  reason,
  totals: { passed: 0, failed: 0, skipped: 0, errored: 0 },
  duration_ms: Date.now() - started,
  cases: [],
  log_excerpt: '',
  exit_code: null,
  timed_out: false,
  ...extra,
});

export const localTestRunner = (options: LocalTestRunnerOptions = {}): TestRunner => {
  const logExcerptBytes = options.logExcerptBytes ?? defaultLogExcerptBytes;
  const nodePath = options.toolPaths?.node ?? process.execPath;
  let pythonPath: Promise<string> | undefined;

  /** The real interpreter behind `python3` (pyenv shims need HOME and PYENV_ROOT, which the tests do not get). */
  const resolvePython = (): Promise<string> => {
    if (options.toolPaths?.python) return Promise.resolve(options.toolPaths.python);
    pythonPath ??= new Promise<string>((resolve) => {
      // Our own interpreter with the service's environment, isolated mode (-I), outside any repository.
      const probe = spawn('python3', ['-I', '-c', 'import sys; print(sys.executable)'], {
        cwd: tmpdir(),
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 15_000,
      });
      let out = '';
      probe.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      probe.once('error', () => resolve('python3'));
      probe.once('close', (code) => resolve(code === 0 && out.trim().startsWith('/') ? out.trim() : 'python3'));
    });
    return pythonPath;
  };

  /** The service's own jest CLI (jest's `exports` map names it `jest/bin/jest`). */
  const serviceJest = (): string => {
    if (options.toolPaths?.jest) return options.toolPaths.jest;
    const require = createRequire(import.meta.url);
    try {
      return require.resolve('jest/bin/jest');
    } catch {
      return join(dirname(require.resolve('jest/package.json')), 'bin', 'jest.js');
    }
  };

  const plan = async (input: TestRunInput, dir: string, report: string, files: string[]): Promise<Plan | string> => {
    const env: Record<string, string> = {};
    switch (input.framework) {
      case 'jest': {
        const pkg = await readJson(join(dir, 'package.json'));
        const ownJest = join(dir, 'node_modules', 'jest', 'bin', 'jest.js');
        const ownBin = join(dir, 'node_modules', '.bin', 'jest');
        const [command, prefix] = (await isFile(ownJest))
          ? [nodePath, [ownJest]]
          : (await isFile(ownBin))
            ? [ownBin, []]
            : [nodePath, [serviceJest()]];
        let hasOwnConfig = pkg !== null && Object.prototype.hasOwnProperty.call(pkg, 'jest');
        for (const name of jestConfigNames) hasOwnConfig ||= await isFile(join(dir, name));
        if (pkg?.['type'] === 'module') env['NODE_OPTIONS'] = '--experimental-vm-modules';
        return {
          command,
          args: [
            ...prefix,
            '--ci',
            '--json',
            `--outputFile=${report}`,
            '--watchman=false',
            '--forceExit',
            ...(hasOwnConfig ? [] : ['--rootDir', dir]),
            ...(files.length > 0 ? ['--runTestsByPath', ...files] : []),
          ],
          env,
          report: 'jest-json',
        };
      }
      case 'vitest': {
        const ownVitest = join(dir, 'node_modules', 'vitest', 'vitest.mjs');
        const ownBin = join(dir, 'node_modules', '.bin', 'vitest');
        const [command, prefix] = (await isFile(ownVitest)) ? [nodePath, [ownVitest]] : (await isFile(ownBin)) ? [ownBin, []] : [null, []];
        if (command === null) return 'vitest is not installed in the repository';
        return {
          command,
          args: [...prefix, 'run', '--reporter=default', '--reporter=junit', `--outputFile.junit=${report}`, ...files],
          env,
          report: 'junit',
        };
      }
      case 'node:test':
        return {
          command: nodePath,
          args: [
            '--test',
            '--test-reporter=spec',
            '--test-reporter-destination=stdout',
            '--test-reporter=junit',
            `--test-reporter-destination=${report}`,
            ...files,
          ],
          env,
          report: 'junit',
        };
      case 'pytest':
        env['PYTHONDONTWRITEBYTECODE'] = '1';
        return {
          command: await resolvePython(),
          args: [
            '-m',
            'pytest',
            `--junitxml=${report}`,
            '-o',
            'junit_family=xunit1',
            '-p',
            'no:cacheprovider',
            '-q',
            '--continue-on-collection-errors',
            `--rootdir=${dir}`,
            ...files,
          ],
          env,
          report: 'junit',
        };
    }
  };

  const run = async (input: TestRunInput): Promise<RunResults> => {
    const started = Date.now();
    if (!isFramework(input.framework)) return failed(`unknown test framework ${JSON.stringify(input.framework)}`, started);
    if (!Number.isFinite(input.timeoutSeconds) || input.timeoutSeconds <= 0) {
      return failed(`invalid timeout ${String(input.timeoutSeconds)} s`, started);
    }
    if (input.files !== undefined && input.files.length === 0) return failed('no test files to run', started);
    for (const file of input.files ?? []) {
      const problem = repositoryPathProblem(file);
      if (problem) return failed(`test file path ${JSON.stringify(file.slice(0, 200))} ${problem}`, started);
    }

    const dir = await realpath(input.dir).catch(() => null);
    if (dir === null || !(await stat(dir)).isDirectory()) return failed('the repository directory does not exist', started);
    // Absolute paths: a file named like an option (`--config=…`) stays a path.
    const files = (input.files ?? []).map((file) => join(dir, ...file.split('/')));

    const tempRoot = options.tempRoot ?? tmpdir();
    const sandbox = await mkdtemp(join(tempRoot, 'test-run-sandbox-'));
    const reportDir = await mkdtemp(join(tempRoot, 'test-run-report-'));
    try {
      const home = join(sandbox, 'home');
      const tmp = join(sandbox, 'tmp');
      await mkdir(home, { mode: 0o700 });
      await mkdir(tmp, { mode: 0o700 });
      const reportPath = join(reportDir, input.framework === 'jest' ? 'report.json' : 'report.xml');

      const planned = await plan(input, dir, reportPath, files);
      if (typeof planned === 'string') return failed(planned, started);

      const pythonDir = input.framework === 'pytest' && planned.command.startsWith('/') ? [dirname(planned.command)] : [];
      const pathDirs = [...new Set([dirname(nodePath), ...pythonDir, ...safePath])];
      const env: Record<string, string> = {
        PATH: pathDirs.join(':'),
        HOME: home,
        TMPDIR: tmp,
        LANG: 'C.UTF-8',
        CI: 'true',
        NODE_ENV: 'test',
        ...planned.env,
      };

      const output = new OutputTail(logExcerptBytes);
      const child = spawn(planned.command, planned.args, {
        cwd: dir,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
      const pid = child.pid;
      child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
      child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
      const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));

      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(pid);
      }, input.timeoutSeconds * 1000);

      const outcome = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | { error: Error }>((resolve) => {
        child.once('error', (error) => resolve({ error }));
        child.once('exit', (code, signal) => resolve({ code, signal }));
      });
      clearTimeout(timer);
      // Stray children the tests left running (same process group) end with the run.
      killGroup(pid);
      await Promise.race([closed, delay(pipeCloseGraceMs)]);
      child.stdout?.destroy();
      child.stderr?.destroy();

      const log_excerpt = output.text();
      if ('error' in outcome) {
        return failed(`could not start ${basename(planned.command)}: ${outcome.error.message}`, started, { log_excerpt });
      }
      const exit_code = outcome.code;
      const exitDescription = exit_code !== null ? `exit code ${exit_code}` : `signal ${outcome.signal ?? 'unknown'}`;

      let parsed: ParsedReport | null = null;
      let reportProblem: string | null = null;
      const reportInfo = await stat(reportPath).catch(() => null);
      if (!reportInfo?.isFile()) reportProblem = `the test framework wrote no report (${exitDescription})`;
      else if (reportInfo.size > maxReportBytes)
        reportProblem = `the test framework wrote no report (${exitDescription}): the report is too large`;
      else {
        try {
          const text = await readFile(reportPath, 'utf8');
          parsed = planned.report === 'jest-json' ? parseJestJson(text, { rootDir: dir }) : parseJUnitXml(text, { rootDir: dir });
        } catch (error) {
          reportProblem = `the test framework wrote no report (${exitDescription}): ${(error as Error).message}`;
        }
      }

      const onlyFile = input.files?.length === 1 ? input.files[0] : undefined;
      const cases = (parsed?.cases ?? []).map((testCase) =>
        testCase.file === null && onlyFile ? { ...testCase, file: onlyFile } : testCase,
      );
      const common = { totals: totalsOf(cases), cases, log_excerpt, exit_code, duration_ms: Date.now() - started };
      if (timedOut) return { ...common, status: 'failed', reason: `timed out after ${input.timeoutSeconds} s`, timed_out: true };
      if (reportProblem !== null) return { ...common, status: 'failed', reason: reportProblem, timed_out: false };
      return { ...common, status: 'completed', reason: null, timed_out: false };
    } finally {
      await rm(sandbox, { recursive: true, force: true }).catch(() => undefined);
      await rm(reportDir, { recursive: true, force: true }).catch(() => undefined);
    }
  };

  return { run };
};
