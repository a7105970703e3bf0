import { idParams } from './schemas/common';
import { createWorkflowBody } from './schemas/workflows-bodies';
import { listLogsQuery, listWorkflowsQuery } from './schemas/workflows-queries';
import { logEntrySchema, workflowSchema } from './schemas/workflows';
import { defineRoute, type ResponseSchemas } from './route';

const tag = 'Workflows';

export const createWorkflowRoute = /* @__PURE__ */ defineRoute({
  operationId: 'createWorkflow',
  summary: 'Create and start a workflow',
  description:
    'Queues the workflow and starts its state machine: intake, build, verify, prove, iterate, package. `project_id` must name a project of your account and mode and `config.ai_provider` a provider this deployment configured (else 422).',
  tag,
  method: 'POST',
  path: '/v1/workflows',
  handler: 'workflows/create',
  scope: 'write:workflows',
  tableAccess: 'write',
  workflowExecutions: 'start',
  body: createWorkflowBody,
  success: { status: 201, description: 'The new workflow, `queued`.' },
});

export const listWorkflowsRoute = /* @__PURE__ */ defineRoute({
  operationId: 'listWorkflows',
  summary: 'List workflows',
  tag,
  method: 'GET',
  path: '/v1/workflows',
  handler: 'workflows/list',
  scope: 'read:workflows',
  tableAccess: 'read',
  query: listWorkflowsQuery,
  success: { status: 200, description: 'A page of workflows.', list: true },
});

export const getWorkflowRoute = /* @__PURE__ */ defineRoute({
  operationId: 'getWorkflow',
  summary: 'Get a workflow',
  tag,
  method: 'GET',
  path: '/v1/workflows/{id}',
  handler: 'workflows/get',
  scope: 'read:workflows',
  tableAccess: 'read',
  params: idParams,
  success: { status: 200, description: 'The workflow with its stage statuses, outputs, usage and error.' },
  errors: [404],
});

export const listWorkflowLogsRoute = /* @__PURE__ */ defineRoute({
  operationId: 'listWorkflowLogs',
  summary: "Read a workflow's logs",
  description: 'Oldest first by default (`order=desc` for newest first); readable while the workflow runs.',
  tag,
  method: 'GET',
  path: '/v1/workflows/{id}/logs',
  handler: 'workflows/logs',
  scope: 'read:workflows',
  tableAccess: 'read',
  params: idParams,
  query: listLogsQuery,
  success: { status: 200, description: 'A page of log entries.', list: true },
  errors: [404],
});

export const cancelWorkflowRoute = /* @__PURE__ */ defineRoute({
  operationId: 'cancelWorkflow',
  summary: 'Cancel a workflow',
  description:
    'Stops the execution; the running and pending stages become `cancelled` (event `workflow.cancelled`). A finished workflow answers 409.',
  tag,
  method: 'POST',
  path: '/v1/workflows/{id}/cancel',
  handler: 'workflows/cancel',
  scope: 'write:workflows',
  tableAccess: 'write',
  workflowExecutions: 'stop',
  params: idParams,
  success: { status: 202, description: 'The workflow, `cancelled`.' },
  errors: [404, 409],
});

export const workflowRoutes = [createWorkflowRoute, listWorkflowsRoute, getWorkflowRoute, listWorkflowLogsRoute, cancelWorkflowRoute];

/** The `data` of each operation's success response, for the OpenAPI document (`ResponseSchemas`). */
export const workflowResponses = {
  createWorkflow: workflowSchema,
  listWorkflows: workflowSchema,
  getWorkflow: workflowSchema,
  listWorkflowLogs: logEntrySchema,
  cancelWorkflow: workflowSchema,
} satisfies ResponseSchemas;
