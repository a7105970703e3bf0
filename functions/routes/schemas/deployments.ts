import * as v from 'valibot';
import { deploymentStatuses, environments } from '../../core/deployments/deployment';
import { jobTimestamps, timestamp } from './common';

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
  ...jobTimestamps,
  duration_ms: v.nullable(v.number()),
});
