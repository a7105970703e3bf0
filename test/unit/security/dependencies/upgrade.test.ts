import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { osvDirectorySource } from '../../../../functions/adapters/security/osv/osv-directory-source';
import { fingerprintOf } from '../../../../functions/core/security/finding';
import { dependenciesScanner } from '../../../../functions/engines/scanners/dependencies/dependencies-scanner';
import { bumpNpmRange, planUpgrade, planUpgradeWithNotes } from '../../../../functions/engines/scanners/dependencies/upgrade';
import type { Scanner } from '../../../../functions/core/security/scanner';
import { tempDirs, writeTree } from '../../workspace/temp-dir';
import {
  cargoLock,
  cargoToml,
  goMod,
  goSum,
  packageJson,
  packageLockV1,
  packageLockV3,
  poetryLock,
  pyprojectPoetry,
  writeAdvisoryDirectory,
  yarnV1,
} from './fixtures';

const temp = tempDirs();
afterAll(() => temp.removeAll());

let scanner: Scanner;
beforeAll(async () => {
  const dir = await temp.make('osv-');
  await writeAdvisoryDirectory(dir);
  scanner = dependenciesScanner(osvDirectorySource(dir));
});

/** Scans, plans the upgrade of the finding for `name`, applies it, and scans again. */
const upgradeAndRescan = async (root: string, name: string) => {
  const before = await scanner.scan(root);
  const finding = before.findings.find((f) => f.details.package === name);
  if (!finding) throw new Error(`no finding for ${name}`);
  const plan = await planUpgradeWithNotes(root, finding.details);
  if (!plan) throw new Error('no plan');
  await writeTree(root, Object.fromEntries(plan.files.map((file) => [file.path, file.content ?? ''])));
  const after = await scanner.scan(root);
  return { finding, plan, before, after };
};

describe('bumpNpmRange', () => {
  it.each([
    ['^4.17.20', '^4.17.21'],
    ['~4.17.20', '~4.17.21'],
    ['4.17.20', '4.17.21'],
    ['>=4.17.0', '>=4.17.21'],
    ['=4.17.20', '=4.17.21'],
    ['^4.17.21', null],
    ['^5.0.0', null],
    ['*', null],
    ['4.x', null],
    ['>=4 <5', null],
    ['npm:lodash@^4', null],
  ])('%s → %s', (range, expected) => {
    expect(bumpNpmRange(range, '4.17.21')).toBe(expected);
  });
});

describe('planUpgrade', () => {
  it('package.json + package-lock.json: every entry at the vulnerable version bumped, ranges kept; the re-scan no longer reports it', async () => {
    const root = await temp.make('repo-');
    await writeTree(root, {
      'package.json': packageJson({ lodash: '4.17.20', minimist: '1.2.8' }),
      'package-lock.json': packageLockV3({ lodash: '4.17.20', minimist: '1.2.8' }),
    });
    const { finding, plan, after } = await upgradeAndRescan(root, 'lodash');
    expect(plan.files.map((file) => file.path)).toEqual(['package-lock.json', 'package.json']);

    const lock = JSON.parse(await readFile(join(root, 'package-lock.json'), 'utf8'));
    expect(lock.packages['node_modules/lodash']).toEqual({
      version: '4.17.21',
      resolved: 'https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz',
    });
    expect(lock.packages['node_modules/mkdirp/node_modules/lodash'].version).toBe('4.17.21');
    expect(lock.packages[''].dependencies).toEqual({ lodash: '^4.17.21', minimist: '~1.2.8' });
    expect(lock.packages['node_modules/minimist'].integrity).toBe('sha512-BBBB');
    const manifest = await readFile(join(root, 'package.json'), 'utf8');
    expect(manifest).toBe(packageJson({ lodash: '4.17.21', minimist: '1.2.8' }));
    // Only the bumped entries changed: the rest of the lockfile is as it was.
    expect(await readFile(join(root, 'package-lock.json'), 'utf8')).toBe(
      packageLockV3({ lodash: '4.17.21', minimist: '1.2.8' }).replace(/,\n\s+"integrity": "sha512-AAAA"/g, ''),
    );
    expect(plan.notes.join('\n')).toMatch(/npm install/);

    expect(after.findings.some((f) => fingerprintOf(f) === fingerprintOf(finding))).toBe(false);
    expect(after.findings).toEqual([]);
  });

  it('package-lock v1: bumps aliases too, keeping the registry the package came from', async () => {
    const root = await temp.make('repo-');
    const lock = packageLockV1.replace(
      'https://registry.npmjs.org/lodash/-/lodash-4.17.15.tgz',
      'https://npm.example.com/repo/lodash/-/lodash-4.17.15.tgz',
    );
    await writeTree(root, { 'legacy/package-lock.json': lock });
    const files = await planUpgrade(root, {
      ecosystem: 'npm',
      package: 'lodash',
      installed_version: '4.17.15',
      fixed_version: '4.17.21',
      lockfile: 'legacy/package-lock.json',
    });
    const patched = JSON.parse(files![0]!.content!);
    expect(patched.dependencies.lodash).toEqual({
      version: '4.17.21',
      resolved: 'https://npm.example.com/repo/lodash/-/lodash-4.17.21.tgz',
    });

    const { after } = await upgradeAndRescan(root, 'minimist');
    const bumped = JSON.parse(await readFile(join(root, 'legacy/package-lock.json'), 'utf8'));
    expect(bumped.dependencies['old-minimist']).toEqual({
      version: 'npm:minimist@1.2.6',
      resolved: 'https://registry.npmjs.org/minimist/-/minimist-1.2.6.tgz',
    });
    expect(after.findings.map((f) => f.details.package)).toEqual(['lodash']);
  });

  it('requirements.txt: the pin replaced, markers kept; the re-scan no longer reports it', async () => {
    const root = await temp.make('repo-');
    const text = '# app\nrequests==2.31.0\ndjango[bcrypt] == 3.2.18 ; python_version >= "3.8"  # web\nflask>=2\n';
    await writeTree(root, { 'py/requirements.txt': text });
    const { plan, after } = await upgradeAndRescan(root, 'django');
    expect(plan.files).toEqual([
      {
        path: 'py/requirements.txt',
        content: '# app\nrequests==2.31.0\ndjango[bcrypt] == 3.2.19 ; python_version >= "3.8"  # web\nflask>=2\n',
      },
    ]);
    expect(after.findings).toEqual([]);
  });

  it('requirements.txt pinned with hashes: no plan (the new hashes cannot be computed)', async () => {
    const root = await temp.make('repo-');
    await writeTree(root, { 'requirements.txt': 'Django==3.2.18 \\\n    --hash=sha256:abc\n' });
    expect(
      await planUpgrade(root, {
        ecosystem: 'PyPI',
        package: 'Django',
        installed_version: '3.2.18',
        fixed_version: '3.2.19',
        lockfile: 'requirements.txt',
      }),
    ).toBeNull();
  });

  it('poetry.lock + pyproject.toml: version bumped, its hashes emptied, constraint raised', async () => {
    const root = await temp.make('repo-');
    await writeTree(root, { 'poetry.lock': poetryLock, 'pyproject.toml': pyprojectPoetry });
    const { plan, after } = await upgradeAndRescan(root, 'django');
    const lock = await readFile(join(root, 'poetry.lock'), 'utf8');
    expect(lock).toContain('name = "django"\nversion = "3.2.19"\n');
    expect(lock).toContain('python-versions = ">=3.6"\nfiles = []\n\n[package.dependencies]');
    expect(lock).toContain('{file = "requests-2.31.0.tar.gz", hash = "sha256:ccc"}');
    expect(await readFile(join(root, 'pyproject.toml'), 'utf8')).toBe(pyprojectPoetry.replace('Django = "^3.2.0"', 'Django = "^3.2.19"'));
    expect(plan.notes.join('\n')).toMatch(/poetry lock --no-update/);
    expect(after.findings).toEqual([]);
  });

  it('go.sum + go.mod: the old lines dropped (hashes cannot be computed), the requirement raised', async () => {
    const root = await temp.make('repo-');
    await writeTree(root, { 'go.sum': goSum, 'go.mod': goMod });
    const { plan, after } = await upgradeAndRescan(root, 'golang.org/x/text');
    expect(await readFile(join(root, 'go.sum'), 'utf8')).toBe(
      goSum
        .split('\n')
        .filter((line) => !line.startsWith('golang.org/x/text v0.3.7'))
        .join('\n'),
    );
    expect(await readFile(join(root, 'go.mod'), 'utf8')).toBe(goMod.replace('golang.org/x/text v0.3.7', 'golang.org/x/text v0.3.8'));
    expect(plan.notes.join('\n')).toMatch(/go mod tidy/);
    expect(after.findings).toEqual([]);
  });

  it('go.mod without the module: adds it as an indirect requirement', async () => {
    const root = await temp.make('repo-');
    await writeTree(root, { 'go.sum': goSum, 'go.mod': 'module x\n\ngo 1.21\n' });
    const files = await planUpgrade(root, {
      ecosystem: 'Go',
      package: 'golang.org/x/text',
      installed_version: 'v0.3.7',
      fixed_version: 'v0.3.8',
      lockfile: 'go.sum',
    });
    expect(files?.find((file) => file.path === 'go.mod')?.content).toBe(
      'module x\n\ngo 1.21\n\nrequire golang.org/x/text v0.3.8 // indirect\n',
    );
  });

  it('Cargo.lock + Cargo.toml: version bumped, checksum dropped, requirement raised', async () => {
    const root = await temp.make('repo-');
    await writeTree(root, { 'Cargo.lock': cargoLock, 'Cargo.toml': cargoToml });
    const plan = await planUpgradeWithNotes(root, {
      ecosystem: 'crates.io',
      package: 'smallvec',
      installed_version: '1.6.0',
      fixed_version: '1.6.1',
      lockfile: 'Cargo.lock',
    });
    expect(plan?.files.map((file) => file.path)).toEqual(['Cargo.lock', 'Cargo.toml']);
    const lock = plan!.files[0]!.content!;
    expect(lock).toContain('name = "smallvec"\nversion = "1.6.1"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n\n');
    expect(lock).toContain('name = "gitdep"\nversion = "1.6.0"');
    expect(lock).toContain('checksum = "f12d06de37cf59146fbdecab66aa99f9fe4f78722e3607577a5375d66bd0c913"');
    expect(plan!.files[1]!.content).toBe(cargoToml.replace('version = "1.6.0"', 'version = "1.6.1"'));
    expect(plan!.notes.join('\n')).toMatch(/cargo update -p smallvec --precise 1\.6\.1/);
  });

  it('plans nothing it cannot do', async () => {
    const root = await temp.make('repo-');
    await writeTree(root, { 'web/yarn.lock': yarnV1, 'package-lock.json': packageLockV3({ lodash: '4.17.20', minimist: '1.2.8' }) });
    const base = {
      ecosystem: 'npm',
      package: 'lodash',
      installed_version: '4.17.20',
      fixed_version: '4.17.21',
      lockfile: 'package-lock.json',
    };
    expect(await planUpgrade(root, { ...base, fixed_version: null })).toBeNull();
    expect(await planUpgrade(root, { ...base, fixed_version: '4.17.19' })).toBeNull();
    expect(await planUpgrade(root, { ...base, installed_version: '4.17.0' })).toBeNull();
    expect(await planUpgrade(root, { ...base, lockfile: 'web/yarn.lock', installed_version: '4.17.19' })).toBeNull();
    expect(await planUpgrade(root, { ...base, lockfile: 'missing/package-lock.json' })).toBeNull();
    expect(await planUpgrade(root, { ...base, lockfile: '../package-lock.json' })).toBeNull();
    expect(await planUpgrade(root, { ...base, ecosystem: 'PyPI' })).toBeNull();
    expect(await planUpgrade(root, { ...base, ecosystem: 'Maven' })).toBeNull();
    expect(await planUpgrade(root, {})).toBeNull();
    expect(await planUpgrade(root, base)).not.toBeNull();
  });
});
