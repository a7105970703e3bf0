import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Small repositories, one per framework, written into temporary directories by {@link writeRepository}. */
export type Files = Record<string, string>;

export const writeRepository = async (files: Files, prefix = 'testing-run-fixture-'): Promise<string> => {
  const root = await mkdtemp(join(tmpdir(), prefix));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
};

/** CommonJS, no node_modules (so the service's own jest runs it): 3 pass, 2 fail, 1 skip, 1 todo. */
export const jestRepository: Files = {
  'package.json': JSON.stringify({
    name: 'jest-fixture',
    version: '1.0.0',
    scripts: { test: 'jest' },
    devDependencies: { jest: '^30.0.0' },
  }),
  'src/math.js': 'exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b;\n',
  '__tests__/math.test.js': [
    "const { add, mul } = require('../src/math');",
    "describe('math', () => {",
    "  test('adds', () => { expect(add(1, 2)).toBe(3); });",
    "  test('multiplies', () => { expect(mul(2, 3)).toBe(6); });",
    "  test('adds wrongly', () => { expect(add(2, 2)).toBe(5); });",
    "  test.skip('skipped for now', () => { expect(true).toBe(false); });",
    "  test.todo('divides');",
    '});',
    "test('top level passes', () => {});",
    "test('top level throws', () => { throw new Error('kaboom'); });",
    '',
  ].join('\n'),
};

/** node:test with a `node --test` script: 2 pass (one in a describe), 1 fails, 2 skipped ({ skip: true } and t.skip()). */
export const nodeTestRepository: Files = {
  'package.json': JSON.stringify({ name: 'node-test-fixture', version: '1.0.0', scripts: { test: 'node --test' } }),
  'test/math.test.js': [
    "const { test, describe, it } = require('node:test');",
    "const assert = require('node:assert');",
    "test('adds', () => { assert.strictEqual(1 + 2, 3); });",
    "test('adds wrongly', () => { assert.strictEqual(2 + 2, 5); });",
    "test('skipped by option', { skip: true }, () => { assert.fail('ran'); });",
    "test('skipped at run time', (t) => { t.skip('not today'); });",
    "describe('nested', () => { it('multiplies', () => { assert.strictEqual(2 * 3, 6); }); });",
    '',
  ].join('\n'),
};

/** pytest (configured in pyproject.toml): 2 pass, 1 fails, 1 skipped, 1 errors in its fixture. */
export const pytestRepository: Files = {
  'pyproject.toml': '[project]\nname = "pytest-fixture"\nversion = "1.0.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
  'tests/test_math.py': [
    'import pytest',
    '',
    'def test_adds():',
    '    assert 1 + 2 == 3',
    '',
    'def test_adds_wrongly():',
    '    assert 2 + 2 == 5, "two and two"',
    '',
    '@pytest.mark.skip(reason="not today")',
    'def test_skipped():',
    '    assert False',
    '',
    '@pytest.fixture',
    'def database():',
    '    raise RuntimeError("no database")',
    '',
    'def test_needs_database(database):',
    '    assert database',
    '',
    'class TestMultiply:',
    '    def test_multiplies(self):',
    '        assert 2 * 3 == 6',
    '',
  ].join('\n'),
};

/** node:test whose test spawns a sleeping child (its pid in grandchild.pid) and then never settles. */
export const hangingRepository: Files = {
  'package.json': JSON.stringify({ name: 'hanging-fixture', version: '1.0.0', scripts: { test: 'node --test' } }),
  'test/hang.test.js': [
    "const { test } = require('node:test');",
    "const { spawn } = require('node:child_process');",
    "const { writeFileSync } = require('node:fs');",
    "test('hangs', async () => {",
    "  const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 300000)'], { stdio: 'ignore' });",
    "  writeFileSync('grandchild.pid', String(sleeper.pid));",
    '  await new Promise(() => {});',
    '});',
    '',
  ].join('\n'),
};

/** node:test that writes the environment it sees to seen-env.json. */
export const environmentRepository: Files = {
  'package.json': JSON.stringify({ name: 'env-fixture', version: '1.0.0', scripts: { test: 'node --test' } }),
  'test/env.test.js': [
    "const { test } = require('node:test');",
    "const { writeFileSync } = require('node:fs');",
    "test('sees the environment', () => { writeFileSync('seen-env.json', JSON.stringify(process.env)); });",
    '',
  ].join('\n'),
};

/** jest whose one test prints 5 MiB straight to stdout. */
export const loudRepository: Files = {
  'package.json': JSON.stringify({ name: 'loud-fixture', version: '1.0.0', devDependencies: { jest: '^30.0.0' } }),
  'loud.test.js': [
    "test('prints a lot', () => {",
    "  const line = 'y'.repeat(1023) + '\\n';",
    '  for (let i = 0; i < 5 * 1024; i += 1) process.stdout.write(line);',
    "  process.stdout.write('END-OF-OUTPUT\\n');",
    '});',
    '',
  ].join('\n'),
};

/** An ES module package (`"type": "module"`) with jest and no jest config: needs --experimental-vm-modules. */
export const esmJestRepository: Files = {
  'package.json': JSON.stringify({ name: 'esm-fixture', version: '1.0.0', type: 'module', devDependencies: { jest: '^30.0.0' } }),
  'src/greet.js': 'export const greet = (name) => `hello ${name}`;\n',
  'test/greet.test.js': [
    "import { greet } from '../src/greet.js';",
    "test('greets', () => { expect(greet('ada')).toBe('hello ada'); });",
    "test('greets rudely', () => { expect(greet('ada')).toBe('go away'); });",
    '',
  ].join('\n'),
};
