import { rm } from 'node:fs/promises';
import { detectFramework } from '../../../functions/engines/testing/detect-framework';
import type { Framework } from '../../../functions/core/testing/results';
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

const made: string[] = [];
const detect = async (files: Files): Promise<Framework | null> => {
  const dir = await writeRepository(files, 'detect-framework-');
  made.push(dir);
  return detectFramework(dir);
};
const pkg = (content: object): Files => ({ 'package.json': JSON.stringify(content) });

afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('detectFramework', () => {
  it.each([
    ['the jest fixture', 'jest', jestRepository],
    ['the node:test fixture', 'node:test', nodeTestRepository],
    ['the pytest fixture', 'pytest', pytestRepository],
    ['the hanging fixture', 'node:test', hangingRepository],
    ['the environment fixture', 'node:test', environmentRepository],
    ['the loud fixture', 'jest', loudRepository],
    ['the ES module jest fixture', 'jest', esmJestRepository],
  ] as const)('%s → %s', async (_label, expected, files) => {
    expect(await detect(files)).toBe(expected);
  });

  it.each<[string, Framework | null, Files]>([
    ['vitest in devDependencies', 'vitest', pkg({ devDependencies: { vitest: '^3.0.0' } })],
    ['jest in dependencies', 'jest', pkg({ dependencies: { jest: '^29.0.0' } })],
    ['both, with a vitest test script', 'vitest', pkg({ scripts: { test: 'vitest run' }, devDependencies: { jest: '1', vitest: '1' } })],
    ['a jest key in package.json', 'jest', pkg({ jest: { testEnvironment: 'node' } })],
    [
      'node --test with options before it',
      'node:test',
      pkg({ type: 'module', scripts: { test: 'node --experimental-strip-types --test test/' } }),
    ],
    ['a vitest config beside jest', 'vitest', { ...pkg({ devDependencies: { jest: '1' } }), 'vitest.config.ts': 'export default {};' }],
    ['a jest config only', 'jest', { 'jest.config.cjs': 'module.exports = {};' }],
    ['pytest.ini', 'pytest', { 'pytest.ini': '[pytest]\n' }],
    ['setup.cfg [tool:pytest]', 'pytest', { 'setup.cfg': '[metadata]\nname = x\n\n[tool:pytest]\naddopts = -q\n' }],
    ['conftest.py', 'pytest', { 'conftest.py': '' }],
    ['a nested test_*.py', 'pytest', { 'src/pkg/tests/test_io.py': 'def test_x(): pass\n' }],
    ['a *_test.py', 'pytest', { 'io_test.py': 'def test_x(): pass\n' }],
    ['a package.json without test tooling', null, pkg({ scripts: { test: 'echo no tests' }, dependencies: { express: '4' } })],
    ['pyproject.toml without pytest', null, { 'pyproject.toml': '[project]\nname = "x"\n', 'app.py': '' }],
    ['test files only under node_modules', null, { 'node_modules/x/test_x.py': '' }],
    ['an invalid package.json', null, { 'package.json': '{ not json' }],
    ['an empty directory', null, {}],
  ])('%s → %s', async (_label, expected, files) => {
    expect(await detect(files)).toBe(expected);
  });

  it('gives null for a directory that does not exist', async () => {
    expect(await detectFramework('/nonexistent/testing-run-detect')).toBeNull();
  });
});
