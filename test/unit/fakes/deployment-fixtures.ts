import type { Deployment, DeploymentRef } from '../../../functions/core/deployments/deployment';
import { isoTime } from '../../../functions/core/clock';
import { newId } from '../../../functions/core/ids';
import type { Project } from '../../../functions/core/projects/project';
import type { Tenant } from '../../../functions/core/tenancy';
import { newWorkflow, type Workflow } from '../../../functions/core/workflows/workflow';
import { startOfTests } from './clock';
import { defaultHealthSettings } from './deployment-provider';

export const tenant: Tenant = { accountId: 'acct_01JD2Q7A0B1C2D3E4F5G6H7J8K', mode: 'test' };
export const projectId = 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G';

export const project: Project = {
  id: projectId,
  name: 'shop',
  repository: 'https://git.example.test/acme/shop.git',
  description: 'The shop',
  created_at: isoTime(startOfTests - 86_400_000),
  updated_at: isoTime(startOfTests - 86_400_000),
};

export const refOf = (deployment: Pick<Deployment, 'id'>, of: Tenant = tenant): DeploymentRef => ({
  account_id: of.accountId,
  mode: of.mode,
  id: deployment.id,
});

/**
 * A deployment record; ids sort by `createdAtMs`, so a smaller offset makes an earlier deployment.
 * Queued with nothing deployed unless overridden.
 */
export const deploymentRecord = (overrides: Partial<Deployment> = {}, createdAtMs = startOfTests): Deployment => {
  const at = isoTime(createdAtMs);
  return {
    id: newId('deployment', createdAtMs),
    project_id: projectId,
    environment: 'production',
    provider: 'fake',
    branch: 'main',
    auto_rollback: true,
    config: { ...defaultHealthSettings },
    artifact: null,
    status: 'queued',
    url: null,
    version: null,
    deployed: null,
    health_checks: [],
    health_deadline_at: null,
    rolled_back_from: null,
    rolled_back_to: null,
    rollback: null,
    error: null,
    created_at: at,
    updated_at: at,
    started_at: null,
    completed_at: null,
    duration_ms: null,
    revision: 1,
    ...overrides,
  };
};

/** A completed deployment created `agoMs` before the tests' start, with something deployed. */
export const completedRecord = (agoMs: number, overrides: Partial<Deployment> = {}): Deployment => {
  const createdAtMs = startOfTests - agoMs;
  return deploymentRecord(
    {
      status: 'completed',
      deployed: { url: `https://old-${agoMs}.example.test`, version: `old-${agoMs}`, details: { old: agoMs } },
      url: `https://old-${agoMs}.example.test`,
      version: `old-${agoMs}`,
      started_at: isoTime(createdAtMs + 1000),
      completed_at: isoTime(createdAtMs + 60_000),
      duration_ms: 59_000,
      revision: 5,
      ...overrides,
    },
    createdAtMs,
  );
};

export const workflowRecord = (overrides: Partial<Workflow> = {}, outputs: Partial<Workflow['outputs']> = {}): Workflow => {
  const base = newWorkflow({
    id: newId('workflow', startOfTests - 3_600_000),
    project_id: projectId,
    name: 'Add caching',
    prompt: 'Add caching',
    config: { ai_provider: 'anthropic', auto_deploy: false, branch: null, max_iterations: 2, review: true },
    now: isoTime(startOfTests - 3_600_000),
  });
  return { ...base, status: 'completed', ...overrides, outputs: { ...base.outputs, ...outputs } };
};

export const bundle = { location: 's3://artifacts/workflows/wf/bundle.zip', sha256: 'a'.repeat(64), size: 2048 };
