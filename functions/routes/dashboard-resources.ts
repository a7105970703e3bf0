import { defineWebRoute, type WebRouteDefinition } from './route';
import { testRouteTimeoutSeconds } from './webhooks';

/**
 * The dashboard's resource pages (kind `page`): the account's projects, workflows, findings,
 * deployments, tests, webhooks, keys and people, through the same use cases as the API. Every
 * page touches its session (last use): a page read (GET) writes nothing else, so it gets
 * `session`; an action (POST) gets `write`.
 */
const pagesOf =
  (domain: string) =>
  (route: Omit<WebRouteDefinition, 'kind' | 'domain' | 'tableAccess'> & Partial<Pick<WebRouteDefinition, 'tableAccess'>>) =>
    defineWebRoute({ kind: 'page', domain, tableAccess: route.method === 'GET' ? 'session' : 'write', ...route });

/** Three stacks of pages beside `Dashboard` (sign-in and account security), each well inside 300 resources. */
const settingsRow = pagesOf('DashboardSettings');
const resourceRow = pagesOf('DashboardResources');
const webhookRow = pagesOf('DashboardWebhooks');

export const switchModeRoute = settingsRow({
  operationId: 'dashboardSwitchMode',
  summary: 'The Test mode switch',
  method: 'POST',
  path: '/dashboard/mode',
  handler: 'dashboard/mode',
});

// Developers → API keys
export const apiKeysRoute = settingsRow({
  operationId: 'dashboardApiKeys',
  summary: 'API keys and personal access tokens',
  method: 'GET',
  path: '/dashboard/developers/api-keys',
  handler: 'dashboard/developers/api-keys',
});
export const createApiKeyRoute = settingsRow({
  operationId: 'dashboardCreateApiKey',
  summary: 'Create a key (its value shown once)',
  method: 'POST',
  path: '/dashboard/developers/api-keys',
  handler: 'dashboard/developers/api-keys-create',
});
export const revokeApiKeyRoute = settingsRow({
  operationId: 'dashboardRevokeApiKey',
  summary: 'Revoke a key',
  method: 'POST',
  path: '/dashboard/developers/api-keys/{id}/revoke',
  handler: 'dashboard/developers/api-keys-revoke',
});
export const rollApiKeyRoute = settingsRow({
  operationId: 'dashboardRollApiKey',
  summary: 'Roll a key: a new value, the old one expiring after an overlap',
  method: 'POST',
  path: '/dashboard/developers/api-keys/{id}/roll',
  handler: 'dashboard/developers/api-keys-roll',
});
export const requestsRoute = settingsRow({
  operationId: 'dashboardRequests',
  summary: "The account's recent API requests, from the API's own log",
  method: 'GET',
  path: '/dashboard/developers/requests',
  handler: 'dashboard/developers/requests',
  readsRequestLog: true,
  timeoutSeconds: 15,
});

// Projects
export const projectsRoute = resourceRow({
  operationId: 'dashboardProjects',
  summary: 'Projects: sort, filter, pages',
  method: 'GET',
  path: '/dashboard/projects',
  handler: 'dashboard/projects/list',
});
export const createProjectPageRoute = resourceRow({
  operationId: 'dashboardCreateProject',
  summary: 'Create a project',
  method: 'POST',
  path: '/dashboard/projects',
  handler: 'dashboard/projects/create',
});
export const projectPageRoute = resourceRow({
  operationId: 'dashboardProject',
  summary: 'A project with its workflows, scans, findings and deployments',
  method: 'GET',
  path: '/dashboard/projects/{id}',
  handler: 'dashboard/projects/show',
});
export const updateProjectPageRoute = resourceRow({
  operationId: 'dashboardUpdateProject',
  summary: 'Edit a project',
  method: 'POST',
  path: '/dashboard/projects/{id}',
  handler: 'dashboard/projects/update',
});
export const deleteProjectPageRoute = resourceRow({
  operationId: 'dashboardDeleteProject',
  summary: 'Delete a project',
  method: 'POST',
  path: '/dashboard/projects/{id}/delete',
  handler: 'dashboard/projects/delete',
});

// Workflows
export const workflowsRoute = resourceRow({
  operationId: 'dashboardWorkflows',
  summary: 'Workflows, filtered by status and project',
  method: 'GET',
  path: '/dashboard/workflows',
  handler: 'dashboard/workflows/list',
});
export const workflowPageRoute = resourceRow({
  operationId: 'dashboardWorkflow',
  summary: 'A workflow: stages updating live, logs',
  method: 'GET',
  path: '/dashboard/workflows/{id}',
  handler: 'dashboard/workflows/show',
});
export const cancelWorkflowPageRoute = resourceRow({
  operationId: 'dashboardCancelWorkflow',
  summary: 'Cancel a workflow (after a confirmation)',
  method: 'POST',
  path: '/dashboard/workflows/{id}/cancel',
  handler: 'dashboard/workflows/cancel',
  workflowExecutions: 'stop',
});

// Security
export const securityRoute = resourceRow({
  operationId: 'dashboardSecurity',
  summary: 'Findings (filtered) and the latest scans',
  method: 'GET',
  path: '/dashboard/security',
  handler: 'dashboard/security/list',
});
export const scanPageRoute = resourceRow({
  operationId: 'dashboardScan',
  summary: 'A scan with its coverage',
  method: 'GET',
  path: '/dashboard/security/scans/{id}',
  handler: 'dashboard/security/scan',
});
export const findingPageRoute = resourceRow({
  operationId: 'dashboardFinding',
  summary: 'A finding: masked excerpt, remediation and patch',
  method: 'GET',
  path: '/dashboard/security/findings/{id}',
  handler: 'dashboard/security/finding',
  readsFindingPatches: true,
});
export const findingPatchPageRoute = resourceRow({
  operationId: 'dashboardFindingPatch',
  summary: "A finding's remediation patch as text/x-diff",
  method: 'GET',
  path: '/dashboard/security/findings/{id}/patch',
  handler: 'dashboard/security/finding-patch',
  readsFindingPatches: true,
});
export const remediatePageRoute = resourceRow({
  operationId: 'dashboardRemediateFinding',
  summary: 'Remediate a finding',
  method: 'POST',
  path: '/dashboard/security/findings/{id}/remediate',
  handler: 'dashboard/security/remediate',
  startsSecurityJobs: true,
});

// Deployments
export const deploymentsRoute = resourceRow({
  operationId: 'dashboardDeployments',
  summary: 'Deployments, filtered by status, environment and project',
  method: 'GET',
  path: '/dashboard/deployments',
  handler: 'dashboard/deployments/list',
});
export const deploymentPageRoute = resourceRow({
  operationId: 'dashboardDeployment',
  summary: 'A deployment: status, health checks, URL, version',
  method: 'GET',
  path: '/dashboard/deployments/{id}',
  handler: 'dashboard/deployments/show',
});
export const rollbackPageRoute = resourceRow({
  operationId: 'dashboardRollbackDeployment',
  summary: 'Roll a deployment back (after a confirmation)',
  method: 'POST',
  path: '/dashboard/deployments/{id}/rollback',
  handler: 'dashboard/deployments/rollback',
  deploymentExecutions: true,
});

// Tests
export const testsRoute = resourceRow({
  operationId: 'dashboardTests',
  summary: 'Latest generated suites and test runs',
  method: 'GET',
  path: '/dashboard/tests',
  handler: 'dashboard/tests/list',
});
export const testPageRoute = resourceRow({
  operationId: 'dashboardTest',
  summary: 'A suite with its generated files, or a run with totals and failing cases',
  method: 'GET',
  path: '/dashboard/tests/{id}',
  handler: 'dashboard/tests/show',
});

// Developers → Applications and Authorized applications
export const applicationsRoute = settingsRow({
  operationId: 'dashboardApplications',
  summary: "The account's OAuth applications",
  method: 'GET',
  path: '/dashboard/developers/applications',
  handler: 'dashboard/developers/applications',
});
export const createApplicationRoute = settingsRow({
  operationId: 'dashboardCreateApplication',
  summary: 'Register an OAuth application (its secret shown once)',
  method: 'POST',
  path: '/dashboard/developers/applications',
  handler: 'dashboard/developers/applications-create',
});
export const applicationPageRoute = settingsRow({
  operationId: 'dashboardApplication',
  summary: 'An OAuth application and the form that edits it',
  method: 'GET',
  path: '/dashboard/developers/applications/{id}',
  handler: 'dashboard/developers/application',
});
export const updateApplicationRoute = settingsRow({
  operationId: 'dashboardUpdateApplication',
  summary: "Edit an OAuth application's name and redirect URIs",
  method: 'POST',
  path: '/dashboard/developers/applications/{id}',
  handler: 'dashboard/developers/applications-update',
});
export const rotateApplicationSecretRoute = settingsRow({
  operationId: 'dashboardRotateApplicationSecret',
  summary: "Rotate an application's client secret (shown once)",
  method: 'POST',
  path: '/dashboard/developers/applications/{id}/rotate-secret',
  handler: 'dashboard/developers/applications-rotate-secret',
});
export const deleteApplicationRoute = settingsRow({
  operationId: 'dashboardDeleteApplication',
  summary: 'Delete an OAuth application',
  method: 'POST',
  path: '/dashboard/developers/applications/{id}/delete',
  handler: 'dashboard/developers/applications-delete',
});
export const authorizedApplicationsRoute = settingsRow({
  operationId: 'dashboardAuthorizedApplications',
  summary: 'Applications this account authorized',
  method: 'GET',
  path: '/dashboard/developers/authorized-applications',
  handler: 'dashboard/developers/authorized-applications',
});
export const revokeAuthorizedApplicationRoute = settingsRow({
  operationId: 'dashboardRevokeAuthorizedApplication',
  summary: 'Revoke an authorization (a grant and all its tokens)',
  method: 'POST',
  path: '/dashboard/developers/authorized-applications/{id}/revoke',
  handler: 'dashboard/developers/authorized-applications-revoke',
});

// Settings → Team, Audit log
export const teamRoute = settingsRow({
  operationId: 'dashboardTeam',
  summary: 'Members of the account and their roles',
  method: 'GET',
  path: '/dashboard/team',
  handler: 'dashboard/settings/team',
});
export const inviteMemberRoute = settingsRow({
  operationId: 'dashboardInviteMember',
  summary: 'Invite someone by e-mail',
  method: 'POST',
  path: '/dashboard/team',
  handler: 'dashboard/settings/team-invite',
  sendsEmail: true,
});
export const removeMemberRoute = settingsRow({
  operationId: 'dashboardRemoveMember',
  summary: 'Remove a member',
  method: 'POST',
  path: '/dashboard/team/{id}/remove',
  handler: 'dashboard/settings/team-remove',
});
export const cancelInvitationRoute = settingsRow({
  operationId: 'dashboardCancelInvitation',
  summary: 'Cancel an invitation waiting for its answer',
  method: 'POST',
  path: '/dashboard/team/invitations/{id}/cancel',
  handler: 'dashboard/settings/team-cancel-invitation',
});
export const auditLogRoute = settingsRow({
  operationId: 'dashboardAuditLog',
  summary: "The account's audit log (admins)",
  method: 'GET',
  path: '/dashboard/audit-log',
  handler: 'dashboard/settings/audit-log',
});

// Webhooks
export const webhooksRoute = webhookRow({
  operationId: 'dashboardWebhooks',
  summary: 'Webhook endpoints, failed ones first to the eye',
  method: 'GET',
  path: '/dashboard/webhooks',
  handler: 'dashboard/webhooks/list',
});
export const createWebhookPageRoute = webhookRow({
  operationId: 'dashboardCreateWebhook',
  summary: 'Add a webhook endpoint (its secret shown once)',
  method: 'POST',
  path: '/dashboard/webhooks',
  handler: 'dashboard/webhooks/create',
});
export const webhookPageRoute = webhookRow({
  operationId: 'dashboardWebhook',
  summary: 'A webhook endpoint with its delivery log and attempts',
  method: 'GET',
  path: '/dashboard/webhooks/{id}',
  handler: 'dashboard/webhooks/show',
});
export const updateWebhookPageRoute = webhookRow({
  operationId: 'dashboardUpdateWebhook',
  summary: 'Edit a webhook endpoint',
  method: 'POST',
  path: '/dashboard/webhooks/{id}',
  handler: 'dashboard/webhooks/update',
});
export const reEnableWebhookRoute = webhookRow({
  operationId: 'dashboardReEnableWebhook',
  summary: 'Re-enable a failed webhook',
  method: 'POST',
  path: '/dashboard/webhooks/{id}/re-enable',
  handler: 'dashboard/webhooks/re-enable',
});
export const deleteWebhookPageRoute = webhookRow({
  operationId: 'dashboardDeleteWebhook',
  summary: 'Delete a webhook endpoint',
  method: 'POST',
  path: '/dashboard/webhooks/{id}/delete',
  handler: 'dashboard/webhooks/delete',
});
export const rotateWebhookSecretPageRoute = webhookRow({
  operationId: 'dashboardRotateWebhookSecret',
  summary: 'Rotate the signing secret (shown once)',
  method: 'POST',
  path: '/dashboard/webhooks/{id}/rotate-secret',
  handler: 'dashboard/webhooks/rotate-secret',
});
export const testWebhookPageRoute = webhookRow({
  operationId: 'dashboardTestWebhook',
  summary: 'Send a test event',
  method: 'POST',
  path: '/dashboard/webhooks/{id}/test',
  handler: 'dashboard/webhooks/test-event',
  timeoutSeconds: testRouteTimeoutSeconds,
});
export const redeliverPageRoute = webhookRow({
  operationId: 'dashboardRedeliverWebhookDelivery',
  summary: 'Deliver a delivery again',
  method: 'POST',
  path: '/dashboard/webhooks/{id}/deliveries/{delivery_id}/redeliver',
  handler: 'dashboard/webhooks/redeliver',
  sendsDeliveries: true,
});
export const recoverWebhookPageRoute = webhookRow({
  operationId: 'dashboardRecoverWebhookDeliveries',
  summary: 'Queue again what a webhook missed since a time',
  method: 'POST',
  path: '/dashboard/webhooks/{id}/recover',
  handler: 'dashboard/webhooks/recover',
  timeoutSeconds: 29,
  sendsDeliveries: true,
});

export const dashboardResourceRoutes: WebRouteDefinition[] = [
  switchModeRoute,
  apiKeysRoute,
  createApiKeyRoute,
  revokeApiKeyRoute,
  rollApiKeyRoute,
  requestsRoute,
  projectsRoute,
  createProjectPageRoute,
  projectPageRoute,
  updateProjectPageRoute,
  deleteProjectPageRoute,
  workflowsRoute,
  workflowPageRoute,
  cancelWorkflowPageRoute,
  securityRoute,
  scanPageRoute,
  findingPageRoute,
  findingPatchPageRoute,
  remediatePageRoute,
  deploymentsRoute,
  deploymentPageRoute,
  rollbackPageRoute,
  testsRoute,
  testPageRoute,
  applicationsRoute,
  createApplicationRoute,
  applicationPageRoute,
  updateApplicationRoute,
  rotateApplicationSecretRoute,
  deleteApplicationRoute,
  authorizedApplicationsRoute,
  revokeAuthorizedApplicationRoute,
  teamRoute,
  inviteMemberRoute,
  removeMemberRoute,
  cancelInvitationRoute,
  auditLogRoute,
  webhooksRoute,
  createWebhookPageRoute,
  webhookPageRoute,
  updateWebhookPageRoute,
  reEnableWebhookRoute,
  deleteWebhookPageRoute,
  rotateWebhookSecretPageRoute,
  testWebhookPageRoute,
  redeliverPageRoute,
  recoverWebhookPageRoute,
];
