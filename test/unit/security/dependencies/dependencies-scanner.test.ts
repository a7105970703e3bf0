import { osvDirectorySource } from '../../../../functions/adapters/security/osv/osv-directory-source';
import {
  type AdvisorySource,
  AdvisorySourceUnavailable,
  type PackageQuery,
} from '../../../../functions/engines/scanners/dependencies/advisories';
import { dependenciesScanner } from '../../../../functions/engines/scanners/dependencies/dependencies-scanner';
import { tempDirs, writeTree } from '../../workspace/temp-dir';
import {
  advisories,
  cargoLock,
  cargoToml,
  criticalVector,
  goMod,
  goSum,
  lineOf,
  packageJson,
  packageLockV1,
  packageLockV3,
  pnpmV6,
  pnpmV9,
  poetryLock,
  pyprojectPoetry,
  requirementsTxt,
  writeAdvisoryDirectory,
  yarnBerry,
  yarnV1,
} from './fixtures';

const temp = tempDirs();
afterAll(() => temp.removeAll());

const advisoryDir = async () => {
  const dir = await temp.make('osv-');
  await writeAdvisoryDirectory(dir);
  return dir;
};

const vulnerableTree = (): Record<string, string> => {
  const lock = packageLockV3({ lodash: '4.17.20', minimist: '1.2.8' });
  return {
    'package.json': packageJson({ lodash: '4.17.20', minimist: '1.2.8' }),
    'package-lock.json': lock,
    'packages/local-thing/package.json': JSON.stringify({ name: 'local-thing', dependencies: { lodash: '^4' } }),
    'legacy/package-lock.json': packageLockV1,
    'web/yarn.lock': yarnV1,
    'berry/yarn.lock': yarnBerry,
    'pnpm/pnpm-lock.yaml': pnpmV9,
    'pnpm6/pnpm-lock.yaml': pnpmV6,
    'py/requirements.txt': requirementsTxt,
    'poetry/poetry.lock': poetryLock,
    'poetry/pyproject.toml': pyprojectPoetry,
    'go/go.sum': goSum,
    'go/go.mod': goMod,
    'rust/Cargo.lock': cargoLock,
    'rust/Cargo.toml': cargoToml,
    // Never read: installed packages and git's own data.
    'node_modules/evil/package-lock.json': packageLockV3({ lodash: '4.17.0', minimist: '1.0.0' }),
    '.git/package-lock.json': packageLockV3({ lodash: '4.17.0', minimist: '1.0.0' }),
  };
};

const lodash = advisories.lodash!;
const minimist = advisories.minimist!;
const xmldom = advisories.xmldom!;
const django = advisories.django!;
const smallvec = advisories.smallvec!;
const xtext = advisories.xtext!;

describe('dependenciesScanner with an OSV advisory directory', () => {
  it('reports every vulnerable entry of every lockfile format, with severity, place and fix; never the safe ones', async () => {
    const root = await temp.make('repo-');
    const tree = vulnerableTree();
    await writeTree(root, tree);
    const result = await dependenciesScanner(osvDirectorySource(await advisoryDir())).scan(root);

    const expected = [
      ['berry/yarn.lock', lineOf(yarnBerry, '"minimist@npm:^1.2.5'), minimist.id, 'critical', 'minimist', '1.2.5', '1.2.6'],
      ['go/go.sum', 4, xtext.id, 'high', 'golang.org/x/text', 'v0.3.7', 'v0.3.8'],
      ['legacy/package-lock.json', lineOf(packageLockV1, '"lodash": {'), lodash.id, 'critical', 'lodash', '4.17.15', '4.17.21'],
      ['legacy/package-lock.json', lineOf(packageLockV1, '"old-minimist"'), minimist.id, 'critical', 'minimist', '1.2.5', '1.2.6'],
      [
        'package-lock.json',
        lineOf(tree['package-lock.json']!, '"node_modules/lodash"'),
        lodash.id,
        'critical',
        'lodash',
        '4.17.20',
        '4.17.21',
      ],
      ['pnpm/pnpm-lock.yaml', lineOf(pnpmV9, '  lodash@4.17.20:'), lodash.id, 'critical', 'lodash', '4.17.20', '4.17.21'],
      ['pnpm6/pnpm-lock.yaml', lineOf(pnpmV6, '/@xmldom/xmldom@0.7.5'), xmldom.id, 'critical', '@xmldom/xmldom', '0.7.5', '0.7.7'],
      ['pnpm6/pnpm-lock.yaml', lineOf(pnpmV6, '/minimist@1.2.0'), minimist.id, 'critical', 'minimist', '1.2.0', '1.2.6'],
      ['poetry/poetry.lock', lineOf(poetryLock, 'name = "django"'), django.id, 'high', 'django', '3.2.0', '3.2.19'],
      ['py/requirements.txt', 2, django.id, 'high', 'Django', '3.2.18', '3.2.19'],
      ['rust/Cargo.lock', lineOf(cargoLock, 'name = "smallvec"'), smallvec.id, 'medium', 'smallvec', '1.6.0', null],
      ['web/yarn.lock', lineOf(yarnV1, '"@xmldom/xmldom@^0.7.0"'), xmldom.id, 'critical', '@xmldom/xmldom', '0.7.5', '0.7.7'],
      ['web/yarn.lock', lineOf(yarnV1, 'lodash@^4.17.19'), lodash.id, 'critical', 'lodash', '4.17.19', '4.17.21'],
    ];
    expect(
      result.findings.map((f) => [
        f.location.path,
        f.location.line,
        f.rule_id,
        f.severity,
        f.details.package,
        f.details.installed_version,
        f.details.fixed_version,
      ]),
    ).toEqual(expected);
    expect(result.errors).toEqual([]);
    expect(result.coverage).toEqual({
      files_scanned: 10,
      covered: ['Cargo.lock', 'go.sum', 'package-lock.json', 'pnpm-lock.yaml', 'poetry.lock', 'requirements.txt', 'yarn.lock'],
      not_covered: [
        { kind: 'requirements.txt', files: 1, reason: 'direct URL, path, VCS or editable requirement' },
        { kind: 'requirements.txt', files: 1, reason: 'unpinned requirement' },
      ],
    });
  });

  it('describes each finding: title, details, snippet, severity source', async () => {
    const root = await temp.make('repo-');
    await writeTree(root, {
      'package-lock.json': packageLockV3({ lodash: '4.17.20', minimist: '1.2.8' }),
      'py/requirements.txt': 'Django==3.2.18\n',
    });
    const { findings } = await dependenciesScanner(osvDirectorySource(await advisoryDir())).scan(root);
    expect(findings).toHaveLength(2);
    const [npm, pypi] = findings;
    expect(npm).toMatchObject({
      type: 'dependencies',
      rule_id: 'GHSA-35jh-r3h4-6jhm',
      severity: 'critical',
      title: 'lodash@4.17.20: Command Injection in lodash',
      snippet: 'npm:lodash@4.17.20:GHSA-35jh-r3h4-6jhm',
      excerpt: 'lodash@4.17.20',
      details: {
        ecosystem: 'npm',
        package: 'lodash',
        installed_version: '4.17.20',
        fixed_version: '4.17.21',
        aliases: ['CVE-2021-23337'],
        advisory_url: 'https://osv.dev/vulnerability/GHSA-35jh-r3h4-6jhm',
        lockfile: 'package-lock.json',
        severity_source: 'cvss_v3',
        cvss_score: 9.8,
        cvss_vector: criticalVector,
      },
    });
    expect(npm!.description).toContain('vulnerable to Command Injection');
    expect(npm!.description).toContain('Fixed in lodash 4.17.21.');
    expect(pypi).toMatchObject({
      rule_id: 'PYSEC-2023-100',
      severity: 'high',
      location: { path: 'py/requirements.txt', line: 1 },
      details: { severity_source: 'database_specific', cvss_score: null, aliases: ['CVE-2023-31047', 'GHSA-jh3w-4vvf-mjgr'] },
    });
  });

  it('reports nothing for a clean repository, and asks each package version once', async () => {
    const root = await temp.make('repo-');
    await writeTree(root, {
      'package.json': packageJson({ lodash: '4.17.21', minimist: '1.2.8' }),
      'package-lock.json': packageLockV3({ lodash: '4.17.21', minimist: '1.2.8' }),
      'b/package-lock.json': packageLockV3({ lodash: '4.17.21', minimist: '1.2.8' }),
    });
    const asked: PackageQuery[][] = [];
    const directory = osvDirectorySource(await advisoryDir());
    const spy: AdvisorySource = {
      query: (packages) => {
        asked.push([...packages]);
        return directory.query(packages);
      },
    };
    const result = await dependenciesScanner(spy).scan(root);
    expect(result.findings).toEqual([]);
    expect(result.coverage).toEqual({ files_scanned: 2, covered: ['package-lock.json'], not_covered: [] });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.map((q) => `${q.name}@${q.version}`).sort()).toEqual(['lodash@4.17.21', 'minimist@1.2.8', 'mkdirp@0.5.6']);
  });

  it('does not ask at all when there is nothing locked', async () => {
    const root = await temp.make('repo-');
    await writeTree(root, { 'README.md': '# nothing' });
    const source: AdvisorySource = { query: () => Promise.reject(new Error('must not be asked')) };
    expect(await dependenciesScanner(source).scan(root)).toEqual({
      findings: [],
      coverage: { files_scanned: 0, covered: [], not_covered: [] },
      errors: [],
    });
  });

  it('never looks clean without advisories: lockfiles of an ecosystem the folder holds nothing for are not covered, and an error says so', async () => {
    const root = await temp.make('deps-');
    await writeTree(root, {
      'package-lock.json': packageLockV3({ lodash: '4.17.20', minimist: '1.2.8' }),
      'py/requirements.txt': requirementsTxt,
    });
    const empty = await temp.make('osv-empty-');
    const result = await dependenciesScanner(osvDirectorySource(empty)).scan(root);
    expect(result.findings).toEqual([]);
    expect(result.coverage.covered).toEqual([]);
    expect(result.coverage.not_covered).toEqual(
      expect.arrayContaining([
        { kind: 'package-lock.json', files: 1, reason: 'no npm advisories are loaded (OSV_ADVISORY_DIR holds none)' },
        { kind: 'requirements.txt', files: 1, reason: 'no PyPI advisories are loaded (OSV_ADVISORY_DIR holds none)' },
      ]),
    );
    expect(result.errors).toEqual(
      expect.arrayContaining([
        'package-lock.json: not checked, the advisory source holds no npm advisories',
        'py/requirements.txt: not checked, the advisory source holds no PyPI advisories',
      ]),
    );
  });

  it('lists what is not covered, and why', async () => {
    const root = await temp.make('repo-');
    await writeTree(root, {
      'tools/package.json': JSON.stringify({ name: 'tools', devDependencies: { eslint: '^9' } }),
      'empty/package.json': JSON.stringify({ name: 'empty', scripts: {} }),
      'svc/pyproject.toml': '[tool.poetry.dependencies]\npython = "^3.11"\n',
      'pep621/pyproject.toml': '[project]\nname = "x"\ndependencies = [\n  "httpx>=0.27",\n]\n',
      'config-only/pyproject.toml': '[tool.black]\nline-length = 100\n',
      'no-deps/pyproject.toml': '[project]\nname = "y"\ndependencies = [\n  # none yet\n]\n',
      'gosvc/go.mod': 'module x\n\ngo 1.22\n\nrequire github.com/google/uuid v1.3.0\n',
      'gonoreq/go.mod': 'module y\n\ngo 1.22\n',
      'crate/Cargo.toml': '[package]\nname = "c"\n\n[dependencies]\nserde = "1"\n',
      'pipenv/Pipfile.lock': '{}',
      'req/requirements.txt': 'flask\nrequests>=2\n',
      'req/requirements-dev.txt': 'pytest\n',
      'broken/package-lock.json': '{"lockfileVersion": 3, "packages": {',
      'broken/package.json': JSON.stringify({ dependencies: { a: '1' } }),
    });
    const result = await dependenciesScanner(osvDirectorySource(await advisoryDir())).scan(root);
    expect(result.findings).toEqual([]);
    expect(result.coverage.covered).toEqual(['requirements.txt']);
    expect(result.coverage.not_covered).toEqual([
      { kind: 'Cargo.toml', files: 1, reason: 'dependencies declared without a Cargo.lock beside it or in a parent (workspace) folder' },
      { kind: 'go.mod', files: 1, reason: 'requirements declared without a go.sum beside it' },
      {
        kind: 'package-lock.json',
        files: 1,
        reason: 'could not be parsed',
      },
      {
        kind: 'package.json',
        files: 2,
        reason:
          'dependencies declared without a lockfile (package-lock.json, npm-shrinkwrap.json, yarn.lock or pnpm-lock.yaml) beside it or in a parent folder',
      },
      { kind: 'Pipfile.lock', files: 1, reason: 'lockfile format not read by the dependencies scanner' },
      {
        kind: 'pyproject.toml',
        files: 2,
        reason: 'dependencies declared without a poetry.lock (or pinned requirements*.txt) beside it or in a parent folder',
      },
      { kind: 'requirements.txt', files: 2, reason: 'unpinned requirement' },
    ]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/^broken\/package-lock\.json: could not be parsed/);
  });

  it('does not read lockfiles above the size limit', async () => {
    const root = await temp.make('repo-');
    await writeTree(root, { 'package-lock.json': packageLockV3({ lodash: '4.17.20', minimist: '1.2.8' }) });
    const result = await dependenciesScanner(osvDirectorySource(await advisoryDir()), { maxLockfileBytes: 100 }).scan(root);
    expect(result.findings).toEqual([]);
    expect(result.coverage.not_covered).toEqual([{ kind: 'package-lock.json', files: 1, reason: 'larger than 0 MiB' }]);
  });

  it('fails the scan when the advisory source is unavailable (never a clean report)', async () => {
    const root = await temp.make('repo-');
    await writeTree(root, { 'requirements.txt': 'Django==3.2.18\n' });
    const down: AdvisorySource = { query: () => Promise.reject(new AdvisorySourceUnavailable('OSV is down')) };
    await expect(dependenciesScanner(down).scan(root)).rejects.toMatchObject({ name: 'AdvisorySourceUnavailable' });
    await expect(dependenciesScanner(osvDirectorySource(`${root}/missing`)).scan(root)).rejects.toBeInstanceOf(AdvisorySourceUnavailable);
  });
});

describe('osvDirectorySource', () => {
  it('answers by advisory key, skips files that are not advisories, and sees new files', async () => {
    const dir = await advisoryDir();
    const source = osvDirectorySource(dir);
    const lodashQuery: PackageQuery = { ecosystem: 'npm', name: 'lodash', version: '4.17.20' };
    const safe: PackageQuery = { ecosystem: 'npm', name: 'lodash', version: '4.17.21' };
    const answer = await source.query([lodashQuery, safe]);
    expect([...answer.keys()]).toEqual(['npm\u0000lodash\u00004.17.20']);
    expect(answer.get('npm\u0000lodash\u00004.17.20')!.map((v) => v.id)).toEqual([lodash.id]);
    expect((await source.skippedFiles()).map((path) => path.slice(dir.length + 1)).sort()).toEqual(['README.json', 'broken.json']);

    await writeTree(dir, {
      'npm/new/GHSA-new.json': JSON.stringify({
        id: 'GHSA-new',
        affected: [{ package: { ecosystem: 'npm', name: 'lodash' }, versions: ['4.17.21'] }],
      }),
    });
    expect((await source.query([safe])).get('npm\u0000lodash\u00004.17.21')!.map((v) => v.id)).toEqual(['GHSA-new']);
  });
});
