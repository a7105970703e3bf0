import * as v from 'valibot';
import { deploymentStatuses, environments } from '../../core/deployments/deployment';
import { listQuery, picklistParam, timestamp, lengthIn } from './common';

const branch = v.pipe(
  v.string('must be a string'),
  lengthIn(1, 255, 'must be 1 to 255 characters'),
  v.regex(/^(?!\/|.*\/\/|.*\.\.|.*@\{|.*\/$|.*\.lock$|.*\.$)[^\s~^:?*[\\\u0000-\u001f\u007f]+$/, 'must be a valid git branch name'),
);

/** The service's own fields; the rest belongs to the provider, which checks it (422 naming the field). */
const config = v.looseObject({
  branch,
  auto_rollback: v.optional(v.boolean('must be true or false')),
});

export const createDeploymentBody = v.strictObject({
  project_id: v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'is required'),
    v.description('A project of your account and mode (proj_…).'),
  ),
  environment: v.picklist(environments, `must be one of ${environments.join(', ')}`),
  provider: v.pipe(v.string('must be a string'), v.minLength(1, 'is required'), v.description('`deploy-hook` or `aws-lambda`.')),
  config: v.pipe(
    config,
    v.description("`branch` (required), `auto_rollback` (default true), and the provider's own settings (see the README)."),
  ),
  artifact: v.optional(
    v.pipe(v.string('must be a string'), v.description('A completed workflow (wf_…) of this project whose package output to deploy.')),
  ),
});

const health = v.object({
  healthy: v.boolean(),
  checked_at: timestamp,
  status_code: v.nullable(v.number()),
  latency_ms: v.nullable(v.number()),
  message: v.string(),
});

export const deploymentSchema = v.object({
  id: v.pipe(v.string(), v.description('Prefix dep_')),
  project_id: v.string(),
  environment: v.picklist(environments),
  provider: v.string(),
  branch: v.string(),
  auto_rollback: v.boolean(),
  config: v.pipe(v.record(v.string(), v.unknown()), v.description('As sent, defaults applied, secrets shown as "set".')),
  artifact: v.nullable(
    v.object({ workflow_id: v.string(), bundle: v.nullable(v.object({ location: v.string(), sha256: v.string(), size: v.number() })) }),
  ),
  status: v.picklist(deploymentStatuses),
  url: v.nullable(v.string()),
  version: v.nullable(v.string()),
  health_checks: v.pipe(v.array(health), v.description('The latest 20 probes, oldest first.')),
  health_deadline_at: v.nullable(timestamp),
  rolled_back_from: v.pipe(v.nullable(v.string()), v.description('On a deployment made current again by a rollback: the one rolled back.')),
  rolled_back_to: v.pipe(
    v.nullable(v.string()),
    v.description('On a rolled back (or failed and rolled back) deployment: where it went back to.'),
  ),
  rollback: v.nullable(
    v.object({
      status: v.picklist(['in_progress', 'completed', 'failed']),
      to: v.string(),
      requested_at: timestamp,
      completed_at: v.nullable(timestamp),
      error: v.nullable(v.string()),
      trigger: v.picklist(['requested', 'automatic']),
    }),
  ),
  error: v.nullable(v.object({ step: v.string(), message: v.string() })),
  created_at: timestamp,
  updated_at: timestamp,
  started_at: v.nullable(timestamp),
  completed_at: v.nullable(timestamp),
  duration_ms: v.nullable(v.number()),
});

export const listDeploymentsQuery = listQuery(['created_at'] as const, {
  project_id: v.optional(v.pipe(v.string(), v.description("Only this project's deployments."))),
  environment: v.optional(picklistParam(environments, 'Only deployments to this environment.')),
  status: v.optional(picklistParam(deploymentStatuses, 'Only deployments in this status.')),
});
