import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AiTask, TestSource } from '../../../functions/core/ai/provider';

export type TestsTask = Extract<AiTask, { kind: 'tests' }>;

export const testsTask = (
  framework: TestsTask['framework'],
  sources: TestSource[],
  moduleType: TestsTask['moduleType'] = 'commonjs',
): TestsTask => ({
  kind: 'tests',
  framework,
  instructions: null,
  sources,
  moduleType,
});

/** A CommonJS module: an object literal of exports, a later `module.exports.x =`, and decoys in comments and strings. */
export const commonJsMath = [
  "'use strict';",
  "const { EventEmitter } = require('node:events');",
  '',
  '// module.exports = { commentedOut };',
  'function add(a, b) {',
  '  return a + b;',
  '}',
  '',
  'function mustHaveName(name) {',
  "  if (!name) throw new TypeError('name is required');",
  '  return `hi ${name}`;',
  '}',
  '',
  'async function later() {',
  "  throw new Error('rejected when called');",
  '}',
  '',
  'class Counter extends EventEmitter {',
  '  constructor() {',
  '    super();',
  '    this.count = 0;',
  '  }',
  '}',
  '',
  "const VERSION = '1.0.0';",
  "const note = 'exports.fake = 1';",
  '',
  'module.exports = { add, mustHaveName, later, Counter, VERSION, double(n) { return n * 2; }, note };',
  "module.exports.helper = function () { return 'helper'; };",
  '',
].join('\n');

/** `module.exports = <function>`: the module itself is the export. */
export const commonJsWhole = "module.exports = function greet(name = 'world') {\n  return `hi ${name}`;\n};\n";

/** An ES module with function, async, class, default, re-named and value exports. */
export const esmStore = [
  "export const greet = (name = 'world') => `hi ${name}`;",
  'export async function load() {',
  "  throw new Error('not here');",
  '}',
  'export default class Store {',
  '  constructor() {',
  '    this.items = [];',
  '  }',
  '}',
  '/* export const inComment = 1; */',
  'const pattern = /export const inRegex = 1/;',
  'const inner = () => pattern.source.length;',
  'export const LIMIT = 10;',
  'export { inner as measure };',
  '',
].join('\n');

/** TypeScript with type-only exports (which have no runtime value) beside real ones. */
export const tsGreeter = [
  'export interface Options {',
  '  loud: boolean;',
  '}',
  'export type Name = string;',
  'export const enum Mode {',
  '  Quiet,',
  '}',
  'export enum Level {',
  '  Low,',
  '  High,',
  '}',
  'export const greet = (name: Name = "world", options?: Options): string => (options?.loud ? `HI ${name}` : `hi ${name}`);',
  'export function shout(name: Name): string {',
  '  return name.toUpperCase();',
  '}',
  'export abstract class Base {',
  '  abstract run(): void;',
  '}',
  'export const settings: { retries: number } = { retries: 3 };',
  '',
].join('\n');

/** A Python module: public functions and a class; private names, a docstring decoy and a nested def are not tests' business. */
export const pythonCalc = [
  '"""Calculator.',
  '',
  'def in_docstring():',
  '    pass',
  '"""',
  'from .util import clamp',
  '',
  '',
  'def add(a, b):',
  '    return clamp(a + b)',
  '',
  '',
  'async def fetch_total():',
  '    return 0',
  '',
  '',
  'def _private():',
  '    pass',
  '',
  '',
  'class Calculator:',
  '    def method(self):',
  '        def nested():',
  '            pass',
  '        return nested',
  '',
].join('\n');

export const pythonUtil = 'def clamp(value, low=0, high=100):\n    return max(low, min(high, value))\n';

/** The titles a JS test file declares, in order, and a pytest file's test functions. */
export const declaredJsTests = (content: string): string[] =>
  [...content.matchAll(/^test\(("(?:[^"\\]|\\.)*"), /gm)].map((match) => JSON.parse(match[1] ?? '""') as string);
export const declaredPythonTests = (content: string): string[] =>
  [...content.matchAll(/^def (test_\w+)\(/gm)].map((match) => match[1] ?? '');

export const makeTempDir = (prefix: string): Promise<string> => mkdtemp(join(tmpdir(), prefix));

/** Writes files (repo-relative path → content) under root, creating folders. */
export const writeTree = async (root: string, files: Record<string, string>): Promise<void> => {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
};
