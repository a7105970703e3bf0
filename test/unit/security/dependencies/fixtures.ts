import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { OsvVulnerability } from '../../../../functions/engines/scanners/dependencies/advisories';

/** 1-based line of the first line containing `needle` (the test's way to know where an entry is). */
export const lineOf = (text: string, needle: string): number => {
  const index = text.split('\n').findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`${needle} not in text`);
  return index + 1;
};

export const criticalVector = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H';

/** The advisories of the test trees, as OSV records. */
export const advisories: Record<string, OsvVulnerability> = {
  lodash: {
    id: 'GHSA-35jh-r3h4-6jhm',
    aliases: ['CVE-2021-23337'],
    summary: 'Command Injection in lodash',
    details: 'lodash versions prior to 4.17.21 are vulnerable to Command Injection via the template function.',
    severity: [{ type: 'CVSS_V3', score: criticalVector }],
    affected: [
      { package: { ecosystem: 'npm', name: 'lodash' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '4.17.21' }] }] },
    ],
    database_specific: { severity: 'HIGH' },
  },
  minimist: {
    id: 'GHSA-xvch-5gv4-984h',
    aliases: ['CVE-2021-44906'],
    summary: 'Prototype Pollution in minimist',
    affected: [
      {
        package: { ecosystem: 'npm', name: 'minimist' },
        ranges: [
          { type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '0.2.4' }] },
          { type: 'SEMVER', events: [{ introduced: '1.0.0' }, { fixed: '1.2.6' }] },
        ],
      },
    ],
    database_specific: { severity: 'CRITICAL' },
  },
  /** Affects express 5.0.0 only: the trees' express 4.18.2 must not be reported. */
  express: {
    id: 'GHSA-0000-express-5',
    summary: 'Open redirect in express 5 beta',
    severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N' }],
    affected: [
      {
        package: { ecosystem: 'npm', name: 'express' },
        ranges: [{ type: 'SEMVER', events: [{ introduced: '5.0.0' }, { fixed: '5.0.1' }] }],
      },
    ],
  },
  xmldom: {
    id: 'GHSA-crh6-fp67-6883',
    summary: 'xmldom allows multiple root nodes in a DOM',
    affected: [
      {
        package: { ecosystem: 'npm', name: '@xmldom/xmldom' },
        ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '0.7.7' }] }],
      },
    ],
    database_specific: { severity: 'CRITICAL' },
  },
  /** Only a database rating. */
  django: {
    id: 'PYSEC-2023-100',
    aliases: ['CVE-2023-31047', 'GHSA-jh3w-4vvf-mjgr'],
    summary: 'Django bypass of validation when using one form field to upload multiple files',
    affected: [
      {
        package: { ecosystem: 'PyPI', name: 'Django' },
        ranges: [
          { type: 'ECOSYSTEM', events: [{ introduced: '3.2' }, { fixed: '3.2.19' }] },
          { type: 'ECOSYSTEM', events: [{ introduced: '4.0' }, { fixed: '4.1.9' }] },
        ],
      },
    ],
    database_specific: { severity: 'HIGH' },
  },
  /** An explicit versions list, no ranges (so no fixed version). */
  smallvec: {
    id: 'RUSTSEC-2021-0003',
    summary: 'Buffer overflow in SmallVec::insert_many',
    affected: [{ package: { ecosystem: 'crates.io', name: 'smallvec' }, versions: ['1.6.0', '0.6.13'] }],
    database_specific: { severity: 'MODERATE' },
  },
  xtext: {
    id: 'GO-2022-1059',
    aliases: ['CVE-2022-32149'],
    summary: 'Denial of service via crafted Accept-Language header in golang.org/x/text/language',
    severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H' }],
    affected: [
      {
        package: { ecosystem: 'Go', name: 'golang.org/x/text' },
        ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '0.3.8' }] }],
      },
    ],
  },
  /** Withdrawn: never reported. */
  withdrawn: {
    id: 'GHSA-withdrawn-0001',
    withdrawn: '2024-01-01T00:00:00Z',
    summary: 'Withdrawn advisory',
    affected: [{ package: { ecosystem: 'npm', name: 'minimist' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }] }],
  },
};

/** Writes each advisory as its own JSON file, in nested folders like an osv.dev export. */
export const writeAdvisoryDirectory = async (dir: string, records: OsvVulnerability[] = Object.values(advisories)): Promise<void> => {
  for (const [index, record] of records.entries()) {
    const ecosystem = record.affected?.[0]?.package?.ecosystem ?? 'misc';
    const path = join(dir, ecosystem, index % 2 === 0 ? 'a' : 'b/c', `${record.id}.json`);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify(record, null, 2));
  }
  await writeFile(join(dir, 'README.json'), '{"not": "an advisory"}');
  await writeFile(join(dir, 'broken.json'), '{');
};

export const packageLockV3 = (versions: { lodash: string; minimist: string }) =>
  `${JSON.stringify(
    {
      name: 'app',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'app', version: '1.0.0', dependencies: { lodash: `^${versions.lodash}`, minimist: `~${versions.minimist}` } },
        'node_modules/lodash': {
          version: versions.lodash,
          resolved: `https://registry.npmjs.org/lodash/-/lodash-${versions.lodash}.tgz`,
          integrity: 'sha512-AAAA',
        },
        'node_modules/minimist': {
          version: versions.minimist,
          resolved: `https://registry.npmjs.org/minimist/-/minimist-${versions.minimist}.tgz`,
          integrity: 'sha512-BBBB',
        },
        'node_modules/mkdirp': { version: '0.5.6', dependencies: { minimist: '^1.2.6' } },
        'node_modules/mkdirp/node_modules/lodash': {
          version: versions.lodash,
          resolved: `https://registry.npmjs.org/lodash/-/lodash-${versions.lodash}.tgz`,
          integrity: 'sha512-AAAA',
        },
        'node_modules/local-thing': { resolved: 'packages/local-thing', link: true },
        'packages/local-thing': { name: 'local-thing', version: '0.0.1' },
        'node_modules/from-git': { version: '1.0.0', resolved: 'git+ssh://git@github.com/acme/from-git.git#abc' },
      },
    },
    null,
    2,
  )}\n`;

export const packageJson = (versions: { lodash: string; minimist: string }) =>
  `${JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { lodash: `^${versions.lodash}`, minimist: `~${versions.minimist}` } }, null, 2)}\n`;

export const packageLockV1 = `${JSON.stringify(
  {
    name: 'legacy',
    version: '1.0.0',
    lockfileVersion: 1,
    requires: true,
    dependencies: {
      express: { version: '4.18.2', resolved: 'https://registry.npmjs.org/express/-/express-4.18.2.tgz', integrity: 'sha512-x' },
      lodash: { version: '4.17.15', resolved: 'https://registry.npmjs.org/lodash/-/lodash-4.17.15.tgz', integrity: 'sha512-y' },
      'old-minimist': { version: 'npm:minimist@1.2.5' },
      wrapper: { version: '1.0.0', requires: { lodash: '^4.0.0' }, dependencies: { lodash: { version: '4.17.21' } } },
    },
  },
  null,
  2,
)}\n`;

export const yarnV1 = `# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.
# yarn lockfile v1


"@xmldom/xmldom@^0.7.0":
  version "0.7.5"
  resolved "https://registry.yarnpkg.com/@xmldom/xmldom/-/xmldom-0.7.5.tgz#sha"
  integrity sha512-zzz

lodash@^4.17.19, lodash@^4.17.4:
  version "4.17.19"
  resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.19.tgz#abc"
  integrity sha512-aaa

minimist@^1.2.8:
  version "1.2.8"
  resolved "https://registry.yarnpkg.com/minimist/-/minimist-1.2.8.tgz#def"
  integrity sha512-bbb
  dependencies:
    lodash "^4.17.4"

"my-fork@github:acme/lodash#main":
  version "4.17.0"
  resolved "https://codeload.github.com/acme/lodash/tar.gz/abc"
`;

export const yarnBerry = `# This file is generated by running "yarn install" inside your project.
# Manual changes might be lost - proceed with caution!

__metadata:
  version: 8
  cacheKey: 10c0

"berry-app@workspace:.":
  version: 0.0.0-use.local
  resolution: "berry-app@workspace:."
  dependencies:
    express: "npm:^4.18.2"
    minimist: "npm:^1.2.5"
  languageName: unknown
  linkType: soft

"express@npm:^4.18.2":
  version: 4.18.2
  resolution: "express@npm:4.18.2"
  checksum: 10c0/abc
  languageName: node
  linkType: hard

"minimist@npm:^1.2.5, minimist@npm:^1.2.0":
  version: 1.2.5
  resolution: "minimist@npm:1.2.5"
  checksum: 10c0/def
  languageName: node
  linkType: hard
`;

export const pnpmV9 = `lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:

  .:
    dependencies:
      '@xmldom/xmldom':
        specifier: ^0.8.0
        version: 0.8.10
      lodash:
        specifier: ^4.17.20
        version: 4.17.20

packages:

  '@xmldom/xmldom@0.8.10':
    resolution: {integrity: sha512-2WALfTl4xo2SkGCYRt6rDTFfk9R1czmBvUQy12gK2KuRKIpWEhcbbzy8EZXtz/jkRqHX8bFEc6FC1HjX4TUWYw==}
    engines: {node: '>=10.0.0'}

  lodash@4.17.20:
    resolution: {integrity: sha512-aaa}

  ws@8.16.0:
    resolution: {integrity: sha512-ws}

snapshots:

  '@xmldom/xmldom@0.8.10': {}

  lodash@4.17.20: {}

  ws@8.16.0(bufferutil@4.0.8): {}
`;

export const pnpmV6 = `lockfileVersion: '6.0'

dependencies:
  minimist:
    specifier: ^1.2.0
    version: 1.2.0

packages:

  /@xmldom/xmldom@0.7.5:
    resolution: {integrity: sha512-x}
    dev: false

  /minimist@1.2.0:
    resolution: {integrity: sha512-y}
    dev: false

  /ws@8.16.0(bufferutil@4.0.8):
    resolution: {integrity: sha512-z}
    dev: false
`;

export const requirementsTxt = `# pinned
Django==3.2.18 ; python_version >= "3.8"
requests==2.31.0 \\
    --hash=sha256:58cd2187c01e70e6e26505bca751777aa9f2ee0b7f4300988b709f44e013003f
flask>=2.0
numpy
-r requirements-dev.txt
--index-url https://pypi.org/simple
-e git+https://github.com/acme/tool.git#egg=tool
`;

export const poetryLock = `# This file is automatically @generated by Poetry 1.8.2 and should not be changed by hand.

[[package]]
name = "django"
version = "3.2.0"
description = """A high-level Python web framework
name = "not-a-package"
"""
optional = false
python-versions = ">=3.6"
files = [
    {file = "Django-3.2-py3-none-any.whl", hash = "sha256:aaa"},
    {file = "Django-3.2.tar.gz", hash = "sha256:bbb"},
]

[package.dependencies]
asgiref = ">=3.3.2,<4"

[[package]]
name = "requests"
version = "2.31.0"
description = "Python HTTP for Humans."
optional = false
python-versions = ">=3.7"
files = [
    {file = "requests-2.31.0.tar.gz", hash = "sha256:ccc"},
]

[[package]]
name = "mylib"
version = "0.1.0"
description = ""
optional = false
python-versions = "*"
files = []

[package.source]
type = "git"
url = "https://github.com/acme/mylib.git"
reference = "main"
resolved_reference = "abc"

[metadata]
lock-version = "2.0"
python-versions = "^3.8"
content-hash = "abc"
`;

export const pyprojectPoetry = `[tool.poetry]
name = "svc"
version = "0.1.0"

[tool.poetry.dependencies]
python = "^3.8"
Django = "^3.2.0"
requests = { version = "^2.31.0", extras = ["socks"] }
`;

export const goSum = `github.com/google/uuid v1.3.0 h1:t6JiXgmwXMjEs8VusXIJk2BXHsn+wx8BZdTaoZ5fu7I=
github.com/google/uuid v1.3.0/go.mod h1:TIyPZe4MgqvfeYDBFedMoGGpEw/LqOeaOT+nhxU+yHo=
golang.org/x/text v0.3.0/go.mod h1:NqM8EUOU14njkJ3fqMW+pc6Ldnwhi/IjpwHt7yyuwOQ=
golang.org/x/text v0.3.7 h1:olpwvP2KacW1ZWvsR7uQhoyTYvKAupfQrRGBFM352Gk=
golang.org/x/text v0.3.7/go.mod h1:u+2+/6zg+i71rQMx5EYifcz6MCKuco9NR6JIITiCfzQ=
`;

export const goMod = `module example.com/svc

go 1.21

require (
\tgithub.com/google/uuid v1.3.0
\tgolang.org/x/text v0.3.7 // indirect
)
`;

export const cargoLock = `# This file is automatically @generated by Cargo.
# It is not intended for manual editing.
version = 3

[[package]]
name = "app"
version = "0.1.0"
dependencies = [
 "serde",
 "smallvec",
]

[[package]]
name = "serde"
version = "1.0.130"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "f12d06de37cf59146fbdecab66aa99f9fe4f78722e3607577a5375d66bd0c913"

[[package]]
name = "smallvec"
version = "1.6.0"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "fe0f37c9e8f3c5a4a66ad655a93c74daac4ad00c441533bf5c6e7990bb42604e"

[[package]]
name = "gitdep"
version = "1.6.0"
source = "git+https://github.com/acme/gitdep#abc"
`;

export const cargoToml = `[package]
name = "app"
version = "0.1.0"

[dependencies]
serde = "1.0"
smallvec = { version = "1.6.0", features = ["union"] }
`;
