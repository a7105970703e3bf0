import { createHash } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { runCli } from './support/cli';
import { as } from './support/http';
import { eventually, startReceiver, type Receiver } from './support/receiver';
import { newAccount } from './support/runtime';
import { createWebhook } from './support/webhooks';
import { fixtureRepository, gitOutput } from './support/workflows';

type Api = ReturnType<typeof as>;

// Assembled at run time so no source file holds a token-shaped literal.
const githubToken = ['ghp', '_', 'Zq3', 'k9L'.repeat(2), 'Xw2mN8vR4tY6uB1cD5eF7gH0jK2lM'].join('').slice(0, 40);
const awsSecret = ['wJa', 'Q7x', 'K2m', 'P9v', 'R4t', 'Y6u', 'B1c', 'D5e', 'F7g', 'H0j', 'K2l', 'M8n', 'Q3sZ'].join('');
const awsKeyId = ['AKIA', 'Q3ZT', '7R5B', 'XW2K', '9PLM'].join('');

const vulnerablePackage = 'pas-it-vulnerable-lib';

const lock = (version: string) =>
  `${JSON.stringify(
    {
      name: 'shop',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'shop', version: '1.0.0', dependencies: { [vulnerablePackage]: `^${version}` } },
        [`node_modules/${vulnerablePackage}`]: {
          version,
          resolved: `https://registry.npmjs.org/${vulnerablePackage}/-/${vulnerablePackage}-${version}.tgz`,
          integrity: 'sha512-AAAA',
        },
      },
    },
    null,
    2,
  )}\n`;

const plantedFiles: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'shop', version: '1.0.0', dependencies: { [vulnerablePackage]: '^1.2.0' } }, null, 2)}\n`,
  'package-lock.json': lock('1.2.0'),
  'config/deploy.js': `export const github = '${githubToken}';\nexport const region = 'eu-west-1';\n`,
  '.env': `AWS_ACCESS_KEY_ID=${awsKeyId}\nAWS_SECRET_ACCESS_KEY=${awsSecret}\n`,
  'src/run.js':
    "import { exec } from 'node:child_process';\nexport const run = (input) => eval(input);\nexport const list = (dir) => exec(`ls ${dir}`);\n",
  'src/view.ts': 'export const show = (el: HTMLElement, html: string): void => {\n  el.innerHTML = html;\n};\n',
  'tools/report.py': 'print("not covered by sast")\n',
};

const cleanFiles: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'clean', version: '1.0.0' }, null, 2)}\n`,
  'README.md': '# Clean\n\nSet the password in your environment, never in code.\n',
  'src/sum.ts': 'export const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);\n',
  'src/greet.js': 'export const greet = (name) => `Hello, ${name}!`;\n',
};

const advisory = {
  id: 'GHSA-pas-it-0001',
  summary: 'Remote code execution in pas-it-vulnerable-lib',
  details: 'Versions before 1.2.5 evaluate untrusted input.',
  severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }],
  affected: [
    {
      package: { ecosystem: 'npm', name: vulnerablePackage },
      ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.2.5' }] }],
    },
  ],
};

const waitForScan = async (api: Api, id: string): Promise<any> => {
  let last: any;
  return eventually(
    async () => {
      last = (await api.get(`/security/scans/${id}`)).body?.data;
      return last && ['completed', 'failed'].includes(last.status) ? last : undefined;
    },
    60_000,
    () => `scan ${id} is ${last?.status}: ${JSON.stringify(last?.errors)}`,
    100,
  );
};

const scan = async (api: Api, projectId: string, types = ['secrets', 'dependencies', 'sast']) => {
  const created = await api.post('/security/scans', { project_id: projectId, scan_types: types });
  if (created.status !== 201) throw new Error(`scan answered ${created.status}: ${created.text}`);
  expect(created.body.data.status).toBe('queued');
  return waitForScan(api, created.body.data.id);
};

const findingsOf = async (api: Api, query: string): Promise<any[]> => (await api.get(`/security/findings?per_page=100&${query}`)).body.data;

const secretsIn = (text: string) => [githubToken, awsSecret].filter((secret) => text.includes(secret));

describe('security scans', () => {
  let receiver: Receiver;
  const answers: string[] = [];
  beforeAll(async () => {
    // Loaded as an offline machine would: `advisories import` of an OSV all.zip, into the runtime's advisory folder.
    const exportDir = await mkdtemp(join(tmpdir(), 'osv-export-'));
    const zip = join(exportDir, 'all.zip');
    await writeFile(zip, zipSync({ [`${advisory.id}.json`]: strToU8(JSON.stringify({ ...advisory, modified: '2026-10-01T00:00:00Z' })) }));
    const imported = await runCli('', ['advisories', 'import', zip], { DATA_DIR: process.env.IT_DATA_DIR as string });
    expect(imported).toMatchObject({ code: 0, stderr: '' });
    expect(imported.stdout).toContain(`Imported 1 advisory into ${join(process.env.IT_DATA_DIR as string, 'osv')}\n  npm: 1`);
  });
  afterAll(async () => {
    await receiver?.close();
    // Nothing any answer or event carried ever held a secret.
    expect(answers.flatMap(secretsIn)).toEqual([]);
    expect(receiver.requests.flatMap((request) => secretsIn(request.body))).toEqual([]);
  });

  it('finds every planted issue with its severity and place, dedupes a re-scan, resolves what was fixed, and remediates a dependency', async () => {
    const { test: key } = await newAccount();
    const api = as(key.key);
    const record = async <T>(answer: Promise<T>): Promise<T> => {
      const value = await answer;
      answers.push(JSON.stringify(value));
      return value;
    };
    receiver = await startReceiver();
    await createWebhook(api, {
      url: receiver.url(),
      events: [
        'security.scan.started',
        'security.scan.completed',
        'security.finding.created',
        'security.finding.resolved',
        'security.finding.reopened',
        'security.finding.remediation.started',
        'security.finding.remediation.failed',
      ],
    });
    const repository = await fixtureRepository(plantedFiles);
    const project = (await api.post('/projects', { name: 'Shop', repository: repository.url })).body.data;

    const first = await record(scan(api, project.id));
    expect(first.status).toBe('completed');
    expect(first.commit).toBe(repository.commit);
    expect(first.branch_scanned).toBe('main');
    expect(first.coverage.sast.covered).toEqual(expect.arrayContaining(['JavaScript', 'TypeScript']));
    // npm advisories were imported: the lockfile was checked against them.
    expect(first.coverage.dependencies.covered).toEqual(['package-lock.json']);
    expect(first.coverage.sast.not_covered).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'Python', files: 1 })]));

    const findings = await record(findingsOf(api, `project_id=${project.id}`));
    const byRule = (type: string, path: string) => findings.filter((finding) => finding.type === type && finding.location.path === path);
    // secrets
    expect(byRule('secrets', 'config/deploy.js')).toEqual([
      expect.objectContaining({ severity: 'critical', location: { path: 'config/deploy.js', line: 1 }, status: 'open' }),
    ]);
    expect(
      byRule('secrets', '.env')
        .map((finding) => finding.location.line)
        .sort(),
    ).toEqual(expect.arrayContaining([2]));
    expect(byRule('secrets', '.env').find((finding) => finding.location.line === 2)?.severity).toBe('critical');
    for (const finding of findings.filter((f) => f.type === 'secrets')) expect(finding.excerpt).toContain('***');
    // dependencies
    const dependency = byRule('dependencies', 'package-lock.json');
    expect(dependency).toEqual([
      expect.objectContaining({
        rule_id: advisory.id,
        severity: 'critical',
        details: expect.objectContaining({ package: vulnerablePackage, installed_version: '1.2.0', fixed_version: '1.2.5' }),
      }),
    ]);
    // sast
    const sastRules = findings
      .filter((f) => f.type === 'sast')
      .map((f) => `${f.location.path}:${f.location.line} ${f.rule_id} ${f.severity}`);
    expect(sastRules).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^src\/run\.js:2 no-eval high$/),
        expect.stringMatching(/^src\/run\.js:3 security\/detect-child-process/),
        expect.stringMatching(/^src\/view\.ts:2 no-unsanitized\/property high$/),
      ]),
    );
    expect(first.summary.total).toBe(findings.length);
    expect(first.summary.new_findings).toBe(findings.length);

    // Severity order and filters.
    const bySeverity = (await api.get(`/security/findings?project_id=${project.id}&sort=severity&order=asc&per_page=100`)).body.data.map(
      (f: any) => f.severity,
    );
    const rank = ['critical', 'high', 'medium', 'low', 'info'];
    expect([...bySeverity].sort((a, b) => rank.indexOf(a) - rank.indexOf(b))).toEqual(bySeverity);
    const critical = await findingsOf(api, `project_id=${project.id}&severity=critical&status=open`);
    expect(critical.length).toBeGreaterThanOrEqual(3);
    expect(critical.every((finding) => finding.severity === 'critical')).toBe(true);

    // A re-scan of the same tree: the same findings, seen again, none new.
    const second = await record(scan(api, project.id));
    expect(second.summary).toMatchObject({ total: findings.length, new_findings: 0, resolved_findings: 0 });
    const again = await findingsOf(api, `project_id=${project.id}`);
    expect(again.map((f) => f.id).sort()).toEqual(findings.map((f) => f.id).sort());
    expect(again.every((f) => f.scan_id === second.id)).toBe(true);

    // Fixing the GitHub token in the repository resolves that finding on the next scan.
    await writeFile(
      join(repository.dir, 'config/deploy.js'),
      "export const github = process.env.GITHUB_TOKEN;\nexport const region = 'eu-west-1';\n",
    );
    gitOutput(repository.dir, 'commit', '-qam', 'Read the token from the environment');
    const third = await record(scan(api, project.id, ['secrets']));
    expect(third.summary.resolved_findings).toBe(1);
    const token = byRule('secrets', 'config/deploy.js')[0];
    expect((await api.get(`/security/findings/${token.id}`)).body.data).toMatchObject({ status: 'resolved', resolution: 'fixed' });

    // Remediating the vulnerable dependency: the version bump, verified by a clean re-scan of the patched tree.
    const remediating = await api.post(`/security/findings/${dependency[0].id}/remediate`);
    expect(remediating.status).toBe(202);
    expect(remediating.body.data).toMatchObject({ status: 'remediating', remediation: { status: 'in_progress' } });
    expect((await api.post(`/security/findings/${dependency[0].id}/remediate`)).status).toBe(409);
    const remediated = await eventually(
      async () => {
        const current = (await api.get(`/security/findings/${dependency[0].id}`)).body.data;
        return current.status !== 'remediating' ? current : undefined;
      },
      30_000,
      () => 'still remediating',
      100,
    );
    expect(remediated).toMatchObject({
      status: 'resolved',
      resolution: 'remediated',
      remediation: { status: 'completed', method: 'upgrade', pushed_branch: null },
    });
    const patch = await readFile(remediated.remediation.patch.location, 'utf8');
    expect(patch).toMatch(/^-\s+"version": "1\.2\.0",?$/m);
    expect(patch).toMatch(/^\+\s+"version": "1\.2\.5",?$/m);
    expect(patch).toMatch(new RegExp(`^\\+\\s+"${vulnerablePackage}": "\\^1\\.2\\.5"`, 'm'));
    expect(patch).toContain('diff --git a/package.json b/package.json');

    // Events: the scans started and completed, each finding created once, the remediation's start,
    // the two resolutions (the remediation's end is the second, told once: no remediation.failed).
    const events = (await receiver.waitFor(3 * 2 + findings.length + 3, 20_000)).map((request) => JSON.parse(request.body));
    const count = (type: string) => events.filter((event) => event.type === type).length;
    expect([
      count('security.scan.started'),
      count('security.scan.completed'),
      count('security.finding.created'),
      count('security.finding.remediation.started'),
      count('security.finding.resolved'),
      count('security.finding.remediation.failed'),
    ]).toEqual([3, 3, findings.length, 1, 2, 0]);
    expect(events.find((event) => event.type === 'security.finding.remediation.started').data).toMatchObject({
      id: dependency[0].id,
      status: 'remediating',
      remediation: { status: 'in_progress', method: null, requested_at: remediating.body.data.remediation.requested_at },
    });
    expect(events.find((event) => event.type === 'security.finding.resolved' && event.data.id === dependency[0].id).data).toMatchObject({
      status: 'resolved',
      resolution: 'remediated',
      remediation: { status: 'completed', method: 'upgrade', patch: remediated.remediation.patch, pushed_branch: null },
    });

    // The remediation was verified but never merged: the next scan still finds the dependency, so
    // the finding is open again, saying why (it must not go on looking fixed).
    const rescanned = await record(scan(api, project.id, ['dependencies']));
    expect(rescanned.status).toBe('completed');
    const reopened = (await api.get(`/security/findings/${dependency[0].id}`)).body.data;
    expect(reopened).toMatchObject({
      status: 'open',
      resolution: null,
      resolved_at: null,
      reopened_at: expect.any(String),
      reopen_reason: expect.stringMatching(
        new RegExp(`^scan ${rescanned.id} of main at [0-9a-f]{12} still finds it: the remediation was never applied to main`),
      ),
    });
    // Reopening is a change of state, and so an event: a webhook consumer learns it is open again.
    const afterRescan = (await receiver.waitFor(events.length + 3, 20_000)).map((request) => JSON.parse(request.body));
    const reopenedEvents = afterRescan.filter((event) => event.type === 'security.finding.reopened');
    expect(reopenedEvents).toHaveLength(1);
    expect(reopenedEvents[0].data).toMatchObject({
      id: dependency[0].id,
      status: 'open',
      resolution: null,
      reopened_at: reopened.reopened_at,
      reopen_reason: reopened.reopen_reason,
    });
    expect((await api.post(`/security/findings/${dependency[0].id}/remediate`)).status).toBe(202);
  });

  it('a clean repository yields zero findings, with what it covered', async () => {
    const { test: key } = await newAccount();
    const api = as(key.key);
    const project = (await api.post('/projects', { name: 'Clean', repository: (await fixtureRepository(cleanFiles)).url })).body.data;
    const result = await scan(api, project.id);
    expect(result.status).toBe('completed');
    expect(result.summary.total).toBe(0);
    expect(await findingsOf(api, `project_id=${project.id}`)).toEqual([]);
    expect(result.coverage.secrets.files_scanned).toBe(Object.keys(cleanFiles).length);
    expect(result.coverage.sast.covered).toEqual(expect.arrayContaining(['JavaScript', 'TypeScript']));
  });

  it('tells a remediation that fails by its start and its failure, the finding open again (GET /v1/events?type=…)', async () => {
    const { test: key } = await newAccount();
    const api = as(key.key);
    const files = { 'config/deploy.js': `export const github = '${githubToken}';\n`, 'README.md': '# Shop\n' };
    const repository = await fixtureRepository(files);
    const project = (await api.post('/projects', { name: 'Moved', repository: repository.url })).body.data;
    expect((await scan(api, project.id, ['secrets'])).status).toBe('completed');
    const [finding] = await findingsOf(api, `project_id=${project.id}`);
    // The file leaves the branch before any scan sees it gone: the remediation has nothing to patch.
    gitOutput(repository.dir, 'rm', '-q', 'config/deploy.js');
    gitOutput(repository.dir, 'commit', '-qm', 'Move the configuration');

    expect((await api.post(`/security/findings/${finding.id}/remediate`)).status).toBe(202);
    const failed = await eventually(
      async () => {
        const current = (await api.get(`/security/findings/${finding.id}`)).body.data;
        return current.status !== 'remediating' ? current : undefined;
      },
      30_000,
      () => 'still remediating',
      100,
    );
    expect(failed).toMatchObject({
      status: 'open',
      remediation: { status: 'failed', error: 'config/deploy.js is not in the branch any more' },
    });
    const ofType = async (type: string) => (await api.get(`/events?type=${type}`)).body.data;
    const [started] = await ofType('security.finding.remediation.started');
    expect(started.data).toMatchObject({ id: finding.id, status: 'remediating', remediation: { status: 'in_progress' } });
    const ended = await ofType('security.finding.remediation.failed');
    expect(ended).toHaveLength(1);
    expect(ended[0].data).toEqual(
      expect.objectContaining({
        id: finding.id,
        status: 'open',
        resolution: null,
        remediation: { ...failed.remediation },
      }),
    );
    expect(Date.parse(ended[0].created_at)).toBeGreaterThanOrEqual(Date.parse(started.created_at));
    expect(await ofType('security.finding.resolved')).toEqual([]);
  });

  it('refuses to remediate a finding whose project was deleted, and leaves it open', async () => {
    const { test: key } = await newAccount();
    const api = as(key.key);
    const files = { 'config/deploy.js': `export const github = '${githubToken}';\n` };
    const project = (await api.post('/projects', { name: 'Gone', repository: (await fixtureRepository(files)).url })).body.data;
    expect((await scan(api, project.id, ['secrets'])).status).toBe('completed');
    const [finding] = await findingsOf(api, `project_id=${project.id}`);
    expect((await api.delete(`/projects/${project.id}`)).status).toBe(204);

    const refused = await api.post(`/security/findings/${finding.id}/remediate`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'conflict', message: expect.stringContaining('was deleted') });
    expect((await api.get(`/security/findings/${finding.id}`)).body.data).toMatchObject({ status: 'open', remediation: null });
    expect((await api.get('/events?type=security.finding.remediation.started')).body.data).toEqual([]);
  });

  it('refuses bad input and unknown ids', async () => {
    const { test: key } = await newAccount();
    const api = as(key.key);
    const project = (await api.post('/projects', { name: 'X', repository: (await fixtureRepository(cleanFiles)).url })).body.data;
    expect((await api.post('/security/scans', { project_id: project.id, scan_types: [] })).status).toBe(422);
    expect((await api.post('/security/scans', { project_id: project.id, scan_types: ['dast'] })).status).toBe(422);
    // A type named twice runs once, in the canonical order the scan lists them.
    const twice = await api.post('/security/scans', { project_id: project.id, scan_types: ['secrets', 'sast', 'secrets'] });
    expect(twice.status).toBe(201);
    expect(twice.body.data.scan_types).toEqual(['sast', 'secrets']);
    await waitForScan(api, twice.body.data.id);
    expect(
      (await api.post('/security/scans', { project_id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G', scan_types: ['sast'] })).body.error.details.field,
    ).toBe('project_id');
    expect((await api.get('/security/scans/scan_01JD2QA1F5G7H9J1K3M5N7P9Q1')).status).toBe(404);
    expect((await api.get('/security/findings/nope')).status).toBe(404);
    expect((await api.post('/security/findings/fnd_01JD2QB2G6H8J0K2M4N6P8R0S2/remediate')).status).toBe(404);
    expect((await api.get('/security/findings?severity=urgent')).status).toBe(422);
  });
});

describe("a finding's remediation patch", () => {
  it('is served as text/x-diff once remediated, ETag its recorded SHA-256, the secret masked; 404 before, in the other mode and to another account', async () => {
    const owner = await newAccount();
    const api = as(owner.test.key);
    const repository = await fixtureRepository({ 'config/deploy.js': plantedFiles['config/deploy.js']!, 'README.md': '# Deploy\n' });
    const project = (await api.post('/projects', { name: 'Deploy', repository: repository.url })).body.data;
    await scan(api, project.id, ['secrets']);
    const [finding] = await findingsOf(api, `project_id=${project.id}&type=secrets`);
    expect(finding).toMatchObject({ location: { path: 'config/deploy.js', line: 1 }, status: 'open' });
    const patchPath = `/security/findings/${finding.id}/patch`;

    const before = await api.get(patchPath);
    expect([before.status, before.body.error.code]).toEqual([404, 'not_found']);

    expect((await api.post(`/security/findings/${finding.id}/remediate`)).status).toBe(202);
    const remediated = await eventually(
      async () => {
        const current = (await api.get(`/security/findings/${finding.id}`)).body.data;
        return current.status !== 'remediating' ? current : undefined;
      },
      30_000,
      () => 'still remediating',
      100,
    );
    expect(remediated).toMatchObject({ status: 'resolved', resolution: 'remediated', remediation: { status: 'completed', method: 'ai' } });
    const recorded = remediated.remediation.patch;

    const patch = await api.get(patchPath);
    expect(patch.status).toBe(200);
    expect(patch.headers.get('content-type')).toBe('text/x-diff; charset=utf-8');
    expect(patch.headers.get('etag')).toBe(`"${recorded.sha256}"`);
    expect(createHash('sha256').update(patch.text, 'utf8').digest('hex')).toBe(recorded.sha256);
    expect(Buffer.byteLength(patch.text)).toBe(recorded.size);
    expect(patch.text).toContain('diff --git a/config/deploy.js b/config/deploy.js');
    // The removed line is the secret: it is masked, as the finding's excerpt is.
    expect(patch.text).toMatch(/^-export const github = '\*\*\*';$/m);
    expect(patch.text).not.toContain(githubToken);

    // A client holding this body revalidates it: 304 and no body while it is the patch, 200 for another tag.
    const unchanged = await api.get(patchPath, { headers: { 'If-None-Match': `"${recorded.sha256}"` } });
    expect([unchanged.status, unchanged.text, unchanged.headers.get('etag')]).toEqual([304, '', `"${recorded.sha256}"`]);
    expect((await api.get(patchPath, { headers: { 'If-None-Match': '"another"' } })).status).toBe(200);

    // Tenant-checked through the finding: the other mode and another account see no such finding.
    expect((await as(owner.live.key).get(patchPath)).status).toBe(404);
    const stranger = await newAccount();
    const foreign = await as(stranger.test.key).get(patchPath);
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'not_found']);
    // The scope of reading a finding.
    const writeOnly = await owner.newKey('test', ['write:security']);
    expect((await as(writeOnly.key).get(patchPath)).status).toBe(403);
  });
});
