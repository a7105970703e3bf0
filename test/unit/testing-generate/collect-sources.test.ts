import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { collectSources, InvalidTestPaths, isSourceFile } from '../../../functions/engines/testing/collect-sources';
import { makeTempDir, writeTree } from './fixtures';

let root: string;
let outside: string;

const repository: Record<string, string> = {
  'package.json': '{ "type": "module" }\n',
  'jest.config.js': 'export default {};\n',
  'vite.config.ts': 'export default {};\n',
  'src/index.ts': 'export const a = 1;\n',
  'src/util.js': 'export const b = 2;\n',
  'src/legacy.cjs': 'module.exports = {};\n',
  'src/esm.mjs': 'export const c = 3;\n',
  'src/view.tsx': 'export const View = () => null;\n',
  'src/types.d.ts': 'export type T = string;\n',
  'src/index.test.ts': 'test("x", () => {});\n',
  'src/util.spec.js': 'test("x", () => {});\n',
  'src/__tests__/helper.js': 'module.exports = {};\n',
  'src/empty.js': '\n',
  'src/.hidden.js': 'module.exports = {};\n',
  'src/styles.css': 'a {}\n',
  'lib/deep/nested/tool.js': 'module.exports = {};\n',
  'test/helpers.js': 'module.exports = {};\n',
  'node_modules/dep/index.js': 'module.exports = {};\n',
  'dist/index.js': 'module.exports = {};\n',
  'build/out.js': 'module.exports = {};\n',
  'coverage/lcov-report/prettify.js': 'module.exports = {};\n',
  '.github/scripts/release.js': 'module.exports = {};\n',
  'app/main.py': 'def main():\n    pass\n',
  'app/__init__.py': '\n',
  'app/models.py': 'class Model:\n    pass\n',
  'app/test_main.py': 'def test_main():\n    pass\n',
  'app/main_test.py': 'def test_main():\n    pass\n',
  'app/conftest.py': 'import pytest\n',
  'setup.py': 'from setuptools import setup\n',
  'tests/test_app.py': 'def test_app():\n    pass\n',
};

beforeAll(async () => {
  root = await makeTempDir('collect-sources-');
  outside = await makeTempDir('collect-sources-outside-');
  await writeTree(root, repository);
  await writeFile(join(outside, 'secret.js'), 'module.exports = {};\n');
  await symlink(join(outside, 'secret.js'), join(root, 'src/linked.js'));
  await symlink(outside, join(root, 'linked-folder'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

const paths = (files: Array<{ path: string }>): string[] => files.map((file) => file.path);

describe('collectSources', () => {
  it('collects the JS/TS sources for jest: no tests, configs, declarations, dot-files or build and dependency folders', async () => {
    const collected = await collectSources(root, { framework: 'jest' });
    expect(paths(collected.files)).toEqual([
      'lib/deep/nested/tool.js',
      'src/esm.mjs',
      'src/index.ts',
      'src/legacy.cjs',
      'src/util.js',
      'src/view.tsx',
    ]);
    expect(collected.files.find((file) => file.path === 'src/index.ts')?.content).toBe('export const a = 1;\n');
    expect(collected.omitted).toEqual([
      { path: 'src/empty.js', reason: 'empty' },
      { path: 'src/linked.js', reason: 'symlink' },
    ]);
    expect(collected.omittedCount).toBe(2);
  });

  it('collects JavaScript only for node:test and Python modules that are not tests for pytest', async () => {
    expect(paths((await collectSources(root, { framework: 'node:test' })).files)).toEqual([
      'lib/deep/nested/tool.js',
      'src/esm.mjs',
      'src/legacy.cjs',
      'src/util.js',
    ]);
    expect(paths((await collectSources(root, { framework: 'pytest' })).files)).toEqual(['app/main.py', 'app/models.py']);
  });

  it('restricts to the given files and folders, and names a given file that is no source', async () => {
    const collected = await collectSources(root, {
      framework: 'jest',
      paths: ['./lib/', 'src/util.js', 'src/util.js', 'test', 'jest.config.js'],
    });
    expect(paths(collected.files)).toEqual(['lib/deep/nested/tool.js', 'src/util.js', 'test/helpers.js']);
    expect(collected.omitted).toEqual([{ path: 'jest.config.js', reason: 'not_a_source' }]);
    expect(paths((await collectSources(root, { framework: 'pytest', paths: ['.'] })).files)).toEqual(['app/main.py', 'app/models.py']);
  });

  it('refuses paths that are missing, outside the repository or symbolic links, naming each', async () => {
    const bad = [
      '../outside.js',
      '/etc/passwd',
      'src/missing.js',
      'linked-folder',
      'linked-folder/secret.js',
      'src/linked.js',
      '.git/config',
      'src\\util.js',
    ];
    const error = await collectSources(root, { framework: 'jest', paths: ['src', ...bad] }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(InvalidTestPaths);
    expect(error).toMatchObject({ name: 'InvalidTestPaths', paths: bad });
    expect((error as Error).message).toContain('"../outside.js"');
  });

  it('caps the number of files, each file and the total, and reports what was left out', async () => {
    const capped = await makeTempDir('collect-sources-caps-');
    try {
      await writeTree(capped, {
        'a.js': 'a'.repeat(100),
        'b.js': 'b'.repeat(5_000),
        'c.js': 'c'.repeat(300),
        'd.js': 'd'.repeat(300),
        'e.js': 'e'.repeat(100),
        'f.js': 'f'.repeat(100),
      });
      await mkdir(join(capped, 'bin'));
      await writeFile(join(capped, 'bin/blob.js'), Buffer.from([0x61, 0x00, 0x62]));
      const collected = await collectSources(capped, {
        framework: 'jest',
        limits: { maxFiles: 3, maxFileBytes: 1_000, maxTotalBytes: 600 },
      });
      expect(paths(collected.files)).toEqual(['a.js', 'c.js', 'e.js']);
      expect(collected.totalBytes).toBe(500);
      expect(collected.omitted).toEqual([
        { path: 'b.js', reason: 'too_large' },
        { path: 'bin/blob.js', reason: 'binary' },
        { path: 'd.js', reason: 'total_limit' },
        { path: 'f.js', reason: 'file_limit' },
      ]);
    } finally {
      await rm(capped, { recursive: true, force: true });
    }
  });

  it('knows a source file by its name', () => {
    expect(isSourceFile('jest', 'index.ts')).toBe(true);
    expect(isSourceFile('vitest', 'latest.js')).toBe(true);
    expect(isSourceFile('jest', 'src.js')).toBe(true);
    for (const name of [
      'a.test.ts',
      'a.spec.mjs',
      'a_test.js',
      'test-utils.js',
      'webpack.config.cjs',
      'a.d.ts',
      'a.min.js',
      'gulpfile.js',
      '.eslintrc.js',
      'a.py',
    ]) {
      expect(isSourceFile('jest', name)).toBe(false);
    }
    expect(isSourceFile('node:test', 'index.ts')).toBe(false);
    for (const name of ['test_a.py', 'a_test.py', 'tests.py', 'conftest.py', '__main__.py', 'setup.py', 'a.js'])
      expect(isSourceFile('pytest', name)).toBe(false);
  });
});
