import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { verifyEnvelope } from '../../functions/core/provenance/dsse';
import { publicKeyPemOf, readLocalSigningKey } from '../../functions/adapters/signing/local-key-signer';
import { readBundle } from '../../functions/core/workspace/bundle';
import { as, call } from './support/http';
import { eventually, startReceiver, type Receiver } from './support/receiver';
import { newAccount } from './support/runtime';
import { createWebhook } from './support/webhooks';
import { allLogs, fixtureRepository, injectFaults, waitForWorkflow } from './support/workflows';

const stages = ['intake', 'build', 'verify', 'prove', 'iterate', 'package'];
const fence = '```';

const promptWriting = (path: string, content: string, instruction = 'Add a farewell helper') =>
  `${instruction}\n\n${fence}js ${path}\n${content}${fence}\n`;

const setUp = async () => {
  const { test: key } = await newAccount();
  const api = as(key.key);
  const repository = await fixtureRepository();
  const project = await api.post('/projects', { name: 'Greeter', repository: repository.url });
  expect(project.status).toBe(201);
  return { api, repository, projectId: project.body.data.id as string };
};

const start = async (api: ReturnType<typeof as>, projectId: string, prompt: string, config: Record<string, unknown> = {}) => {
  const created = await api.post('/workflows', { project_id: projectId, prompt, config: { ai_provider: 'local', ...config } });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.text}`);
  return created.body.data;
};

describe('a workflow from POST to workflow.completed', () => {
  let receiver: Receiver;
  afterAll(() => receiver?.close());

  it('runs the six stages, shows logs while running, and delivers its events in order', async () => {
    const { api, repository, projectId } = await setUp();
    receiver = await startReceiver();
    await createWebhook(api, {
      url: receiver.url(),
      events: ['workflow.created', 'workflow.started', 'workflow.stage.completed', 'workflow.completed', 'workflow.failed'],
    });
    // Slow verify down so the logs can be read while the workflow runs.
    injectFaults({ state: 'Verify', delayMs: 1500, match: { 'workflow.project_id': projectId } });

    const created = await start(
      api,
      projectId,
      promptWriting('src/farewell.js', 'export const farewell = (name) => `Goodbye, ${name}!`;\n'),
    );
    expect(created).toMatchObject({
      status: 'queued',
      project_id: projectId,
      stages,
      config: { ai_provider: 'local', auto_deploy: false, branch: null, max_iterations: 2, review: true },
    });
    expect(created.id).toMatch(/^wf_/);

    // The injected delay holds the workflow before verify: build done, the workflow still running.
    const running = await waitForWorkflow(api, created.id, (w) => w.stage_statuses.build === 'completed' && w.status === 'running');
    expect(running.status).toBe('running');
    const duringRun = await allLogs(api, created.id);
    expect(duringRun.map((line) => line.message)).toEqual(expect.arrayContaining(['intake started', 'build started']));

    const done = await waitForWorkflow(api, created.id);
    expect(done.status).toBe('completed');
    expect(done.stage_statuses).toEqual({
      intake: 'completed',
      build: 'completed',
      verify: 'completed',
      prove: 'completed',
      iterate: 'skipped',
      package: 'completed',
    });
    expect(done.error).toBeNull();
    expect(done.duration_ms).toBeGreaterThan(0);
    expect(done.outputs).toMatchObject({
      docker_image: null,
      deployment_url: null,
      commit: repository.commit,
      branch: 'main',
      diff: { files_changed: 1, additions: 1, deletions: 0 },
      verification: { passed: true, problems: 0 },
      pushed_branch: null,
      iterations: 0,
      review: { id: expect.stringMatching(/^rev_/), status: 'completed', verdict: 'approve', comments: 0, blocking: 0 },
    });
    expect(done.ai_usage.input_tokens).toBeGreaterThan(0);
    // intake's plan, build's change set and verify's review.
    expect(done.ai_usage).toMatchObject({ provider: 'local', calls: 3 });

    // The provenance envelope verifies with the local public key and names the diff it covers.
    const envelope = JSON.parse(await readFile(done.outputs.provenance.location, 'utf8'));
    const key = await readLocalSigningKey(join(process.env.IT_DATA_DIR as string, 'signing'));
    const verified = verifyEnvelope(envelope, publicKeyPemOf(key!));
    expect(verified.valid).toBe(true);
    const patch = await readFile(done.outputs.diff.location);
    expect(patch.toString()).toContain('+export const farewell');
    const bundle = await readBundle(await readFile(done.outputs.bundle.location));
    expect(bundle.get('changes/src/farewell.js')?.toString()).toContain('farewell');

    // Logs: every stage wrote lines, filters work, order is chronological.
    const logs = await allLogs(api, created.id);
    expect(new Set(logs.map((line) => line.stage))).toEqual(new Set([null, ...stages]));
    const timestamps = logs.map((line) => line.timestamp);
    expect([...timestamps].sort()).toEqual(timestamps);
    const buildLines = await allLogs(api, created.id, '&stage=build');
    expect(buildLines.length).toBeGreaterThan(0);
    expect(buildLines.every((line) => line.stage === 'build')).toBe(true);

    // Events at a real receiver, in the order of the state changes.
    const expectedTypes = ['workflow.created', 'workflow.started', ...stages.map(() => 'workflow.stage.completed'), 'workflow.completed'];
    const requests = await receiver.waitFor(expectedTypes.length, 20_000);
    const events = requests.map((request) => JSON.parse(request.body)).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(events.map((event) => event.type)).toEqual(expectedTypes);
    expect(
      events.filter((event) => event.type === 'workflow.stage.completed').map((event) => [event.data.stage, event.data.status]),
    ).toEqual(stages.map((stage) => [stage, stage === 'iterate' ? 'skipped' : 'completed']));
    const completed = events.at(-1);
    expect(Object.keys(completed.data).sort()).toEqual(['duration_ms', 'outputs', 'project_id', 'stages', 'status', 'workflow_id']);
    expect(completed.data).toEqual({
      workflow_id: created.id,
      project_id: projectId,
      status: 'completed',
      duration_ms: done.duration_ms,
      stages: done.stage_statuses,
      outputs: { docker_image: null, deployment_url: null },
    });
  });
});

describe('the iterate loop', () => {
  it('is taken when verification fails, and verify runs again on the fixed change', async () => {
    const { api, projectId } = await setUp();
    // The local provider's fix drops the files verify complained about and keeps the rest.
    const prompt = `${promptWriting('src/broken.js', 'export const broken = (;\n', 'Add two helpers')}\n${fence}ts src/fine.ts\nexport const fine: number = 1;\n${fence}\n`;
    const created = await start(api, projectId, prompt);
    const done = await waitForWorkflow(api, created.id);
    expect(done.status).toBe('completed');
    expect(done.outputs.diff.files_changed).toBe(1);
    expect(done.stage_statuses.iterate).toBe('completed');
    expect(done.outputs.iterations).toBe(1);
    expect(done.stage_timings.verify.runs).toBe(2);
    expect(done.stage_timings.prove.runs).toBe(2);
    expect(done.outputs.verification.passed).toBe(true);
    const warnings = await allLogs(api, created.id, '&level=warn&stage=verify');
    expect(warnings.some((line) => line.message.includes('src/broken.js'))).toBe(true);
  });
});

describe('a change that never passes verification', () => {
  it('fails at verify, the stage whose check did not pass, when the fix leaves no change', async () => {
    const { api, projectId } = await setUp();
    // Every changed file fails verify; the local provider's fix drops them all, leaving nothing to verify again.
    const created = await start(api, projectId, promptWriting('src/broken.js', 'export const broken = (;\n'));
    const done = await waitForWorkflow(api, created.id);
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({ stage: 'verify', message: expect.stringContaining('the AI fix left no change to verify again') });
    expect(done.stage_statuses).toEqual({
      intake: 'completed',
      build: 'completed',
      verify: 'failed',
      prove: 'completed',
      iterate: 'completed',
      package: 'skipped',
    });
    expect(done.outputs.verification.passed).toBe(false);
    const warnings = await allLogs(api, created.id, '&level=warn&stage=iterate');
    expect(warnings.some((line) => line.message.includes('leaves no change'))).toBe(true);
    const errors = await allLogs(api, created.id, '&level=error&stage=verify');
    expect(errors.some((line) => line.message.startsWith('Workflow failed'))).toBe(true);
  });
});

describe('a failure at each stage', () => {
  it.each(stages)('%s: the workflow fails there and later stages are skipped', async (stage) => {
    const { api, projectId } = await setUp();
    const state = stage.charAt(0).toUpperCase() + stage.slice(1);
    injectFaults({ state, error: 'StageBroke', cause: `${stage} broke on purpose`, match: { 'workflow.project_id': projectId } });
    // Reaching iterate needs a failing verification.
    const prompt =
      stage === 'iterate'
        ? promptWriting('src/broken.js', 'export const broken = (;\n')
        : promptWriting('src/ok.js', 'export const ok = 1;\n');
    const created = await start(api, projectId, prompt);
    const done = await waitForWorkflow(api, created.id);
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({ stage, message: `${stage} broke on purpose` });
    const at = stages.indexOf(stage);
    for (const [i, name] of stages.entries()) {
      // Verification passes, so iterate is skipped before package runs.
      const expected = i === at ? 'failed' : i > at || (name === 'iterate' && stage !== 'iterate') ? 'skipped' : 'completed';
      expect([name, done.stage_statuses[name]]).toEqual([name, expected]);
    }
    expect(done.completed_at).not.toBeNull();
  });

  it('a transient error is retried and the workflow completes', async () => {
    const { api, projectId } = await setUp();
    injectFaults({
      state: 'Build',
      error: 'AiProviderTransientError',
      cause: 'throttled',
      times: 2,
      match: { 'workflow.project_id': projectId },
    });
    const created = await start(api, projectId, promptWriting('src/ok.js', 'export const ok = 1;\n'));
    const done = await waitForWorkflow(api, created.id);
    expect(done.status).toBe('completed');
  });
});

describe('cancel', () => {
  it('stops a running workflow: running and pending stages cancelled, event sent; a second cancel is 409', async () => {
    const { api, projectId } = await setUp();
    const receiver = await startReceiver();
    try {
      await createWebhook(api, { url: receiver.url(), events: ['workflow.cancelled'] });
      injectFaults({ state: 'Build', delayMs: 1500, match: { 'workflow.project_id': projectId } });
      const created = await start(api, projectId, promptWriting('src/ok.js', 'export const ok = 1;\n'));
      await waitForWorkflow(api, created.id, (w) => w.stage_statuses.intake === 'completed');

      const cancelled = await api.post(`/workflows/${created.id}/cancel`);
      expect(cancelled.status).toBe(202);
      expect(cancelled.body.data.status).toBe('cancelled');
      expect(cancelled.body.data.stage_statuses).toEqual({
        intake: 'completed',
        build: 'cancelled',
        verify: 'cancelled',
        prove: 'cancelled',
        iterate: 'cancelled',
        package: 'cancelled',
      });

      const [delivery] = await receiver.waitFor(1);
      expect(JSON.parse(delivery!.body)).toMatchObject({ type: 'workflow.cancelled', data: { id: created.id, status: 'cancelled' } });

      // The build that was under way finishes into a cancelled workflow and changes nothing.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const after = await api.get(`/workflows/${created.id}`);
      expect(after.body.data.status).toBe('cancelled');
      expect(after.body.data.stage_statuses.build).toBe('cancelled');

      const again = await api.post(`/workflows/${created.id}/cancel`);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('conflict');
    } finally {
      await receiver.close();
    }
  });
});

describe("a project's repository changed while a workflow runs", () => {
  it('the workflow completes on the repository and commit intake checked out; the next one uses the new repository', async () => {
    const { api, repository, projectId } = await setUp();
    const other = await fixtureRepository({ 'README.md': '# Elsewhere\n', 'src/other.js': 'export const other = 1;\n' });
    // Build waits, so the project changes between intake and the stages after it.
    injectFaults({ state: 'Build', delayMs: 3000, times: 1, match: { 'workflow.project_id': projectId } });
    const created = await start(api, projectId, promptWriting('src/farewell.js', 'export const farewell = (name) => name;\n'));
    const afterIntake = await waitForWorkflow(api, created.id, (w) => w.stage_statuses.intake === 'completed');
    expect(afterIntake.outputs).toMatchObject({ repository: repository.url, commit: repository.commit, branch: 'main' });

    const moved = await api.patch(`/projects/${projectId}`, { repository: other.url });
    expect(moved.status).toBe(200);
    expect(moved.body.data.repository).toBe(other.url);

    const done = await waitForWorkflow(api, created.id);
    // Build started only after the change, so every later stage had the project's new repository to read.
    expect(Date.parse(done.stage_timings.build.started_at)).toBeGreaterThan(Date.parse(moved.body.data.updated_at));
    expect([done.status, done.error]).toEqual(['completed', null]);
    expect(done.outputs).toMatchObject({ repository: repository.url, commit: repository.commit, branch: 'main' });
    // The packaged change is a change of the original repository's tree.
    const bundle = await readBundle(await readFile(done.outputs.bundle.location));
    expect(bundle.get('changes/src/farewell.js')?.toString()).toContain('farewell');
    const patch = (await readFile(done.outputs.diff.location)).toString();
    expect(patch).toContain('+export const farewell');

    // A workflow started after the change works on the new repository.
    const next = await start(api, projectId, promptWriting('src/ok.js', 'export const ok = 1;\n'));
    const nextDone = await waitForWorkflow(api, next.id);
    expect(nextDone.status).toBe('completed');
    expect(nextDone.outputs).toMatchObject({ repository: other.url, commit: other.commit });
  });
});

describe('the workflow API', () => {
  it('refuses bad input with 422 and names what is wrong', async () => {
    const { api, projectId } = await setUp();
    const create = (body: unknown) => api.post('/workflows', body);

    const unconfigured = await create({ project_id: projectId, prompt: 'x', config: { ai_provider: 'openai' } });
    expect(unconfigured.status).toBe(422);
    expect(unconfigured.body.error.details).toEqual({
      field: 'config.ai_provider',
      issue: 'is not configured in this deployment; configured: local',
    });

    const unknownProject = await create({ project_id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G', prompt: 'x', config: { ai_provider: 'local' } });
    expect(unknownProject.status).toBe(422);
    expect(unknownProject.body.error.details.field).toBe('project_id');

    const tooLong = await create({ project_id: projectId, prompt: 'x'.repeat(20_001), config: { ai_provider: 'local' } });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.error.details.field).toBe('prompt');

    const tooManyIterations = await create({ project_id: projectId, prompt: 'x', config: { ai_provider: 'local', max_iterations: 6 } });
    expect(tooManyIterations.status).toBe(422);
    expect(tooManyIterations.body.error.details.field).toBe('config.max_iterations');
  });

  it('lists by project and status, and a project with a running workflow cannot be deleted', async () => {
    const { api, projectId } = await setUp();
    const other = await api.post('/projects', { name: 'Other', repository: (await fixtureRepository()).url });
    injectFaults({ state: 'Intake', delayMs: 1500, match: { 'workflow.project_id': projectId } });
    const slow = await start(api, projectId, promptWriting('src/ok.js', 'export const ok = 1;\n'));

    const busy = await api.delete(`/projects/${projectId}`);
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('conflict');

    const byProject = await api.get(`/workflows?project_id=${projectId}`);
    expect(byProject.body.data.map((w: any) => w.id)).toEqual([slow.id]);
    expect((await api.get(`/workflows?project_id=${other.body.data.id}`)).body.data).toEqual([]);
    expect((await api.get(`/workflows?project_id=${projectId}&status=completed`)).body.data).toEqual([]);

    await waitForWorkflow(api, slow.id);
    const completed = await api.get(`/workflows?project_id=${projectId}&status=completed`);
    expect(completed.body.data.map((w: any) => w.id)).toEqual([slow.id]);
    expect(completed.body.meta.total).toBe(1);

    await eventually(
      async () => (await api.delete(`/projects/${projectId}`)).status === 204,
      5000,
      () => 'project still busy',
    );
  });

  it('cancel takes no body: one that is not JSON is 415, fields are 422, before the workflow is even looked up; {} is taken', async () => {
    const { test } = await newAccount();
    const path = '/workflows/wf_01JD2Q9R7W3T0N8M4K6H5G2F1E/cancel';
    const text = await call('POST', path, { key: test.key, raw: 'not json', headers: { 'Content-Type': 'text/plain' } });
    expect([text.status, text.body.error.code]).toEqual([415, 'unsupported_media_type']);
    const fields = await call('POST', path, { key: test.key, json: { reason: 'x', force: true } });
    expect([fields.status, fields.body.error.code, fields.body.error.message]).toEqual([
      422,
      'validation_error',
      'Invalid reason: is not a known field',
    ]);
    expect(fields.body.error.errors).toEqual([
      { field: 'reason', issue: 'is not a known field' },
      { field: 'force', issue: 'is not a known field' },
    ]);
    // A blank body or {} reaches the operation: here an unknown workflow.
    expect((await call('POST', path, { key: test.key, json: {} })).status).toBe(404);
    expect((await call('POST', path, { key: test.key, raw: '\n', headers: { 'Content-Type': 'text/plain' } })).status).toBe(404);
  });

  it('answers 404 for unknown or malformed workflow ids', async () => {
    const { api } = await setUp();
    expect((await api.get('/workflows/wf_01JD2Q9R7W3T0N8M4K6H5G2F1E')).status).toBe(404);
    expect((await api.get('/workflows/nope')).status).toBe(404);
    expect((await api.get('/workflows/nope/logs')).status).toBe(404);
    expect((await api.post('/workflows/wf_01JD2Q9R7W3T0N8M4K6H5G2F1E/cancel')).status).toBe(404);
  });
});

describe('auto_deploy', () => {
  it('without a completed deployment to follow, the workflow completes and says why nothing was deployed', async () => {
    const { api, projectId } = await setUp();
    const created = await start(api, projectId, promptWriting('src/ok.js', 'export const ok = 1;\n'), { auto_deploy: true });
    const done = await waitForWorkflow(api, created.id);
    expect(done.status).toBe('completed');
    expect(done.outputs).toMatchObject({ deployment_url: null, deployment_id: null });
    const warnings = await allLogs(api, created.id, '&stage=package&level=warn');
    expect(warnings.map((line) => line.message)).toEqual(expect.arrayContaining([expect.stringContaining('auto_deploy skipped')]));
  });

  it('deploys the packaged change like the last completed deployment and reports its URL', async () => {
    const { api, projectId } = await setUp();
    const hook = await startReceiver((request) => {
      const body = JSON.parse(request.body);
      return {
        status: 200,
        body: JSON.stringify({ url: `https://shop.example.com/${body.deployment_id}`, version: 'v-auto' }),
        headers: { 'Content-Type': 'application/json' },
      };
    });
    const health = await startReceiver({ status: 200, body: 'ok' });
    try {
      const config = {
        branch: 'main',
        hook_url: hook.url('/deploy'),
        health_url: health.url('/health'),
        secret: 'a-deploy-hook-secret-of-some-length',
        health_timeout_seconds: 10,
        health_interval_seconds: 1,
      };
      const first = await api.post('/deployments', { project_id: projectId, environment: 'staging', provider: 'deploy-hook', config });
      expect(first.status).toBe(201);
      let last: any;
      await eventually(
        async () => {
          last = await api.get(`/deployments/${first.body.data.id}`);
          return last.body?.data?.status === 'completed';
        },
        15_000,
        () => `first deployment: ${last?.status} ${last?.text}`,
        100,
      );

      const created = await start(api, projectId, promptWriting('src/ok.js', 'export const ok = 1;\n'), { auto_deploy: true });
      const done = await waitForWorkflow(api, created.id);
      expect(done.status).toBe('completed');
      const deploymentId = done.outputs.deployment_id;
      expect(deploymentId).toMatch(/^dep_/);
      expect(done.outputs.deployment_url).toBe(`https://shop.example.com/${deploymentId}`);

      const deployment = (await api.get(`/deployments/${deploymentId}`)).body.data;
      expect(deployment).toMatchObject({
        status: 'completed',
        environment: 'staging',
        provider: 'deploy-hook',
        artifact: { workflow_id: created.id },
      });
      const requested = hook.requests.map((request) => JSON.parse(request.body)).find((body) => body.deployment_id === deploymentId);
      expect(requested).toMatchObject({
        type: 'deployment.requested',
        artifact: { workflow_id: created.id, bundle: { sha256: done.outputs.bundle.sha256 } },
      });
    } finally {
      await hook.close();
      await health.close();
    }
  });
});

describe('verify runs the security scanners on the changed files', () => {
  it('a change that plants a secret fails verification, and the iteration drops it', async () => {
    const { api, projectId } = await setUp();
    const password = ['Zk29', 'sLqP', '3xWv'].join('');
    const token = `https://admin:${password}@internal.example.com/`;
    const prompt = `${promptWriting('src/settings.js', `export const url = '${token}';\n`, 'Add settings')}\n${fence}js src/fine.js\nexport const fine = 1;\n${fence}\n`;
    const created = await start(api, projectId, prompt);
    const done = await waitForWorkflow(api, created.id);
    expect(done.status).toBe('completed');
    expect(done.outputs.iterations).toBe(1);
    const warnings = await allLogs(api, created.id, '&stage=verify&level=warn');
    expect(warnings.some((line) => line.message.startsWith('secrets src/settings.js:1'))).toBe(true);
    expect(JSON.stringify(await allLogs(api, created.id))).not.toContain(password);
  });
});
