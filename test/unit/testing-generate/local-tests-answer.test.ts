import { localModel, localProvider } from '../../../functions/adapters/ai/local-provider';
import type { GeneratedTestFile } from '../../../functions/core/ai/provider';
import { isTestFilePath, validateAnswer } from '../../../functions/core/ai/tasks';
import { smokeTests } from '../../../functions/engines/testing/smoke-tests';
import {
  commonJsMath,
  commonJsWhole,
  declaredJsTests,
  declaredPythonTests,
  esmStore,
  pythonCalc,
  pythonUtil,
  testsTask,
  tsGreeter,
} from './fixtures';

const provider = localProvider();

const only = (files: GeneratedTestFile[]): GeneratedTestFile => {
  expect(files).toHaveLength(1);
  return files[0] as GeneratedTestFile;
};

describe('the local answer to a tests task', () => {
  it('writes CommonJS smoke tests from module.exports: loads, functions callable, classes, values', async () => {
    const { output, provider: name, model } = await provider.run(testsTask('jest', [{ path: 'lib/math.js', content: commonJsMath }]));
    expect({ name, model }).toEqual({ name: 'local', model: localModel });
    const file = only(output.files);
    expect(file.path).toBe('lib/math.generated.test.js');
    expect(file.content).toContain('const mod = require("./math.js");');
    expect(file.content).not.toContain('import ');
    expect(file.cases).toEqual([
      'loads lib/math.js',
      'Counter is a class',
      'VERSION is defined',
      'add is a function',
      'add can be called',
      'double is a function',
      'double can be called',
      'helper is a function',
      'helper can be called',
      'later is a function',
      'later can be called',
      'mustHaveName is a function',
      'mustHaveName can be called',
      'note is defined',
    ]);
    expect(output.summary).toBe('Wrote 1 jest smoke test file with 14 cases (module loads, exports exist and are callable)');
  });

  it('treats `module.exports = function` as the module being the function', async () => {
    const { output } = await provider.run(testsTask('jest', [{ path: 'lib/greet.cjs', content: commonJsWhole }], 'module'));
    const file = only(output.files);
    expect(file.path).toBe('lib/greet.generated.test.cjs');
    expect(file.cases).toEqual(['loads lib/greet.cjs', 'module.exports is a function', 'module.exports can be called']);
    expect(file.content).toContain('expect(callWithoutArguments(mod, mod)).toBe(true);');
  });

  it('writes an ES module test (.test.mjs, import with the extension) for a .js source of a "type": "module" package', async () => {
    const { output } = await provider.run(testsTask('jest', [{ path: 'src/store.js', content: esmStore }], 'module'));
    const file = only(output.files);
    expect(file.path).toBe('src/store.generated.test.mjs');
    expect(file.content).toContain('import * as mod from "./store.js";');
    expect(file.content).toContain('expect(typeof mod.default).toBe("function");');
    expect(file.cases).toEqual([
      'loads src/store.js',
      'LIMIT is defined',
      'default is a class',
      'greet is a function',
      'greet can be called',
      'load is a function',
      'load can be called',
      'measure is a function',
      'measure can be called',
    ]);
  });

  it('writes a TypeScript test for jest, leaving type-only exports out, and skips TypeScript for node:test', async () => {
    const { output } = await provider.run(testsTask('jest', [{ path: 'src/greeter.ts', content: tsGreeter }]));
    const file = only(output.files);
    expect(file.path).toBe('src/greeter.generated.test.ts');
    expect(file.content).toContain('import * as source from "./greeter";');
    expect(file.content).toContain('const mod = source as unknown as Record<string, unknown>;');
    expect(file.cases).toEqual([
      'loads src/greeter.ts',
      'Base is a class',
      'Level is defined',
      'greet is a function',
      'greet can be called',
      'settings is defined',
      'shout is a function',
      'shout can be called',
    ]);

    const nodeTest = await provider.run(testsTask('node:test', [{ path: 'src/greeter.ts', content: tsGreeter }]));
    expect(nodeTest.output.files).toEqual([]);
    expect(nodeTest.output.summary).toBe(
      'No node:test test file written; skipped 1 source: src/greeter.ts (TypeScript, which node:test cannot run)',
    );
  });

  it('writes node:test and vitest files in their own style', async () => {
    const nodeEsm = only(smokeTests(testsTask('node:test', [{ path: 'a.mjs', content: esmStore }])).files);
    expect(nodeEsm.path).toBe('a.generated.test.mjs');
    expect(nodeEsm.content).toContain('import { test } from "node:test";');
    expect(nodeEsm.content).toContain('assert.equal(typeof mod.greet, "function");');
    const nodeCjs = only(smokeTests(testsTask('node:test', [{ path: 'lib/math.js', content: commonJsMath }])).files);
    expect(nodeCjs.path).toBe('lib/math.generated.test.js');
    expect(nodeCjs.content).toContain('const { test } = require("node:test");');
    const vitestCjs = only(smokeTests(testsTask('vitest', [{ path: 'lib/math.cjs', content: commonJsMath }], 'module')).files);
    expect(vitestCjs.path).toBe('lib/math.generated.test.mjs');
    expect(vitestCjs.content).toContain('import { expect, test } from "vitest";');
    expect(vitestCjs.content).toContain('const require = createRequire(import.meta.url);');
    expect(vitestCjs.content).toContain('const mod = require("./math.cjs");');
  });

  it('writes a pytest module next to a Python source, with public functions and classes only', async () => {
    const { output } = await provider.run(
      testsTask('pytest', [
        { path: 'pkg/calc.py', content: pythonCalc },
        { path: 'pkg/util.py', content: pythonUtil },
        { path: 'pkg/__init__.py', content: 'from .calc import add\n' },
        { path: 'lib/math.js', content: commonJsMath },
      ]),
    );
    expect(output.files.map((file) => [file.path, file.cases])).toEqual([
      [
        'pkg/test_calc_generated.py',
        ['test_module_loads', 'test_Calculator_is_callable', 'test_add_is_callable', 'test_fetch_total_is_callable'],
      ],
      ['pkg/test_pkg_package_generated.py', ['test_module_loads']],
      ['pkg/test_util_generated.py', ['test_module_loads', 'test_clamp_is_callable']],
    ]);
    const calc = output.files[0] as GeneratedTestFile;
    expect(calc.content).toContain('MODULE_FILE = pathlib.Path(__file__).resolve().parent / "calc.py"');
    expect(calc.content).toContain('sys.path.insert(0, str(folder))');
    expect(output.summary).toBe(
      'Wrote 3 pytest smoke test files with 7 cases (module loads, exports exist and are callable); skipped 1 source: lib/math.js (not a Python file)',
    );
  });

  it('lists in cases exactly the tests each file declares', () => {
    const js = smokeTests(
      testsTask('jest', [
        { path: 'lib/math.js', content: commonJsMath },
        { path: 'lib/greet.cjs', content: commonJsWhole },
        { path: 'src/greeter.ts', content: tsGreeter },
        { path: 'src/empty.ts', content: 'console.log("side effect");\n' },
        { path: 'src/store.mjs', content: esmStore },
      ]),
    );
    const py = smokeTests(testsTask('pytest', [{ path: 'calc.py', content: pythonCalc }]));
    expect(js.files).toHaveLength(5);
    for (const file of js.files) expect(declaredJsTests(file.content)).toEqual(file.cases);
    for (const file of py.files) expect(declaredPythonTests(file.content)).toEqual(file.cases);
  });

  it('is deterministic and sorted: the same sources in any order give byte-identical files', async () => {
    const sources = [
      { path: 'src/store.mjs', content: esmStore },
      { path: 'lib/math.js', content: commonJsMath },
      { path: 'src/greeter.ts', content: tsGreeter },
    ];
    const first = await provider.run(testsTask('jest', sources));
    const second = await localProvider().run(testsTask('jest', [...sources].reverse()));
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(first.output.files.map((file) => file.path)).toEqual([
      'lib/math.generated.test.js',
      'src/greeter.generated.test.ts',
      'src/store.generated.test.mjs',
    ]);
  });

  it('keeps test paths distinct when two sources would share one, and leaves test files alone', () => {
    const { files, summary } = smokeTests(
      testsTask(
        'jest',
        [
          { path: 'a.js', content: esmStore },
          { path: 'a.mjs', content: esmStore },
          { path: 'a.test.js', content: 'test("x", () => {});\n' },
        ],
        'module',
      ),
    );
    expect(files.map((file) => file.path)).toEqual(['a.generated.test.mjs', 'a.mjs.generated.test.mjs']);
    expect(summary).toMatch(/skipped 1 source: a\.test\.js \(a test file\)$/);

    const py = smokeTests(
      testsTask('pytest', [
        { path: 'one/utils.py', content: pythonUtil },
        { path: 'two/utils.py', content: pythonUtil },
      ]),
    );
    expect(py.files.map((file) => file.path)).toEqual(['one/test_one_utils_generated.py', 'two/test_two_utils_generated.py']);
  });

  it('keeps a file name from breaking out of the header comment', () => {
    const file = only(smokeTests(testsTask('jest', [{ path: 'odd\nname.js', content: 'exports.a = 1;\n' }])).files);
    expect(file.content).toContain('// Smoke tests for odd?name.js, written');
    expect(file.content).toContain('const mod = require("./odd\\nname.js");');
  });

  it('only writes paths its framework runs, which the answer schema accepts', () => {
    for (const framework of ['jest', 'vitest', 'node:test', 'pytest'] as const) {
      const task = testsTask(framework, [
        { path: 'lib/math.js', content: commonJsMath },
        { path: 'src/store.mjs', content: esmStore },
        { path: 'src/greeter.ts', content: tsGreeter },
        { path: 'pkg/calc.py', content: pythonCalc },
      ]);
      const answer = smokeTests(task);
      expect(answer.files.length).toBeGreaterThan(0);
      for (const file of answer.files) expect(isTestFilePath(framework, file.path)).toBe(true);
      expect(validateAnswer(task, answer)).toEqual(answer);
    }
  });
});
