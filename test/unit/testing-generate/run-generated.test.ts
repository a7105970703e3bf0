/**
 * Proof that the local provider's smoke tests run and pass under the real frameworks: the service's
 * own Jest binary (CommonJS, ES module and, through ts-jest, strict TypeScript), node --test, and
 * pytest when python3 has it.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { localProvider } from '../../../functions/adapters/ai/local-provider';
import { smokeTests } from '../../../functions/engines/testing/smoke-tests';
import type { GeneratedTests, TestSource } from '../../../functions/core/ai/provider';
import { collectSources } from '../../../functions/engines/testing/collect-sources';
import {
  commonJsCompiled,
  commonJsMath,
  commonJsWhole,
  esmNames,
  esmStore,
  makeTempDir,
  pythonCalc,
  pythonShapes,
  pythonUtil,
  testsTask,
  tsExportEquals,
  tsGreeter,
  writeTree,
  type TestsTask,
} from './fixtures';

const serviceRoot = fileURLToPath(new URL('../../../', import.meta.url));
const jestBin = `${serviceRoot}node_modules/jest/bin/jest.js`;
const tsJest = `${serviceRoot}node_modules/ts-jest`;

// pytest is a requirement of the test tier (.ci/run installs Debian's python3-pytest): no skipping.
const itWithPytest = it;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

const run = (command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Ran> =>
  new Promise((resolve, reject) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, CI: 'true' };
    for (const key of Object.keys(childEnv)) if (key.startsWith('JEST_') || key === 'NODE_OPTIONS') delete childEnv[key];
    const child = spawn(command, args, { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

/** A temporary repository holding `files`; the local provider's tests for its collected sources are written into it. */
const generateInto = async (
  dir: string,
  files: Record<string, string>,
  task: (sources: TestSource[]) => TestsTask,
): Promise<GeneratedTests> => {
  await writeTree(dir, files);
  const sources = await collectSources(dir, { framework: task([]).framework });
  const { output } = await localProvider({ writeTests: smokeTests }).run(task(sources.files));
  await writeTree(dir, Object.fromEntries(output.files.map((file) => [file.path, file.content])));
  return output;
};

interface JestReport {
  numFailedTests: number;
  numPassedTests: number;
  numFailedTestSuites: number;
  testResults: Array<{ assertionResults: Array<{ title: string; status: string }> }>;
}

const runJest = async (dir: string, nodeFlags: string[] = []): Promise<{ ran: Ran; report: JestReport }> => {
  const ran = await run(
    process.execPath,
    [
      ...nodeFlags,
      jestBin,
      '--rootDir',
      dir,
      '--ci',
      '--json',
      '--watchman=false',
      '--cacheDirectory',
      `${dir}/../${dir.split('/').pop() ?? 'x'}-jest-cache`,
    ],
    dir,
  );
  return { ran, report: JSON.parse(ran.stdout) as JestReport };
};

const allCases = (output: GeneratedTests): string[] => output.files.flatMap((file) => file.cases).sort();
const passedTitles = (report: JestReport): string[] =>
  report.testResults
    .flatMap((result) => result.assertionResults.filter((assertion) => assertion.status === 'passed').map((assertion) => assertion.title))
    .sort();

const dirs: string[] = [];
const tempDir = async (prefix: string): Promise<string> => {
  const dir = await makeTempDir(prefix);
  dirs.push(dir, `${dir}-jest-cache`);
  return dir;
};

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('generated smoke tests, run for real', () => {
  it('pass under jest for a CommonJS package', async () => {
    const dir = await tempDir('generated-jest-cjs-');
    const output = await generateInto(
      dir,
      {
        'package.json': '{ "name": "fixture", "type": "commonjs" }\n',
        'lib/math.js': commonJsMath,
        'lib/greet.cjs': commonJsWhole,
        'lib/compiled.js': commonJsCompiled,
      },
      (sources) => testsTask('jest', sources, 'commonjs'),
    );
    expect(output.files.map((file) => file.path)).toEqual([
      'lib/compiled.generated.test.js',
      'lib/greet.generated.test.cjs',
      'lib/math.generated.test.js',
    ]);
    const { ran, report } = await runJest(dir);
    expect({ code: ran.code, failed: report.numFailedTests, failedSuites: report.numFailedTestSuites }).toEqual({
      code: 0,
      failed: 0,
      failedSuites: 0,
    });
    expect(passedTitles(report)).toEqual(allCases(output));
  });

  it('pass under jest (with --experimental-vm-modules) for an ES module package', async () => {
    const dir = await tempDir('generated-jest-esm-');
    const output = await generateInto(
      dir,
      { 'package.json': '{ "name": "fixture", "type": "module" }\n', 'src/store.js': esmStore, 'src/names.js': esmNames },
      (sources) => testsTask('jest', sources, 'module'),
    );
    expect(output.files.map((file) => file.path)).toEqual(['src/names.generated.test.mjs', 'src/store.generated.test.mjs']);
    const { ran, report } = await runJest(dir, ['--experimental-vm-modules', '--no-warnings']);
    expect({ code: ran.code, failed: report.numFailedTests }).toEqual({ code: 0, failed: 0 });
    expect(passedTitles(report)).toEqual(allCases(output));
  });

  it('compile under a strict tsconfig and pass under jest with ts-jest', async () => {
    const dir = await tempDir('generated-jest-ts-');
    const tsconfig = {
      strict: true,
      noUnusedLocals: true,
      noUncheckedIndexedAccess: true,
      noPropertyAccessFromIndexSignature: true,
      module: 'commonjs',
      target: 'ES2022',
      esModuleInterop: true,
      typeRoots: [`${serviceRoot}node_modules/@types`],
      types: ['jest'],
    };
    const config = { transform: { '^.+\\.ts$': [tsJest, { tsconfig, diagnostics: true }] } };
    const output = await generateInto(
      dir,
      {
        'package.json': `${JSON.stringify({ name: 'fixture', jest: config })}\n`,
        'src/greeter.ts': tsGreeter,
        'src/legacy.ts': tsExportEquals,
        'src/script.ts': 'const unused = 1;\nvoid unused;\n',
      },
      (sources) => testsTask('jest', sources, 'commonjs'),
    );
    expect(output.files.map((file) => file.path)).toEqual([
      'src/greeter.generated.test.ts',
      'src/legacy.generated.test.ts',
      'src/script.generated.test.ts',
    ]);
    const { ran, report } = await runJest(dir);
    expect({ code: ran.code, failed: report.numFailedTests, stderr: report.numFailedTestSuites > 0 ? ran.stderr : '' }).toEqual({
      code: 0,
      failed: 0,
      stderr: '',
    });
    expect(passedTitles(report)).toEqual(allCases(output));
  });

  it('pass under node --test', async () => {
    const dir = await tempDir('generated-node-test-');
    const output = await generateInto(
      dir,
      { 'package.json': '{ "name": "fixture", "type": "module" }\n', 'src/store.js': esmStore, 'lib/math.cjs': commonJsMath },
      (sources) => testsTask('node:test', sources, 'module'),
    );
    expect(output.files.map((file) => file.path)).toEqual(['lib/math.generated.test.cjs', 'src/store.generated.test.mjs']);
    const ran = await run(process.execPath, ['--test', '--test-reporter=tap', ...output.files.map((file) => file.path)], dir);
    expect({ code: ran.code, stderr: ran.code === 0 ? '' : ran.stdout + ran.stderr }).toEqual({ code: 0, stderr: '' });
    expect(ran.stdout).toContain(`# pass ${allCases(output).length}\n`);
    expect(ran.stdout).toContain('# fail 0\n');
  });

  itWithPytest('pass under pytest, packages, same-named modules and a standard-library name included', async () => {
    const dir = await tempDir('generated-pytest-');
    const output = await generateInto(
      dir,
      {
        'pkg/__init__.py': 'from .calc import add\n',
        'pkg/calc.py': pythonCalc,
        'pkg/util.py': pythonUtil,
        'one/utils.py': 'def first():\n    return 1\n',
        'two/utils.py': 'def second():\n    return 2\n',
        'scripts/types.py': 'def describe(value=None):\n    return type(value).__name__\n',
        'pkg/shapes.py': pythonShapes,
      },
      (sources) => testsTask('pytest', sources),
    );
    expect(output.files.map((file) => file.path)).toEqual([
      'one/test_one_utils_generated.py',
      'pkg/test_calc_generated.py',
      'pkg/test_pkg_package_generated.py',
      'pkg/test_shapes_generated.py',
      'pkg/test_util_generated.py',
      'scripts/test_types_generated.py',
      'two/test_two_utils_generated.py',
    ]);
    const ran = await run('python3', ['-m', 'pytest', '-v', '-p', 'no:cacheprovider', '.'], dir, {
      PYTHONDONTWRITEBYTECODE: '1',
      // Plain output whatever the caller's terminal settings (FORCE_COLOR would colour the lines matched below).
      PY_COLORS: '0',
    });
    expect({ code: ran.code, out: ran.code === 0 ? '' : ran.stdout + ran.stderr }).toEqual({ code: 0, out: '' });
    const passed = [...ran.stdout.matchAll(/::(test_\w+) PASSED/g)].map((match) => match[1] ?? '').sort();
    expect(passed).toEqual(allCases(output));
  });
});
