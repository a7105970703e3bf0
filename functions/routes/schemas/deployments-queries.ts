import * as v from 'valibot';
import { deploymentStatuses, environments } from '../../core/deployments/deployment';
import { listQuery, picklistParam, idFilterParam } from './common';

export const listDeploymentsQuery = /* @__PURE__ */ (() =>
  listQuery(['created_at'] as const, {
    project_id: v.optional(idFilterParam('project', "Only this project's deployments.")),
    environment: v.optional(picklistParam(environments, 'Only deployments to this environment.')),
    status: v.optional(picklistParam(deploymentStatuses, 'Only deployments in this status.')),
  }))();
