import type { Deployment, DeploymentView } from './deployment';

type Redactor = (provider: string, config: Record<string, unknown>) => Record<string, unknown>;

/** What the API and the events show: no bookkeeping, and the config with its secrets replaced. */
/** The documented order of the fields (the table returns them in any order). */
const deploymentFieldOrder: (keyof DeploymentView)[] = [
  'id',
  'project_id',
  'environment',
  'provider',
  'branch',
  'auto_rollback',
  'config',
  'artifact',
  'status',
  'url',
  'version',
  'health_checks',
  'health_deadline_at',
  'rolled_back_from',
  'rolled_back_to',
  'rollback',
  'error',
  'created_at',
  'updated_at',
  'started_at',
  'completed_at',
  'duration_ms',
];

export const viewOfDeployment = (deployment: Deployment, redact: Redactor): DeploymentView => {
  const view: DeploymentView = {
    ...deployment,
    config: { branch: deployment.branch, auto_rollback: deployment.auto_rollback, ...redact(deployment.provider, deployment.config) },
  };
  return Object.fromEntries(deploymentFieldOrder.map((field) => [field, view[field]])) as unknown as DeploymentView;
};

/** Event data: the resource after the change, lighter (no health-check history, no config). */
export const deploymentSnapshot = (deployment: Deployment): Record<string, unknown> => ({
  id: deployment.id,
  project_id: deployment.project_id,
  environment: deployment.environment,
  provider: deployment.provider,
  branch: deployment.branch,
  status: deployment.status,
  url: deployment.url,
  version: deployment.version,
  artifact: deployment.artifact ? { workflow_id: deployment.artifact.workflow_id } : null,
  rolled_back_from: deployment.rolled_back_from,
  rolled_back_to: deployment.rolled_back_to,
  // How a rollback went: what `deployment.rollback` announces, completed or failed.
  rollback: deployment.rollback,
  error: deployment.error,
  created_at: deployment.created_at,
  started_at: deployment.started_at,
  completed_at: deployment.completed_at,
  duration_ms: deployment.duration_ms,
});
