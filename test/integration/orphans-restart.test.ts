import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminDeps } from '../../functions/adapters/dynamodb/admin-deps';
import { createAccount, createCredential } from '../../functions/core/credentials/manage-credentials';
import { writeFaultsFile } from '../../lib/local/step-functions/fault-rules';
import { clientFor, processesMentioning, startChildRuntime, type ChildRuntime } from './support/child-runtime';
import { runtimeTables } from './support/runtime-tables';
import { eventually, startReceiver, type Receiver } from './support/receiver';
import { fixtureRepository } from './support/workflows';

/**
 * The local Step Functions endpoint keeps executions in memory. A workflow and a deployment that
 * were under way when the runtime stopped must not stay `running` / `in_progress` forever (nor
 * keep the deployment lock): after a restart they are failed, saying why, and new ones can start.
 */
let dataDir: string | undefined;
let runtime: ChildRuntime | undefined;
let health: Receiver | undefined;
const tables = runtimeTables();

afterAll(async () => {
  tables.closeAll();
  await runtime?.stop();
  await health?.close();
  if (dataDir) {
    for (const pid of await processesMentioning(dataDir)) process.kill(pid, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }
}, 30_000);

describe('work under way when the local runtime stops', () => {
  it('is failed with its reason after the restart, and the deployment lock is free again', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pas-orphans-'));
    const env = { LOCAL_TIME_SCALE: '0.01', LOCAL_WAIT_SCALE: '0.01' };
    runtime = await startChildRuntime(dataDir, env);
    const deps = adminDeps(await tables.of(dataDir));
    const account = await createAccount({ email: `orphans-${Date.now()}@example.com` }, deps);
    const key = await createCredential(
      {
        accountId: account.id,
        type: 'test',
        name: 'orphans',
        scopes: ['write:projects', 'read:workflows', 'write:workflows', 'read:deployments', 'write:deployments'],
      },
      deps,
    );
    let api = clientFor(runtime.apiUrl, key.key);

    const project = (await api.post('/projects', { name: 'Orphans', repository: (await fixtureRepository()).url })).body.data;
    // The workflow's intake (delayed before it starts) and the deployment's health probes outlast the test.
    writeFaultsFile(join(dataDir, 'faults.json'), [{ state: 'Intake', delayMs: 600_000, match: { 'workflow.project_id': project.id } }]);
    health = await startReceiver({ status: 503, body: 'starting' });
    const hook = await startReceiver({ status: 200, body: '{}' });
    const config = {
      branch: 'main',
      hook_url: hook.url('/deploy'),
      health_url: health.url('/health'),
      secret: 'restart-deploy-hook-secret',
      health_timeout_seconds: 900,
      health_interval_seconds: 1,
    };

    const workflow = (await api.post('/workflows', { project_id: project.id, prompt: 'Add a note', config: { ai_provider: 'local' } })).body
      .data;
    const deployment = (
      await api.post('/deployments', { project_id: project.id, environment: 'production', provider: 'deploy-hook', config })
    ).body.data;
    await eventually(
      async () => (await api.get(`/workflows/${workflow.id}`)).body.data.status === 'running',
      10_000,
      () => 'workflow not running',
      100,
    );
    await eventually(
      async () => (await api.get(`/deployments/${deployment.id}`)).body.data.health_checks.length > 0,
      10_000,
      () => 'no health probe yet',
      100,
    );

    tables.closeAll();
    expect(await runtime.stop()).toEqual({ code: 0, signal: null });
    runtime = await startChildRuntime(dataDir, env);
    api = clientFor(runtime.apiUrl, key.key);

    const failedWorkflow = (await api.get(`/workflows/${workflow.id}`)).body.data;
    expect(failedWorkflow.status).toBe('failed');
    expect(failedWorkflow.error).toEqual({
      stage: 'intake',
      message: 'The local runtime stopped while this workflow ran; create it again.',
    });
    const failedDeployment = (await api.get(`/deployments/${deployment.id}`)).body.data;
    expect(failedDeployment.status).toBe('failed');
    expect(failedDeployment.error.message).toContain('local runtime stopped');

    // Nothing is left holding the project: a new deployment to the same place starts.
    health.respondWith({ status: 200, body: 'ok' });
    const again = await api.post('/deployments', {
      project_id: project.id,
      environment: 'production',
      provider: 'deploy-hook',
      config: { ...config, health_timeout_seconds: 10 },
    });
    expect(again.status).toBe(201);
    await hook.close();
    await runtime.stop();
  }, 120_000);
});
