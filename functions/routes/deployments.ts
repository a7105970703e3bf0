import { idParams } from './schemas/common';
import { createDeploymentBody } from './schemas/deployments-bodies';
import { listDeploymentsQuery } from './schemas/deployments-queries';
import { deploymentSchema } from './schemas/deployments';
import { defineRoute, type ResponseSchemas } from './route';

const tag = 'Deployments';

export const createDeploymentRoute = /* @__PURE__ */ defineRoute({
  operationId: 'createDeployment',
  summary: 'Trigger a deployment',
  description:
    'Queues the deployment and starts its state machine: deploy through the provider, health checks until healthy or the deadline, then `completed`, or `failed` and (auto_rollback) back to the previous completed deployment. One deployment in progress per project and environment: a second answers 409.',
  tag,
  method: 'POST',
  path: '/v1/deployments',
  handler: 'deployments/create',
  scope: 'write:deployments',
  tableAccess: 'write',
  timeoutSeconds: 15,
  deploymentExecutions: true,
  body: createDeploymentBody,
  success: { status: 201, description: 'The new deployment, `queued`.' },
  errors: [409],
});

export const listDeploymentsRoute = /* @__PURE__ */ defineRoute({
  operationId: 'listDeployments',
  summary: 'List deployments',
  tag,
  method: 'GET',
  path: '/v1/deployments',
  handler: 'deployments/list',
  scope: 'read:deployments',
  tableAccess: 'read',
  query: listDeploymentsQuery,
  success: { status: 200, description: 'A page of deployments.', list: true },
});

export const getDeploymentRoute = /* @__PURE__ */ defineRoute({
  operationId: 'getDeployment',
  summary: 'Get a deployment',
  tag,
  method: 'GET',
  path: '/v1/deployments/{id}',
  handler: 'deployments/get',
  scope: 'read:deployments',
  tableAccess: 'read',
  params: idParams,
  success: { status: 200, description: 'The deployment with its health checks and rollback state.' },
  errors: [404],
});

export const rollbackDeploymentRoute = /* @__PURE__ */ defineRoute({
  operationId: 'rollbackDeployment',
  summary: 'Roll a deployment back',
  description:
    'The current completed deployment of its project and environment goes back to the previous completed one and becomes `rolled_back` (event `deployment.rollback`); `rollback.status` follows it. Not the current one, nothing to go back to, or another deployment in progress: 409.',
  tag,
  method: 'POST',
  path: '/v1/deployments/{id}/rollback',
  handler: 'deployments/rollback',
  scope: 'write:deployments',
  tableAccess: 'write',
  deploymentExecutions: true,
  params: idParams,
  success: { status: 202, description: 'The deployment, its `rollback` in progress.' },
  errors: [404, 409],
});

export const deploymentRoutes = [createDeploymentRoute, listDeploymentsRoute, getDeploymentRoute, rollbackDeploymentRoute];

/** The `data` of each operation's success response, for the OpenAPI document (`ResponseSchemas`). */
export const deploymentResponses = {
  createDeployment: deploymentSchema,
  listDeployments: deploymentSchema,
  getDeployment: deploymentSchema,
  rollbackDeployment: deploymentSchema,
} satisfies ResponseSchemas;
