/**
 * Smoke tests written from the exports a light parser finds: the `local` AI provider's answer to a
 * `tests` task (an offline, deterministic stand-in for a model, which writes behavioural tests).
 * For each source it writes one test file next to it that checks the module loads and that each
 * export exists: a function is a function and can be called with no arguments (a thrown error or a
 * rejected promise still counts as "callable"; only a non-function fails), a class is a class, any
 * other value is defined. Same sources, byte-identical files.
 *
 * JavaScript / TypeScript (jest, vitest, node:test), next to `dir/name.ext`:
 * - an ES module (`.mjs`, or `.js` in a `"type": "module"` package) → `dir/name.generated.test.mjs`,
 *   importing `./name.ext` (Jest needs `--experimental-vm-modules` for it, as for any ESM test);
 * - a CommonJS module (`.cjs`, or `.js` otherwise) → `dir/name.generated.test.js|cjs` with `require`
 *   (for vitest, which is ESM-only, a `.test.mjs` that requires through `createRequire`);
 * - TypeScript (`.ts`/`.tsx`, jest and vitest only: node:test runs JavaScript) → `dir/name.generated.test.ts`
 *   importing `./name`, typed loosely so that it compiles under a strict tsconfig.
 * Python (pytest), next to `dir/name.py` → `dir/test_name_generated.py`, which puts the module's
 * import root (the first folder up without `__init__.py`) on `sys.path` and imports it by its
 * dotted name, or by file path when another module of that name is already loaded.
 *
 * When two sources would get the same test path (`a.js` and `a.mjs`), the later one in path order
 * keeps its extension in the name (`a.mjs.generated.test.mjs`); pytest files whose basenames
 * would clash (pytest refuses two test modules of one name in non-package folders) are named after
 * the whole path (`test_pkg_a_utils_generated.py`).
 */
import {
  testFrameworks,
  type AiTask,
  type GeneratedTestFile,
  type GeneratedTests,
  type ModuleType,
  type TestFramework,
  type TestSource,
} from '../../core/ai/provider';
import { isSafeRelativePath, isTestFilePath, maxTestCases, maxTestFileBytes, maxTestFiles } from '../../core/ai/tasks';
import { findJsExports, findPythonDefinitions, hasEsmSyntax, wholeModule, type FoundExport } from './find-exports';

type TestsTask = Extract<AiTask, { kind: 'tests' }>;

/** Exports covered per file, so a file stays well under the case and size caps. */
const maxExportsPerFile = 200;

const q = (text: string): string => JSON.stringify(text);

const splitPath = (path: string): { dir: string; name: string; extension: string } => {
  const slash = path.lastIndexOf('/');
  const dir = path.slice(0, slash + 1);
  const file = path.slice(slash + 1);
  const dot = file.lastIndexOf('.');
  return dot > 0 ? { dir, name: file.slice(0, dot), extension: file.slice(dot + 1) } : { dir, name: file, extension: '' };
};

type JsStyle = 'esm' | 'cjs' | 'ts';

interface Assertions {
  defined: (expression: string) => string;
  typeOf: (expression: string, type: string) => string;
  isTrue: (expression: string) => string;
  hasKey: (name: string, expression: string) => string;
}

const expectAssertions: Assertions = {
  defined: (e) => `expect(${e}).toBeDefined();`,
  typeOf: (e, type) => `expect(typeof ${e}).toBe(${q(type)});`,
  isTrue: (e) => `expect(${e}).toBe(true);`,
  hasKey: (name, e) => `expect(${q(name)} in ${e}).toBe(true);`,
};

const nodeAssertions: Assertions = {
  defined: (e) => `assert.notEqual(${e}, undefined);`,
  typeOf: (e, type) => `assert.equal(typeof ${e}, ${q(type)});`,
  isTrue: (e) => `assert.equal(${e}, true);`,
  hasKey: (name, e) => `assert.ok(${q(name)} in ${e});`,
};

/** A path as shown in a comment: control characters (a newline would end the comment) replaced. */
const shown = (path: string): string => path.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, '?');

const header = (comment: string, path: string, prefix: string): string[] => [
  `${prefix} Smoke tests for ${shown(path)}, written by the local test generator (a deterministic stand-in`,
  `${prefix} for a model): the module loads and its exports exist; functions can be called.`,
  ...(comment === '' ? [] : [`${prefix} ${comment}`]),
];

const callHelper = (style: JsStyle): string[] =>
  style === 'ts'
    ? [
        'const callWithoutArguments = (fn: unknown, self: unknown): boolean => {',
        '  try {',
        '    const result: unknown = Reflect.apply(fn as (...args: unknown[]) => unknown, self, []);',
        '    if (result !== null && (typeof result === "object" || typeof result === "function") && typeof (result as { then?: unknown }).then === "function") {',
        '      (result as PromiseLike<unknown>).then(undefined, () => undefined);',
        '    }',
        '  } catch {',
        '    // A function that throws when given no arguments was still called.',
        '  }',
        '  return true;',
        '};',
      ]
    : [
        'function callWithoutArguments(fn, self) {',
        '  try {',
        '    const result = Reflect.apply(fn, self, []);',
        '    if (result !== null && (typeof result === "object" || typeof result === "function") && typeof result.then === "function") {',
        '      result.then(undefined, () => undefined);',
        '    }',
        '  } catch {',
        '    // A function that throws when given no arguments was still called.',
        '  }',
        '  return true;',
        '}',
      ];

interface Written {
  content: string;
  cases: string[];
}

const jsTestFile = (framework: Exclude<TestFramework, 'pytest'>, style: JsStyle, source: TestSource, exported: FoundExport[]): Written => {
  const { name, extension } = splitPath(source.path);
  const specifier = style === 'ts' ? `./${name}` : `./${name}.${extension}`;
  const assertions = framework === 'node:test' ? nodeAssertions : expectAssertions;
  const scriptOnly = style === 'ts' && exported.length === 0 && !hasEsmSyntax(source.content);
  const vitestCjs = framework === 'vitest' && style === 'cjs';

  const imports: string[] = [];
  if (framework === 'vitest') imports.push('import { expect, test } from "vitest";');
  if (framework === 'node:test') {
    imports.push(
      ...(style === 'cjs'
        ? ['const assert = require("node:assert/strict");', 'const { test } = require("node:test");']
        : ['import assert from "node:assert/strict";', 'import { test } from "node:test";']),
    );
  }
  if (vitestCjs) imports.push('import { createRequire } from "node:module";');
  if (style === 'ts' && scriptOnly) imports.push(`import ${q(specifier)};`);
  else if (style === 'ts') imports.push(`import * as source from ${q(specifier)};`);
  else if (style === 'esm') imports.push(`import * as mod from ${q(specifier)};`);
  if (vitestCjs) imports.push('', 'const require = createRequire(import.meta.url);');
  if (style === 'cjs') imports.push(`const mod = require(${q(specifier)});`);
  if (style === 'ts' && !scriptOnly) imports.push('', 'const mod = source as unknown as Record<string, unknown>;');

  const access = (exportName: string): string =>
    exportName === wholeModule ? 'mod' : style === 'ts' ? `mod[${q(exportName)}]` : `mod.${exportName}`;
  const cases: Array<{ title: string; body: string[] }> = [];
  cases.push({
    title: `loads ${source.path}`,
    body: scriptOnly
      ? ['// The import above fails this file if the module does not load.', assertions.isTrue('true')]
      : [assertions.defined('mod')],
  });
  for (const item of exported) {
    const target = access(item.name);
    if (item.kind === 'function') {
      cases.push({ title: `${item.name} is a function`, body: [assertions.typeOf(target, 'function')] });
      cases.push({
        title: `${item.name} can be called`,
        body: [assertions.typeOf(target, 'function'), assertions.isTrue(`callWithoutArguments(${target}, mod)`)],
      });
    } else if (item.kind === 'class') {
      const prototype = style === 'ts' ? `(${target} as { prototype?: unknown }).prototype` : `${target}.prototype`;
      cases.push({
        title: `${item.name} is a class`,
        body: [assertions.typeOf(target, 'function'), assertions.typeOf(prototype, 'object')],
      });
    } else {
      cases.push({
        title: `${item.name} is defined`,
        body: [item.name === wholeModule ? assertions.defined('mod') : assertions.hasKey(item.name, 'mod')],
      });
    }
  }
  const lines = [
    ...header(
      framework === 'jest' && style === 'esm' ? 'An ES module test: run Jest with node --experimental-vm-modules.' : '',
      source.path,
      '//',
    ),
    ...imports,
    ...(exported.some((item) => item.kind === 'function') ? ['', ...callHelper(style)] : []),
    ...cases.flatMap((item) => ['', `test(${q(item.title)}, () => {`, ...item.body.map((line) => `  ${line}`), '});']),
  ];
  return { content: `${lines.join('\n')}\n`, cases: cases.map((item) => item.title) };
};

const pythonTestFile = (source: TestSource, defined: FoundExport[]): Written => {
  const { name } = splitPath(source.path);
  const file = source.path.slice(source.path.lastIndexOf('/') + 1);
  const cases = ['test_module_loads', ...defined.map((item) => `test_${item.name}_is_callable`)];
  const lines = [
    `"""Smoke tests for ${shown(source.path).replace(/["\\]/g, '_')}, written by the local test generator (a deterministic`,
    'stand-in for a model): the module imports and its public functions and classes are callable."""',
    'import importlib',
    'import importlib.util',
    'import pathlib',
    'import sys',
    '',
    `MODULE_FILE = pathlib.Path(__file__).resolve().parent / ${q(file)}`,
    '',
    '',
    'def _load():',
    '    # The dotted name: the module, under each enclosing folder that is a package (has __init__.py).',
    `    parts = [] if MODULE_FILE.name == "__init__.py" else [${q(name)}]`,
    '    folder = MODULE_FILE.parent',
    '    while (folder / "__init__.py").is_file():',
    '        parts.insert(0, folder.name)',
    '        folder = folder.parent',
    '    if str(folder) not in sys.path:',
    '        sys.path.insert(0, str(folder))',
    '    dotted = ".".join(parts)',
    '    try:',
    '        module = importlib.import_module(dotted)',
    '        if pathlib.Path(getattr(module, "__file__", None) or "").resolve() == MODULE_FILE:',
    '            return module',
    '    except ImportError:',
    '        pass',
    "    # Another module of that name came first (the standard library's, or a file of the same name",
    '    # elsewhere): load this file under a name of its own. A module that cannot load fails here.',
    `    alias = ${q(`generated_smoke_${source.path.replace(/\W/g, '_')}`)}`,
    '    if alias not in sys.modules:',
    '        package = [str(MODULE_FILE.parent)] if MODULE_FILE.name == "__init__.py" else None',
    '        spec = importlib.util.spec_from_file_location(alias, MODULE_FILE, submodule_search_locations=package)',
    '        module = importlib.util.module_from_spec(spec)',
    '        sys.modules[alias] = module',
    '        try:',
    '            spec.loader.exec_module(module)',
    '        except BaseException:',
    '            del sys.modules[alias]',
    '            raise',
    '    return sys.modules[alias]',
    '',
    '',
    'def test_module_loads():',
    '    assert _load() is not None',
    ...defined.flatMap((item) => [
      '',
      '',
      `def test_${item.name}_is_callable():`,
      `    assert callable(getattr(_load(), ${q(item.name)}, None))`,
    ]),
  ];
  return { content: `${lines.join('\n')}\n`, cases };
};

interface Planned {
  source: TestSource;
  /** Where the file goes unless a clash renames it. */
  path: string;
  /** The name used on a clash. */
  fallbackPath: string;
  written: Written;
}

const jsStyleOf = (extension: string, moduleType: ModuleType): JsStyle | null => {
  if (extension === 'ts' || extension === 'tsx') return 'ts';
  if (extension === 'mjs') return 'esm';
  if (extension === 'cjs') return 'cjs';
  if (extension === 'js') return moduleType === 'module' ? 'esm' : 'cjs';
  return null;
};

const planFor = (task: TestsTask, source: TestSource): Planned | string => {
  const { dir, name, extension } = splitPath(source.path);
  if (!isSafeRelativePath(source.path)) return 'unsafe path';
  if (testFrameworks.some((framework) => isTestFilePath(framework, source.path))) return 'a test file';
  if (task.framework === 'pytest') {
    if (extension !== 'py') return 'not a Python file';
    if (name === '__main__' || name === 'conftest' || name === 'setup') return 'not importable as a module';
    const stem =
      name === '__init__'
        ? `${
            dir
              .split('/')
              .filter((part) => part !== '')
              .pop() ?? ''
          }_package`
        : name;
    if (stem === '_package') return 'a top-level __init__.py';
    const safeStem = stem.replace(/\W/g, '_');
    const defined = findPythonDefinitions(source.content).slice(0, maxExportsPerFile);
    return {
      source,
      path: `${dir}test_${safeStem}_generated.py`,
      fallbackPath: `${dir}test_${`${dir}${safeStem}`.replace(/\W/g, '_')}_generated.py`,
      written: pythonTestFile(source, defined),
    };
  }
  if (/\.d\.[cm]?ts$/.test(source.path)) return 'a type declaration file';
  const style = jsStyleOf(extension, task.moduleType);
  if (style === null) return 'not a JavaScript or TypeScript file';
  if (style === 'ts' && task.framework === 'node:test') return 'TypeScript, which node:test cannot run';
  const testExtension = style === 'ts' ? 'ts' : style === 'esm' || task.framework === 'vitest' ? 'mjs' : extension === 'cjs' ? 'cjs' : 'js';
  const exported = findJsExports(source.content).slice(0, maxExportsPerFile);
  return {
    source,
    path: `${dir}${name}.generated.test.${testExtension}`,
    fallbackPath: `${dir}${name}.${extension}.generated.test.${testExtension}`,
    written: jsTestFile(task.framework, style, source, exported),
  };
};

/** `a.generated.test.js` → `a.generated2.test.js`, `test_a_generated.py` → `test_a_generated2.py`. */
const numbered = (path: string, n: number): string =>
  path.replace(/\.generated\.test\.(\w+)$/, `.generated${n}.test.$1`).replace(/_generated\.py$/, `_generated${n}.py`);

const basenameOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

const listed = (items: string[], max = 10): string =>
  items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;

/** The local provider's answer to a `tests` task. */
export const smokeTests = (task: TestsTask): GeneratedTests => {
  const sources = [...new Map(task.sources.map((source) => [source.path, source])).values()].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  const skipped: string[] = [];
  const planned: Planned[] = [];
  for (const source of sources) {
    const plan = planFor(task, source);
    if (typeof plan === 'string') skipped.push(`${source.path} (${plan})`);
    else planned.push(plan);
  }

  const taken = new Set(sources.map((source) => source.path));
  const basenameCount = new Map<string, number>();
  for (const plan of planned) basenameCount.set(basenameOf(plan.path), (basenameCount.get(basenameOf(plan.path)) ?? 0) + 1);
  const files: GeneratedTestFile[] = [];
  for (const plan of planned) {
    const clashesByName = task.framework === 'pytest' && (basenameCount.get(basenameOf(plan.path)) ?? 0) > 1;
    let path = clashesByName || taken.has(plan.path) ? plan.fallbackPath : plan.path;
    for (let n = 2; taken.has(path); n += 1) path = numbered(plan.fallbackPath, n);
    if (files.length >= maxTestFiles) {
      skipped.push(`${plan.source.path} (over the ${maxTestFiles}-file limit)`);
      continue;
    }
    if (Buffer.byteLength(plan.written.content) > maxTestFileBytes || plan.written.cases.length > maxTestCases) {
      skipped.push(`${plan.source.path} (its test file would be too large)`);
      continue;
    }
    taken.add(path);
    files.push({ path, content: plan.written.content, cases: plan.written.cases });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const caseCount = files.reduce((sum, file) => sum + file.cases.length, 0);
  const wrote =
    files.length === 0
      ? `No ${task.framework} test file written`
      : `Wrote ${files.length} ${task.framework} smoke test file${files.length === 1 ? '' : 's'} with ${caseCount} case${caseCount === 1 ? '' : 's'} (module loads, exports exist and are callable)`;
  const summary =
    skipped.length === 0 ? wrote : `${wrote}; skipped ${skipped.length} source${skipped.length === 1 ? '' : 's'}: ${listed(skipped)}`;
  return { summary: summary.slice(0, 4_000), files };
};
