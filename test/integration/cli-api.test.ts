import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli';
import { hookConfig, startDeployTarget } from './support/deployments';
import { eventually, startReceiver } from './support/receiver';
import { newAccount } from './support/runtime';
import { createWebhook, recordEvent } from './support/webhooks';
import { verifySignature } from '@project-automation-service/sdk';
import { as } from './support/http';
import { fixtureRepository, gitOutput, injectFaults } from './support/workflows';

/** The CLI's API commands (bin/api), run as a user runs them, against the integration runtime. */

// Assembled here so that no scanner of this repository mistakes the test data for a leak.
const githubToken = ['ghp', '_', 'Zq3', 'k9L'.repeat(2), 'Xw2mN8vR4tY6uB1cD5eF7gH0jK2lM'].join('').slice(0, 40);

const json = (stdout: string) => JSON.parse(stdout);

describe('the CLI on the API', () => {
  it('creates, lists and reads projects: human tables by default, JSON with --json', async () => {
    const { test: key } = await newAccount();
    const repository = await fixtureRepository();
    const created = await runCli(key.key, ['projects', 'create', '--name', 'Greeter', '--repository', repository.url, '--json']);
    expect(created.code).toBe(0);
    const project = json(created.stdout);
    expect(project).toMatchObject({ name: 'Greeter', repository: repository.url, etag: expect.stringMatching(/^"[0-9a-f]{64}"$/) });

    const table = await runCli(key.key, ['projects', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+REPOSITORY\s+CREATED$/);
    expect(table.stdout).toContain(project.id);

    const listed = await runCli(key.key, ['projects', 'list', '--all', '--json']);
    expect(json(listed.stdout).data.map((p: { id: string }) => p.id)).toEqual([project.id]);

    // One page of more: --json carries its meta, the table says what it leaves out.
    await runCli(key.key, ['projects', 'create', '--name', 'Second', '--repository', repository.url]);
    const page = await runCli(key.key, ['projects', 'list', '--per-page', '1', '--json']);
    expect(json(page.stdout)).toMatchObject({ data: [expect.any(Object)], meta: { page: 1, per_page: 1, total: 2, total_pages: 2 } });
    const firstPage = await runCli(key.key, ['projects', 'list', '--per-page', '1']);
    expect(firstPage.stderr).toContain('Showing 1 of 2 (page 1 of 2): --page 2 for the next, --all for every one.');
    const secondPage = await runCli(key.key, ['projects', 'list', '--per-page', '1', '--page', '2', '--json']);
    expect(json(secondPage.stdout)).toMatchObject({ data: [expect.any(Object)], meta: { page: 2, per_page: 1, total: 2, total_pages: 2 } });
    expect([json(page.stdout).data[0].id, json(secondPage.stdout).data[0].id].sort()).toEqual(
      json((await runCli(key.key, ['projects', 'list', '--json'])).stdout)
        .data.map((p: { id: string }) => p.id)
        .sort(),
    );
    expect((await runCli(key.key, ['projects', 'list', '--per-page', '1', '--page', '2'])).stderr).toContain(
      'Showing 1 of 2 (page 2 of 2): --all for every one.',
    );
    const both = await runCli(key.key, ['projects', 'list', '--page', '2', '--all']);
    expect([both.code, both.stderr.split('\n')[0]]).toEqual([2, 'pass --page or --all, not both']);
    expect((await runCli(key.key, ['projects', 'list', '--per-page', '1', '--all'])).stderr).not.toContain('Showing');
    expect((await runCli(key.key, ['projects', 'get', project.id, '--json'])).stdout).toContain(project.id);
  });

  it('creates once under --idempotency-key: run again, the first answer is replayed; another request under the key exits 1', async () => {
    const { test: key } = await newAccount();
    const repository = await fixtureRepository();
    const create = (name: string) =>
      runCli(key.key, [
        'projects',
        'create',
        '--name',
        name,
        '--repository',
        repository.url,
        '--idempotency-key',
        'cli-create-1',
        '--json',
      ]);
    const first = await create('Greeter');
    const again = await create('Greeter');
    expect([first.code, again.code]).toEqual([0, 0]);
    expect(json(again.stdout).id).toBe(json(first.stdout).id);
    expect(first.stderr).toBe('');
    expect(again.stderr).toContain('Replayed the answer first given under this --idempotency-key');
    expect((await as(key.key).get('/projects')).body.meta.total).toBe(1);
    const other = await create('Other');
    expect([other.code, JSON.parse(other.stderr.trim().split('\n').at(-1) as string).error.code]).toEqual([1, 'idempotency_key_reused']);
    // Only the commands that create or start something take it.
    expect((await runCli(key.key, ['projects', 'list', '--idempotency-key', 'x'])).code).toBe(2);
  });

  it('changes and deletes a project, with --if-match the ETag that get showed: a stale one exits 1 with 412 and changes nothing', async () => {
    const { test: key } = await newAccount();
    const repository = await fixtureRepository();
    const project = (await as(key.key).post('/projects', { name: 'Greeter', repository: repository.url })).body.data;
    const etagIn = (stdout: string) => /^ETag: ("[0-9a-f]{64}")$/m.exec(stdout)?.[1] as string;
    const shown = etagIn((await runCli(key.key, ['projects', 'get', project.id])).stdout);
    expect(shown).toBeDefined();

    const changed = await runCli(key.key, ['projects', 'update', project.id, '--description', 'Says hello', '--if-match', shown]);
    expect(changed.code).toBe(0);
    const current = etagIn(changed.stdout);
    expect(current).not.toBe(shown);
    const stale = await runCli(key.key, ['projects', 'update', project.id, '--name', 'Lost', '--if-match', shown]);
    expect([stale.code, stale.stderr]).toEqual([1, expect.stringContaining('412 precondition_failed')]);
    expect((await runCli(key.key, ['projects', 'delete', project.id, '--if-match', shown])).code).toBe(1);
    expect((await as(key.key).get(`/projects/${project.id}`)).body.data).toMatchObject({ name: 'Greeter', description: 'Says hello' });
    expect((await runCli(key.key, ['projects', 'update', project.id])).code).toBe(2);

    // A script reads the ETag from --json (create, get and update print it as `etag`) and passes it back.
    const read = json((await runCli(key.key, ['projects', 'get', project.id, '--json'])).stdout);
    expect(read).toMatchObject({ id: project.id, description: 'Says hello', etag: current });
    const scripted = await runCli(key.key, ['projects', 'update', project.id, '--name', 'Greeter 2', '--if-match', read.etag, '--json']);
    expect([scripted.code, json(scripted.stdout).name]).toEqual([0, 'Greeter 2']);
    const latest = json(scripted.stdout).etag;
    expect(latest).toMatch(/^"[0-9a-f]{64}"$/);
    expect(latest).not.toBe(current);

    const deleted = await runCli(key.key, ['projects', 'delete', project.id, '--if-match', latest, '--json']);
    expect([deleted.code, json(deleted.stdout)]).toEqual([0, { id: project.id, deleted: true }]);
    expect((await as(key.key).get(`/projects/${project.id}`)).status).toBe(404);
  });

  it('exits 1 with the API error, 2 on a usage error, and asks for a key when it has none', async () => {
    const { test: key } = await newAccount();
    const missing = await runCli(key.key, ['projects', 'get', 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Error 404 not_found: .*\(request .+\)/);
    const invalid = await runCli(key.key, ['projects', 'create', '--name', 'x', '--repository', 'nope', '--json']);
    expect(invalid.code).toBe(1);
    expect(JSON.parse(invalid.stderr).error).toMatchObject({ status: 422, code: 'validation_error' });
    const usage = await runCli(key.key, ['projects', 'create', '--name', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--repository is required');
    const unknownOption = await runCli(key.key, ['projects', 'list', '--colour']);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr.split('\n')[0]).toBe('Unknown option --colour.');
    const noKey = await runCli('', ['projects', 'list']);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('SERVICE_API_KEY');

    // A file that cannot be read, two sources for one value, an API URL that is none: a usage
    // error naming what is wrong, never a stack trace.
    const noFile = await runCli(key.key, ['workflows', 'create', '--project', 'proj_x', '--prompt-file', '/nonexistent/prompt.md']);
    expect([noFile.code, noFile.stderr.split('\n')[0]]).toEqual([2, '--prompt-file: cannot read /nonexistent/prompt.md (no such file)']);
    const both = await runCli(key.key, [
      'workflows',
      'create',
      '--project',
      'proj_x',
      '--prompt',
      'a',
      '--prompt-file',
      '/nonexistent/prompt.md',
    ]);
    expect([both.code, both.stderr.split('\n')[0]]).toEqual([2, 'pass --prompt or --prompt-file, not both']);
    const noConfig = await runCli(key.key, [
      'deployments',
      'create',
      '--project',
      'proj_x',
      '--environment',
      'staging',
      '--provider',
      'deploy-hook',
      '--config-file',
      '/nonexistent/c.json',
    ]);
    expect([noConfig.code, noConfig.stderr.split('\n')[0]]).toEqual([2, '--config-file: cannot read /nonexistent/c.json (no such file)']);
    for (const url of ['not-a-url', 'localhost:3000', 'ftp://localhost/v1']) {
      const badUrl = await runCli(key.key, ['projects', 'list', '--api-url', url]);
      expect([badUrl.code, badUrl.stderr.trim()]).toEqual([
        2,
        `the API URL must be http(s)://host[:port]/v1, not "${url}" (--api-url or SERVICE_API_URL)`,
      ]);
    }
    for (const output of [noFile, both, noConfig]) expect(output.stderr).not.toMatch(/\n\s+at /);

    // Every field's issue when the API names several, in the human output and in --json.
    const invalidDeployment = [
      'deployments',
      'create',
      '--project',
      'proj_x',
      '--environment',
      'nowhere',
      '--provider',
      'deploy-hook',
      '--config',
      '{}',
    ];
    const several = await runCli(key.key, invalidDeployment);
    expect(several.code).toBe(1);
    expect(several.stderr).toMatch(
      /\n {2}environment: must be one of .* \(set by --environment\)\n {2}config\.branch: is required \(set by --config\)/,
    );
    // A field the API names otherwise than the command line: the option that set it.
    const unknownProject = await runCli(key.key, ['workflows', 'create', '--project', 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G', '--prompt', 'Hi']);
    expect([unknownProject.code, unknownProject.stderr]).toEqual([
      1,
      expect.stringMatching(/^Error 422 validation_error: Invalid project_id: .*\n {2}project_id \(set by --project\)\n$/),
    ]);
    const severalJson = await runCli(key.key, [...invalidDeployment, '--json']);
    expect(JSON.parse(severalJson.stderr).error.errors.map((e: { field: string }) => e.field)).toEqual(['environment', 'config.branch']);

    // An option with a closed set of values says which, before any request.
    for (const [args, message] of [
      [['findings', 'list', '--status', 'fixed'], '--status must be one of open, remediating, resolved'],
      [['tests', 'generate', '--project', 'proj_x', '--framework', 'mocha'], '--framework must be one of jest, vitest, node:test, pytest'],
      [
        ['reviews', 'create', '--project', 'proj_x', '--head', 'f', '--provider', 'gpt'],
        '--provider must be one of local, bedrock, openai, anthropic',
      ],
    ] as const) {
      const refused = await runCli(key.key, [...args]);
      expect([args, refused.code, refused.stderr.split('\n')[0]]).toEqual([args, 2, message]);
    }

    // A group alone, or with --help, lists its commands.
    const groupHelp = await runCli(key.key, ['projects', '--help']);
    expect([groupHelp.code, groupHelp.stdout]).toEqual([0, expect.stringContaining('npm run cli -- projects get <project_id>')]);
    expect((await runCli(key.key, ['projects'])).code).toBe(2);
  });

  it('starts a workflow and watches it: stage progress, exit 0 when it completes and 1 when it fails; logs and events follow', async () => {
    const { test: key } = await newAccount();
    const api = as(key.key);
    const repository = await fixtureRepository();
    const project = (await api.post('/projects', { name: 'Greeter', repository: repository.url })).body.data;

    const watched = await runCli(key.key, [
      'workflows',
      'create',
      '--project',
      project.id,
      '--prompt',
      'Add a note',
      '--provider',
      'local',
      '--watch',
    ]);
    expect(watched.code).toBe(0);
    expect(watched.stdout).toMatch(/^Workflow wf_\w+ completed\./);
    for (const stage of ['intake', 'build', 'verify', 'prove', 'package'])
      expect(watched.stderr).toMatch(new RegExp(`✓ ${stage}\\s+completed`));
    expect(watched.stderr).toMatch(/– iterate\s+skipped/);
    const workflowId = /Workflow (wf_\w+)/.exec(watched.stdout)?.[1] as string;

    const logs = await runCli(key.key, ['workflows', 'logs', workflowId, '--follow', '--stage', 'verify']);
    expect(logs.code).toBe(0);
    expect(logs.stdout.trim().split('\n').length).toBeGreaterThan(0);
    expect(
      logs.stdout
        .split('\n')
        .filter(Boolean)
        .every((line) => / verify /.test(line)),
    ).toBe(true);

    const events = await runCli(key.key, ['events', 'list', '--type', 'workflow.completed', '--json']);
    expect(json(events.stdout).data[0].data.workflow_id).toBe(workflowId);
    const event = await runCli(key.key, ['events', 'get', json(events.stdout).data[0].id]);
    expect([event.code, event.stdout]).toEqual([0, expect.stringContaining(`"workflow_id": "${workflowId}"`)]);

    injectFaults({ state: 'Build', error: 'StageBroke', cause: 'build broke on purpose', match: { 'workflow.project_id': project.id } });
    const failed = await runCli(key.key, [
      'workflows',
      'create',
      '--project',
      project.id,
      '--prompt',
      'Break it',
      '--provider',
      'local',
      '--watch',
    ]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/Workflow wf_\w+ failed\.\n {2}build: /);
    expect(failed.stderr).toMatch(/✗ build\s+failed/);
  });

  it('lists workflows by project and status, and cancels a running one (a second cancel exits 1 with 409)', async () => {
    const { test: key } = await newAccount();
    const api = as(key.key);
    const repository = await fixtureRepository();
    const project = (await api.post('/projects', { name: 'Greeter', repository: repository.url })).body.data;
    injectFaults({ state: 'Build', delayMs: 5000, match: { 'workflow.project_id': project.id } });
    const workflow = (await api.post('/workflows', { project_id: project.id, prompt: 'Add a note', config: { ai_provider: 'local' } })).body
      .data;

    const running = await runCli(key.key, ['workflows', 'list', '--project', project.id]);
    expect(running.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+PROJECT\s+TIME\s+CREATED\s+NAME$/);
    expect(running.stdout).toContain(workflow.id);
    const cancelled = await runCli(key.key, ['workflows', 'cancel', workflow.id]);
    expect([cancelled.code, cancelled.stdout]).toEqual([0, `Cancelled workflow ${workflow.id} (cancelled).\n`]);
    const listed = await runCli(key.key, ['workflows', 'list', '--status', 'cancelled', '--json']);
    expect(json(listed.stdout).data.map((w: { id: string }) => w.id)).toEqual([workflow.id]);
    expect((await runCli(key.key, ['workflows', 'list', '--status', 'completed', '--json'])).stdout).toContain('"data": []');
    const again = await runCli(key.key, ['workflows', 'cancel', workflow.id]);
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('409 conflict')]);
  });

  it('scans a project and lists its findings', async () => {
    const { test: key } = await newAccount();
    const repository = await fixtureRepository({
      'package.json': '{"name":"leaky","version":"1.0.0"}\n',
      'src/config.js': `export const github = '${githubToken}';\n`,
      'src/run.js': 'export const run = (code) => eval(code);\n',
    });
    const project = (await as(key.key).post('/projects', { name: 'Leaky', repository: repository.url })).body.data;
    const scan = await runCli(key.key, ['scans', 'create', '--project', project.id, '--types', 'secrets,sast', '--watch', '--json']);
    expect(scan.code).toBe(0);
    expect(json(scan.stdout)).toMatchObject({ status: 'completed' });
    expect(json(scan.stdout).scan_types.sort()).toEqual(['sast', 'secrets']);
    const scans = await runCli(key.key, ['scans', 'list', '--project', project.id, '--json']);
    expect(json(scans.stdout)).toMatchObject({ data: [{ id: json(scan.stdout).id, status: 'completed' }], meta: { total: 1 } });
    const findings = await runCli(key.key, ['findings', 'list', '--project', project.id, '--type', 'secrets']);
    expect(findings.code).toBe(0);
    expect(findings.stdout.split('\n')[0]).toMatch(/^ID\s+SEVERITY\s+STATUS\s+TYPE\s+WHERE\s+TITLE$/);
    expect(findings.stdout).toContain('src/config.js');
    // Most severe first with --sort severity, as its help says; --order asc|desc says it outright.
    const severities = async (args: string[]) =>
      json((await runCli(key.key, ['findings', 'list', '--project', project.id, '--json', ...args])).stdout).data.map(
        (finding: { severity: string }) => finding.severity,
      );
    const rank = ['critical', 'high', 'medium', 'low', 'info'];
    const mostSevereFirst = await severities(['--sort', 'severity']);
    expect(new Set(mostSevereFirst).size).toBeGreaterThan(1);
    expect(mostSevereFirst).toEqual([...mostSevereFirst].sort((a, b) => rank.indexOf(a) - rank.indexOf(b)));
    expect(await severities(['--sort', 'severity', '--order', 'desc'])).toEqual([...mostSevereFirst].reverse());

    // Once remediated, `findings patch` prints the verified diff as the API serves it (for git apply).
    const api = as(key.key);
    const [secret] = (await api.get(`/security/findings?project_id=${project.id}&type=secrets`)).body.data;
    expect((await runCli(key.key, ['findings', 'patch', secret.id])).stderr).toContain('not found');
    expect((await api.post(`/security/findings/${secret.id}/remediate`)).status).toBe(202);
    await eventually(
      async () => (await api.get(`/security/findings/${secret.id}`)).body.data.status === 'resolved',
      30_000,
      () => 'the finding was never remediated',
      100,
    );
    const patch = await runCli(key.key, ['findings', 'patch', secret.id]);
    expect(patch.code).toBe(0);
    expect(patch.stdout).toBe((await api.get(`/security/findings/${secret.id}/patch`)).text);
    expect(patch.stdout).toMatch(/^diff --git a\/src\/config\.js b\/src\/config\.js\n/);
  });

  it('reads a finding and remediates it, watching to the outcome: exit 0 once remediated, 1 when the API refuses', async () => {
    const { test: key } = await newAccount();
    const repository = await fixtureRepository({
      'package.json': '{"name":"leaky","version":"1.0.0"}\n',
      'src/config.js': `export const github = '${githubToken}';\n`,
    });
    const api = as(key.key);
    const project = (await api.post('/projects', { name: 'Leaky', repository: repository.url })).body.data;
    expect((await runCli(key.key, ['scans', 'create', '--project', project.id, '--types', 'secrets', '--watch'])).code).toBe(0);
    const [secret] = (await api.get(`/security/findings?project_id=${project.id}&type=secrets`)).body.data;

    const open = await runCli(key.key, ['findings', 'get', secret.id]);
    expect(open.code).toBe(0);
    expect(open.stdout).toContain(`${secret.title} at src/config.js:1`);
    expect(open.stdout).toContain(`Fix it: findings remediate ${secret.id} --watch`);
    expect(open.stdout).not.toContain(githubToken);
    expect(json((await runCli(key.key, ['findings', 'get', secret.id, '--json'])).stdout)).toMatchObject({ id: secret.id, status: 'open' });

    const remediated = await runCli(key.key, ['findings', 'remediate', secret.id, '--watch', '--json']);
    expect(remediated.code).toBe(0);
    expect(json(remediated.stdout)).toMatchObject({
      id: secret.id,
      status: 'resolved',
      resolution: 'remediated',
      remediation: { status: 'completed' },
    });
    const shown = await runCli(key.key, ['findings', 'get', secret.id]);
    expect(shown.stdout).toContain('Latest remediation completed (ai).');
    expect(shown.stdout).toContain(`patch: findings patch ${secret.id}`);
    expect((await runCli(key.key, ['findings', 'patch', secret.id])).code).toBe(0);

    const again = await runCli(key.key, ['findings', 'remediate', secret.id]);
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('409 conflict')]);
  });

  it('reviews a branch: the comments by file and line, exit 1 when it requests changes; list, show and comments read it back', async () => {
    const { test: key } = await newAccount();
    const repository = await fixtureRepository({
      'package.json': '{"name":"runner","version":"1.0.0"}\n',
      'src/ok.js': 'export const ok = 1;\n',
    });
    gitOutput(repository.dir, 'checkout', '-q', '-b', 'feature');
    await writeFile(join(repository.dir, 'src/run.js'), 'export const ok = 1;\nexport const run = (input) => eval(input);\n');
    gitOutput(repository.dir, 'add', '-A');
    gitOutput(repository.dir, 'commit', '-q', '-m', 'Runner');
    gitOutput(repository.dir, 'checkout', '-q', 'main');
    const project = (await as(key.key).post('/projects', { name: 'Runner', repository: repository.url })).body.data;

    const created = await runCli(key.key, [
      'reviews',
      'create',
      '--project',
      project.id,
      '--head',
      'feature',
      '--provider',
      'local',
      '--watch',
    ]);
    expect(created.code).toBe(1);
    const [header, target] = created.stdout.split('\n');
    expect(header).toMatch(/^rev_\w{26} {2}completed: request_changes$/);
    expect(target).toMatch(/^feature into main \(merge base \w{12}, head \w{12}\)$/);
    expect(created.stdout).toMatch(/\nsrc\/run\.js\n {2}2 +\w+ +security {2}\S*eval/);
    const id = header!.split(' ')[0]!;

    const listed = await runCli(key.key, ['reviews', 'list', '--project', project.id]);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+VERDICT\s+HEAD\s+COMMENTS\s+CREATED$/);
    expect(listed.stdout).toMatch(new RegExp(`${id}\\s+completed\\s+request_changes\\s+feature\\s+1\\s`));
    const shown = await runCli(key.key, ['reviews', 'show', id, '--json']);
    expect(shown.code).toBe(1);
    expect(json(shown.stdout)).toMatchObject({ data: { id, verdict: 'request_changes' }, comments: [{ path: 'src/run.js', line: 2 }] });
    const comments = await runCli(key.key, ['reviews', 'comments', id, '--severity', 'info']);
    expect([comments.code, comments.stdout]).toEqual([0, '(none)\n']);
    expect((await runCli(key.key, ['reviews', 'comments', id, '--path', 'src/run.js'])).stdout).toContain('src/run.js:2');
  });

  it('deploys, rolls back and watches both to their outcome', async () => {
    const { test: key } = await newAccount();
    const repository = await fixtureRepository();
    const project = (await as(key.key).post('/projects', { name: 'Site', repository: repository.url })).body.data;
    const site = await startDeployTarget();
    try {
      const dir = await mkdtemp(join(tmpdir(), 'pas-cli-'));
      const configFile = join(dir, 'deploy.json');
      await writeFile(configFile, JSON.stringify(hookConfig(site)));
      const deploy = (args: string[]) =>
        runCli(key.key, [
          'deployments',
          'create',
          '--project',
          project.id,
          '--environment',
          'production',
          '--provider',
          'deploy-hook',
          ...args,
        ]);
      const first = await deploy(['--config-file', configFile, '--watch', '--json']);
      expect(first.code).toBe(0);
      expect(json(first.stdout).status).toBe('completed');
      const second = await deploy(['--config', JSON.stringify(hookConfig(site)), '--watch', '--json']);
      expect(second.code).toBe(0);
      // The one to roll back, found with the CLI: the newest completed deployment of the environment.
      const listed = await runCli(key.key, ['deployments', 'list', '--project', project.id, '--environment', 'production', '--json']);
      expect(json(listed.stdout).data.map((d: { id: string; status: string }) => [d.id, d.status])).toEqual([
        [json(second.stdout).id, 'completed'],
        [json(first.stdout).id, 'completed'],
      ]);
      expect((await runCli(key.key, ['deployments', 'list', '--status', 'failed'])).stdout).toBe('(none)\n');
      const rollback = await runCli(key.key, ['deployments', 'rollback', json(second.stdout).id, '--watch']);
      expect(rollback.code).toBe(0);
      expect(rollback.stdout).toMatch(/rolled_back/);
      expect(rollback.stdout).toContain(`rolled back to ${json(first.stdout).id}`);
      await rm(dir, { recursive: true, force: true });
    } finally {
      await site.close();
    }
  });

  it("runs a repository's own tests and watches them: exit 0 when all pass, 1 with the failures listed otherwise", async () => {
    const { test: key } = await newAccount();
    const repositoryWith = (assertion: string) =>
      fixtureRepository({
        'package.json': `${JSON.stringify({ name: 'sums', version: '1.0.0', scripts: { test: 'node --test' } })}\n`,
        'sum.test.js': `const test = require('node:test');\nconst assert = require('node:assert');\ntest('adds', () => ${assertion});\n`,
      });
    for (const [assertion, code, summary] of [
      ['assert.strictEqual(1 + 1, 2)', 0, /completed: 1 passed, 0 failed/],
      ['assert.strictEqual(1 + 1, 3)', 1, /completed: 0 passed, 1 failed[\s\S]*failed\s+adds/],
    ] as const) {
      const repository = await repositoryWith(assertion);
      const project = (await as(key.key).post('/projects', { name: 'Sums', repository: repository.url })).body.data;
      const run = await runCli(key.key, ['tests', 'run', '--project', project.id, '--branch', 'main', '--watch']);
      expect([run.code, run.stdout]).toEqual([code, expect.stringMatching(summary)]);
      const runId = /^Run (run_\w+)/.exec(run.stdout)?.[1] as string;
      expect((await runCli(key.key, ['tests', 'get', runId])).stdout).toMatch(summary);
      const listed = await runCli(key.key, ['tests', 'list', '--project', project.id, '--object', 'test_run']);
      expect(listed.stdout.split('\n')[0]).toMatch(/^ID\s+OBJECT\s+STATUS\s+TIME\s+PROJECT\s+CREATED$/);
      expect(listed.stdout).toContain(runId);
    }
  });

  it('lists webhooks and their deliveries, and redelivers one', async () => {
    const { test: key, account } = await newAccount();
    const receiver = await startReceiver({ status: 200 });
    try {
      const hook = await createWebhook(as(key.key), { url: receiver.url(), events: ['workflow.completed'] });
      const listed = await runCli(key.key, ['webhooks', 'list']);
      expect(listed.stdout).toContain(hook.id);
      expect(listed.stdout).not.toContain(hook.secret);
      await recordEvent(account.id, 'test', 'workflow.completed');
      await receiver.waitFor(1, 30_000);
      const deliveries = await runCli(key.key, ['webhooks', 'deliveries', hook.id, '--json']);
      const [delivery] = json(deliveries.stdout).data;
      expect(delivery.event_type).toBe('workflow.completed');
      const again = await runCli(key.key, ['webhooks', 'redeliver', hook.id, delivery.id]);
      expect([again.code, again.stderr]).toEqual([0, '']);
      await receiver.waitFor(2, 30_000);
    } finally {
      await receiver.close();
    }
  });

  it('tests a webhook on its receiver (exit 1 when it does not answer 2xx), rotates its secret, and recovers what it missed', async () => {
    const { test: key } = await newAccount();
    const receiver = await startReceiver({ status: 204 });
    try {
      const hook = await createWebhook(as(key.key), { url: receiver.url(), events: ['*'] });
      const sent = await runCli(key.key, ['webhooks', 'test', hook.id, '--event-type', 'review.completed']);
      expect([sent.code, sent.stdout]).toEqual([
        0,
        expect.stringMatching(/^Sent a test review\.completed as dlv_\w+: succeeded\.\n {2}answered 204 in \d+ ms\n$/),
      ]);
      const [first] = await receiver.waitFor(1);
      expect(first?.headers['x-service-event-type']).toBe('review.completed');
      expect(await verifySignature(first!.rawBody, first!.headers['x-service-signature'], hook.secret)).toBe(true);

      const rotated = await runCli(key.key, ['webhooks', 'rotate-secret', hook.id, '--expires-in', '0', '--json']);
      const secret = json(rotated.stdout).secret as string;
      expect([rotated.code, secret]).toEqual([0, expect.stringMatching(/^whsec_/)]);
      receiver.respondWith({ status: 500 });
      const refused = await runCli(key.key, ['webhooks', 'test', hook.id]);
      expect([refused.code, refused.stdout]).toEqual([1, expect.stringContaining('workflow.completed as dlv_')]);
      expect(refused.stdout).toContain('answered 500');
      const [, second] = await receiver.waitFor(2);
      expect(await verifySignature(second!.rawBody, second!.headers['x-service-signature'], secret)).toBe(true);
      expect(await verifySignature(second!.rawBody, second!.headers['x-service-signature'], hook.secret)).toBe(false);

      const recovered = await runCli(key.key, ['webhooks', 'recover', hook.id, '--since', new Date(Date.now() - 60_000).toISOString()]);
      expect([recovered.code, recovered.stdout]).toEqual([0, expect.stringMatching(/^Queued \d+ deliver(y|ies) of wh_\w+ again\.\n$/)]);
      expect((await runCli(key.key, ['webhooks', 'recover', hook.id])).code).toBe(2);
    } finally {
      await receiver.close();
    }
  });

  it('registers a webhook (its secret shown once), reads, pauses and deletes it, with --if-match the ETag get showed', async () => {
    const { test: key } = await newAccount();
    // Test mode may target loopback locally; nothing listens there and nothing is sent.
    const created = await runCli(key.key, [
      'webhooks',
      'create',
      '--url',
      'http://127.0.0.1:9/cli',
      '--events',
      'workflow.completed, review.completed',
    ]);
    expect(created.code).toBe(0);
    const id = /Registered webhook (wh_[0-9A-Z]+)\./.exec(created.stdout)?.[1] as string;
    const secret = /Signing secret .*: (whsec_\S+)/.exec(created.stdout)?.[1] as string;
    expect(secret).toBeDefined();
    const shown = await runCli(key.key, ['webhooks', 'get', id]);
    expect(shown.stdout).toContain('workflow.completed,review.completed');
    expect(shown.stdout).not.toContain(secret);
    const etag = /^ETag: ("[0-9a-f]{64}")$/m.exec(shown.stdout)?.[1] as string;

    // --json carries the same ETag, as `etag`, for a script to pass back.
    expect(json((await runCli(key.key, ['webhooks', 'get', id, '--json'])).stdout)).toMatchObject({ id, etag });
    const paused = await runCli(key.key, ['webhooks', 'update', id, '--active', 'false', '--if-match', etag, '--json']);
    expect([paused.code, json(paused.stdout).active]).toEqual([0, false]);
    expect(json(paused.stdout).etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(json(paused.stdout).etag).not.toBe(etag);
    const stale = await runCli(key.key, ['webhooks', 'update', id, '--description', 'Lost', '--if-match', etag]);
    expect([stale.code, stale.stderr]).toEqual([1, expect.stringContaining('412 precondition_failed')]);
    expect((await runCli(key.key, ['webhooks', 'update', id, '--active', 'maybe'])).code).toBe(2);
    expect((await runCli(key.key, ['webhooks', 'update', id])).code).toBe(2);
    expect((await as(key.key).get(`/webhooks/${id}`)).body.data).toMatchObject({ active: false, description: null });

    expect((await runCli(key.key, ['webhooks', 'delete', id])).code).toBe(0);
    expect((await as(key.key).get(`/webhooks/${id}`)).status).toBe(404);
  });

  it('prints bash and zsh completion scripts naming every group and command', async () => {
    const { test: key } = await newAccount();
    const bash = await runCli(key.key, ['completion', 'bash']);
    expect(bash.code).toBe(0);
    // bash itself parses the script, and completes from it.
    execFileSync('bash', ['-n'], { input: bash.stdout });
    const completed = execFileSync(
      'bash',
      ['-c', `${bash.stdout}\nCOMP_WORDS=(pas workflows l); COMP_CWORD=2; _pas_complete; echo "\${COMPREPLY[@]}"`],
      { encoding: 'utf8' },
    );
    expect(completed.trim()).toBe('list logs');
    const options = execFileSync(
      'bash',
      ['-c', `${bash.stdout}\nCOMP_WORDS=(pas listen --f); COMP_CWORD=2; _pas_complete; echo "\${COMPREPLY[@]}"`],
      { encoding: 'utf8' },
    );
    expect(options.trim().split(' ').sort()).toEqual(['--forward-to', '--from-now']);
    const zsh = await runCli(key.key, ['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/^#compdef pas/);
    for (const word of ['projects', 'workflows', 'scans', 'findings', 'reviews', 'deployments', 'tests', 'webhooks', 'events', 'listen']) {
      expect(zsh.stdout).toContain(`'${word}:`);
    }
    expect((await runCli(key.key, ['completion', 'fish'])).code).toBe(2);
  });
});
