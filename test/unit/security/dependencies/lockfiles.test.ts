import { readCargoLock } from '../../../../functions/engines/scanners/dependencies/lockfiles/cargo-lock';
import { readGoSum } from '../../../../functions/engines/scanners/dependencies/lockfiles/go-sum';
import { lockfileKindOf } from '../../../../functions/engines/scanners/dependencies/lockfiles';
import { parseJsonWithLines } from '../../../../functions/engines/scanners/dependencies/lockfiles/json-lines';
import { readPackageLock } from '../../../../functions/engines/scanners/dependencies/lockfiles/package-lock';
import { parsePnpmKey, readPnpmLock } from '../../../../functions/engines/scanners/dependencies/lockfiles/pnpm-lock';
import { readPoetryLock } from '../../../../functions/engines/scanners/dependencies/lockfiles/poetry-lock';
import { parseRequirementsTxt } from '../../../../functions/engines/scanners/dependencies/lockfiles/requirements-txt';
import { readYarnLock } from '../../../../functions/engines/scanners/dependencies/lockfiles/yarn-lock';
import {
  cargoLock,
  goSum,
  lineOf,
  packageLockV1,
  packageLockV3,
  pnpmV6,
  pnpmV9,
  poetryLock,
  requirementsTxt,
  yarnBerry,
  yarnV1,
} from './fixtures';

const summary = (packages: Array<{ name: string; version: string; line: number | null }>) =>
  packages.map((p) => [p.name, p.version, p.line]);

describe('parseJsonWithLines', () => {
  it('parses like JSON.parse and knows the line of each key', () => {
    const text = '{\n  "a": 1,\n  "b": {\n    "c": [true, null, "x\\n\\u00e9"],\n    "__proto__": -1.5e3\n  }\n}\n';
    const { value, lineOf } = parseJsonWithLines(text);
    expect(value).toEqual(JSON.parse(text));
    const root = value as Record<string, Record<string, unknown>>;
    expect(lineOf(root, 'a')).toBe(2);
    expect(lineOf(root, 'b')).toBe(3);
    expect(lineOf(root.b!, 'c')).toBe(4);
    expect(Object.getPrototypeOf(root.b)).toBe(Object.prototype);
    expect(Object.keys(root.b!)).toEqual(['c', '__proto__']);
  });

  it.each(['{', '{"a":}', '[1,]', '{"a":1}x', "{'a':1}", '"\n"'])('refuses %j', (text) => {
    expect(() => parseJsonWithLines(text)).toThrow(SyntaxError);
  });
});

describe('lockfile kinds', () => {
  it.each([
    ['package-lock.json', 'package-lock.json'],
    ['a/b/npm-shrinkwrap.json', 'npm-shrinkwrap.json'],
    ['web/yarn.lock', 'yarn.lock'],
    ['pnpm-lock.yaml', 'pnpm-lock.yaml'],
    ['requirements.txt', 'requirements.txt'],
    ['py/requirements-dev.txt', 'requirements.txt'],
    ['requirements/prod.txt', 'requirements.txt'],
    ['poetry.lock', 'poetry.lock'],
    ['go.sum', 'go.sum'],
    ['rust/Cargo.lock', 'Cargo.lock'],
    ['notes.txt', null],
    ['package.json', null],
    ['my-requirements.txt', null],
  ])('%s → %s', (path, kind) => {
    expect(lockfileKindOf(path)).toBe(kind);
  });
});

describe('package-lock.json', () => {
  it('v2/v3: reads the packages map, skipping the root, workspace folders, links and git dependencies', () => {
    const text = packageLockV3({ lodash: '4.17.20', minimist: '1.2.8' });
    const packages = readPackageLock(text, 'package-lock.json');
    expect(summary(packages)).toEqual([
      ['lodash', '4.17.20', lineOf(text, '"node_modules/lodash"')],
      ['minimist', '1.2.8', lineOf(text, '"node_modules/minimist"')],
      ['mkdirp', '0.5.6', lineOf(text, '"node_modules/mkdirp"')],
    ]);
    expect(packages.every((p) => p.ecosystem === 'npm' && p.manifest === 'package-lock.json')).toBe(true);
  });

  it('v2/v3: scoped and aliased packages', () => {
    const text = JSON.stringify(
      {
        lockfileVersion: 2,
        packages: {
          '': {},
          'node_modules/@scope/pkg': { version: '1.0.0' },
          'node_modules/alias': { name: 'real', version: '2.0.0' },
          'node_modules/a/node_modules/@scope/pkg': { version: '1.1.0' },
        },
        dependencies: { ignored: { version: '9.9.9' } },
      },
      null,
      2,
    );
    expect(summary(readPackageLock(text, 'x/package-lock.json'))).toEqual([
      ['@scope/pkg', '1.0.0', lineOf(text, '"node_modules/@scope/pkg"')],
      ['real', '2.0.0', lineOf(text, '"node_modules/alias"')],
      ['@scope/pkg', '1.1.0', lineOf(text, '"node_modules/a/node_modules/@scope/pkg"')],
    ]);
  });

  it('v1: walks the nested dependencies tree, with npm: aliases', () => {
    const packages = readPackageLock(packageLockV1, 'legacy/package-lock.json');
    expect(summary(packages)).toEqual([
      ['express', '4.18.2', lineOf(packageLockV1, '"express": {')],
      ['lodash', '4.17.15', lineOf(packageLockV1, '"lodash": {')],
      ['minimist', '1.2.5', lineOf(packageLockV1, '"old-minimist"')],
      ['wrapper', '1.0.0', lineOf(packageLockV1, '"wrapper"')],
      ['lodash', '4.17.21', lineOf(packageLockV1, '"version": "4.17.21"') - 1],
    ]);
  });

  it('throws on invalid JSON', () => {
    expect(() => readPackageLock('{"packages": ', 'package-lock.json')).toThrow(SyntaxError);
  });
});

describe('yarn.lock', () => {
  it('v1: names entries by their first specifier; skips git and tarball dependencies', () => {
    expect(summary(readYarnLock(yarnV1, 'web/yarn.lock'))).toEqual([
      ['@xmldom/xmldom', '0.7.5', lineOf(yarnV1, '"@xmldom/xmldom@^0.7.0":')],
      ['lodash', '4.17.19', lineOf(yarnV1, 'lodash@^4.17.19')],
      ['minimist', '1.2.8', lineOf(yarnV1, 'minimist@^1.2.8:')],
    ]);
  });

  it('v1: npm aliases are read as their target', () => {
    const text = '"old@npm:lodash@^4.17.0":\n  version "4.17.10"\n  resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.10.tgz"\n';
    expect(summary(readYarnLock(text, 'yarn.lock'))).toEqual([['lodash', '4.17.10', 1]]);
  });

  it('v1: reads each entry once, whatever number of specifiers its header lists', () => {
    const text =
      '# yarn lockfile v1\n\n"a@^1.0.0", "a@~1.2.0", a@1.2.3:\n  version "1.2.3"\n  resolved "https://registry.yarnpkg.com/a/-/a-1.2.3.tgz"\n';
    expect(summary(readYarnLock(text, 'yarn.lock'))).toEqual([['a', '1.2.3', 3]]);
  });

  it('refuses what is not a lockfile, so the scanner reports the file as not parsed', () => {
    expect(() => readYarnLock('__metadata:\n  version: 8\n"a@npm:^1": [\n', 'yarn.lock')).toThrow();
  });

  it('berry: names entries by their resolution, skipping workspaces', () => {
    expect(summary(readYarnLock(yarnBerry, 'berry/yarn.lock'))).toEqual([
      ['express', '4.18.2', lineOf(yarnBerry, '"express@npm:^4.18.2":')],
      ['minimist', '1.2.5', lineOf(yarnBerry, '"minimist@npm:^1.2.5, minimist@npm:^1.2.0":')],
    ]);
  });
});

describe('pnpm-lock.yaml', () => {
  it('v9: reads the packages map (quoted scoped keys), not the snapshots', () => {
    expect(summary(readPnpmLock(pnpmV9, 'pnpm-lock.yaml'))).toEqual([
      ['@xmldom/xmldom', '0.8.10', lineOf(pnpmV9, "  '@xmldom/xmldom@0.8.10':")],
      ['lodash', '4.17.20', lineOf(pnpmV9, '  lodash@4.17.20:')],
      ['ws', '8.16.0', lineOf(pnpmV9, '  ws@8.16.0:')],
    ]);
  });

  it('v6: leading slash and peer suffixes', () => {
    expect(summary(readPnpmLock(pnpmV6, 'pnpm-lock.yaml'))).toEqual([
      ['@xmldom/xmldom', '0.7.5', lineOf(pnpmV6, '/@xmldom/xmldom@0.7.5:')],
      ['minimist', '1.2.0', lineOf(pnpmV6, '/minimist@1.2.0:')],
      ['ws', '8.16.0', lineOf(pnpmV6, '/ws@8.16.0(')],
    ]);
  });

  it('reads the YAML as YAML: comments, flow mappings and a key on a line of its own are no obstacle', () => {
    const text = [
      "lockfileVersion: '9.0'",
      'packages:',
      '  # the only package',
      '  lodash@4.17.20: {resolution: {integrity: sha512-x}}',
      'snapshots:',
      '  lodash@4.17.20: {}',
    ].join('\n');
    expect(summary(readPnpmLock(text, 'pnpm-lock.yaml'))).toEqual([['lodash', '4.17.20', 4]]);
    expect(() => readPnpmLock('packages:\n  a@1.0.0: {resolution: [\n', 'pnpm-lock.yaml')).toThrow();
  });

  it.each([
    ['/@babel/core/7.24.0', 5, { name: '@babel/core', version: '7.24.0' }],
    ['/foo/1.0.0_bar@2.0.0', 5, { name: 'foo', version: '1.0.0' }],
    ['"foo@1.0.0-beta.1(peer@1.0.0)"', 9, { name: 'foo', version: '1.0.0-beta.1' }],
    ['foo@file:../foo', 9, null],
    ['foo@https://codeload.github.com/a/b/tar.gz/abc', 9, null],
    ['github.com/a/b/abc', 6, null],
  ])('key %s (v%d)', (key, major, expected) => {
    expect(parsePnpmKey(key, major)).toEqual(expected);
  });
});

describe('requirements.txt', () => {
  it('reads exact pins; lists everything else as not pinned', () => {
    const { packages, unpinned } = parseRequirementsTxt(requirementsTxt, 'py/requirements.txt');
    expect(summary(packages)).toEqual([
      ['Django', '3.2.18', 2],
      ['requests', '2.31.0', 3],
    ]);
    expect(unpinned).toEqual([
      { line: 5, requirement: 'flask>=2.0', reason: 'unpinned requirement' },
      { line: 6, requirement: 'numpy', reason: 'unpinned requirement' },
      { line: 9, requirement: '-e git+https://github.com/acme/tool.git#egg=tool', reason: 'direct URL, path, VCS or editable requirement' },
    ]);
  });

  it.each([
    ['pkg[extra]===1.0', [['pkg', '1.0', 1]]],
    ['pkg==1.*', []],
    ['pkg==1.0,!=1.1', []],
    ['pkg @ https://example.com/pkg.whl', []],
    ['./local/pkg', []],
  ])('%s', (text, expected) => {
    expect(summary(parseRequirementsTxt(text, 'requirements.txt').packages)).toEqual(expected);
  });
});

describe('poetry.lock', () => {
  it('reads [[package]] name and version, stepping over multi-line strings; skips git sources', () => {
    expect(summary(readPoetryLock(poetryLock, 'poetry.lock'))).toEqual([
      ['django', '3.2.0', lineOf(poetryLock, 'name = "django"')],
      ['requests', '2.31.0', lineOf(poetryLock, 'name = "requests"')],
    ]);
  });

  it('reads TOML as TOML: inline source tables, escapes, literal and quoted keys, a header inside a multi-line string', () => {
    const text = [
      '[[package]]',
      'name = "from-git"',
      'version = "1.0.0"',
      'source = { type = "git", url = "https://git.example/x.git" }',
      '',
      '[[package]]',
      '"name" = "caf\\u00e9"',
      "version = '2.0.0' # a literal string",
      'description = """',
      '[[package]]',
      'name = "not-a-package"',
      '"""',
      '',
      '[metadata]',
      'lock-version = "2.0"',
    ].join('\n');
    expect(summary(readPoetryLock(text, 'poetry.lock'))).toEqual([['café', '2.0.0', 7]]);
  });

  it('refuses what is not TOML, so the scanner reports the file as not parsed', () => {
    expect(() => readPoetryLock('[[package]]\nname = "a\nversion = 1.0\n', 'poetry.lock')).toThrow();
    expect(() => readPoetryLock('[[package]]\nname = "a"\nname = "b"\n', 'poetry.lock')).toThrow();
  });
});

describe('go.sum', () => {
  it('reads module versions with downloaded sources; go.mod-only lines are not builds', () => {
    expect(summary(readGoSum(goSum, 'go.sum'))).toEqual([
      ['github.com/google/uuid', 'v1.3.0', 1],
      ['golang.org/x/text', 'v0.3.7', 4],
    ]);
  });

  it('keeps +incompatible', () => {
    expect(summary(readGoSum('github.com/x/y v2.0.0+incompatible h1:abc=\n', 'go.sum'))).toEqual([
      ['github.com/x/y', 'v2.0.0+incompatible', 1],
    ]);
  });
});

describe('Cargo.lock', () => {
  it('reads crates.io packages only', () => {
    expect(summary(readCargoLock(cargoLock, 'Cargo.lock'))).toEqual([
      ['serde', '1.0.130', lineOf(cargoLock, 'name = "serde"')],
      ['smallvec', '1.6.0', lineOf(cargoLock, 'name = "smallvec"')],
    ]);
    const sparse = '[[package]]\nname = "a"\nversion = "0.1.0"\nsource = "sparse+https://index.crates.io/"\n';
    expect(summary(readCargoLock(sparse, 'Cargo.lock'))).toEqual([['a', '0.1.0', 2]]);
  });
});
