import * as v from 'valibot';
import type { EventType } from '../../core/events/event-types';
import { stageNames } from '../../core/workflows/stage-data';
import { deploymentSchema } from './deployments';
import { droppedComments, reviewCommentSchema, reviewSchema, severityCounts } from './reviews';
import { findingSchema, scanSchema } from './security';
import { testRunSchema, testSuiteSchema, testTotals } from './testing';
import { webhookSchema } from './webhooks';
import { workflowSchema } from './workflows';

// The `data` of each event type. Where it is a resource as its GET shows it (a webhook, a review
// comment) it is that resource's schema; a lighter snapshot takes its fields from the resource's
// schema, so nullability and enums are said once. The OpenAPI document names each under
// `components/schemas`, and the SDK's event types are these.

const workflowEntries = workflowSchema.entries;
const scanEntries = scanSchema.entries;
const findingEntries = findingSchema.entries;
const deploymentEntries = deploymentSchema.entries;
const suiteEntries = testSuiteSchema.entries;
const runEntries = testRunSchema.entries;
const reviewEntries = reviewSchema.entries;

export const workflowEventData = v.pipe(
  v.object({
    id: workflowEntries.id,
    project_id: workflowEntries.project_id,
    name: workflowEntries.name,
    status: workflowEntries.status,
    stages: workflowEntries.stages,
    stage_statuses: workflowEntries.stage_statuses,
    config: workflowEntries.config,
    outputs: workflowEntries.outputs,
    error: workflowEntries.error,
    created_at: workflowEntries.created_at,
    started_at: workflowEntries.started_at,
    completed_at: workflowEntries.completed_at,
    duration_ms: workflowEntries.duration_ms,
  }),
  v.description(
    'The workflow after the change, as `GET /v1/workflows/{id}` shows it without `prompt`, `stage_timings`, `ai_usage` and `updated_at`.',
  ),
);

export const workflowStageCompletedEventData = v.pipe(
  v.object({
    workflow_id: workflowEntries.id,
    stage: v.picklist(stageNames),
    status: v.pipe(
      v.picklist(['completed', 'skipped']),
      v.description('`skipped`: the stage had nothing to do (iterate after a passing verify).'),
    ),
    duration_ms: v.pipe(v.number(), v.description('0 for a skipped stage.')),
  }),
  v.description('A stage of a workflow that finished.'),
);

export const workflowCompletedEventData = v.pipe(
  v.object({
    workflow_id: workflowEntries.id,
    project_id: workflowEntries.project_id,
    status: v.literal('completed'),
    duration_ms: v.number(),
    stages: workflowEntries.stage_statuses,
    outputs: v.object({
      docker_image: workflowEntries.outputs.entries.docker_image,
      deployment_url: workflowEntries.outputs.entries.deployment_url,
    }),
  }),
  v.description("The spec's shape: the workflow's stages and the outputs that exist (null otherwise)."),
);

export const scanEventData = v.pipe(
  v.object({
    id: scanEntries.id,
    project_id: scanEntries.project_id,
    status: scanEntries.status,
    scan_types: scanEntries.scan_types,
    branch: v.pipe(
      v.nullable(v.string()),
      v.description('The branch scanned; before the scan resolves it, the branch asked (null: the default).'),
    ),
    commit: scanEntries.commit,
    summary: scanEntries.summary,
    errors: scanEntries.errors,
    created_at: scanEntries.created_at,
    started_at: scanEntries.started_at,
    completed_at: scanEntries.completed_at,
    duration_ms: scanEntries.duration_ms,
  }),
  v.description(
    'The scan after the change, as `GET /v1/security/scans/{id}` shows it without `coverage` and `updated_at`, `branch` being the branch scanned.',
  ),
);

export const findingEventData = v.pipe(
  v.object({
    id: findingEntries.id,
    scan_id: findingEntries.scan_id,
    project_id: findingEntries.project_id,
    branch: findingEntries.branch,
    type: findingEntries.type,
    rule_id: findingEntries.rule_id,
    severity: findingEntries.severity,
    status: findingEntries.status,
    resolution: findingEntries.resolution,
    remediation: v.pipe(
      findingEntries.remediation,
      v.description('The latest remediation (null: never asked): how it went, or that it is under way.'),
    ),
    title: findingEntries.title,
    location: findingEntries.location,
    fingerprint: findingEntries.fingerprint,
    first_seen_at: findingEntries.first_seen_at,
    last_seen_at: findingEntries.last_seen_at,
    reopened_at: findingEntries.reopened_at,
    reopen_reason: findingEntries.reopen_reason,
    created_at: findingEntries.created_at,
  }),
  v.description(
    'The finding after the change, as `GET /v1/security/findings/{id}` shows it without `description`, `excerpt`, `details`, `resolved_at` and `updated_at`.',
  ),
);

export const deploymentEventData = v.pipe(
  v.object({
    id: deploymentEntries.id,
    project_id: deploymentEntries.project_id,
    environment: deploymentEntries.environment,
    provider: deploymentEntries.provider,
    branch: deploymentEntries.branch,
    status: deploymentEntries.status,
    url: deploymentEntries.url,
    version: deploymentEntries.version,
    artifact: v.pipe(v.nullable(v.object({ workflow_id: v.string() })), v.description('The workflow whose bundle was deployed.')),
    rolled_back_from: deploymentEntries.rolled_back_from,
    rolled_back_to: deploymentEntries.rolled_back_to,
    rollback: v.pipe(
      deploymentEntries.rollback,
      v.description('How a rollback went: what `deployment.rollback` announces, completed or failed.'),
    ),
    error: deploymentEntries.error,
    created_at: deploymentEntries.created_at,
    started_at: deploymentEntries.started_at,
    completed_at: deploymentEntries.completed_at,
    duration_ms: deploymentEntries.duration_ms,
  }),
  v.description(
    'The deployment after the change, as `GET /v1/deployments/{id}` shows it without `auto_rollback`, `config`, `health_checks`, `health_deadline_at` and `updated_at`, its `artifact` without the bundle.',
  ),
);

export const testGenerationEventData = v.pipe(
  v.object({
    id: suiteEntries.id,
    project_id: suiteEntries.project_id,
    status: v.pipe(v.picklist(['completed', 'failed']), v.description('`failed`: `error` says why.')),
    branch: v.pipe(
      v.nullable(v.string()),
      v.description('The branch the tests were written from; for a failed generation, the branch asked (null: the default).'),
    ),
    commit: suiteEntries.commit,
    framework: suiteEntries.framework,
    files: v.pipe(
      v.array(v.object({ cases: v.array(v.string()), path: v.string() })),
      v.description('Each generated file and the test cases it declares (empty when it failed); `GET /v1/tests/{id}` shows their content.'),
    ),
    error: suiteEntries.error,
    completed_at: suiteEntries.completed_at,
  }),
  v.description('The test generation (suite) that finished; `POST /v1/tests/run` with its `id` runs a completed one.'),
);

export const testRunEventData = v.pipe(
  v.object({
    id: runEntries.id,
    project_id: runEntries.project_id,
    suite_id: runEntries.suite_id,
    status: runEntries.status,
    framework: runEntries.framework,
    totals: v.pipe(v.nullable(testTotals), v.description("The run's `results.totals`; null when it gave no results.")),
    duration_ms: v.pipe(v.nullable(v.number()), v.description("The run's `results.duration_ms`; null when it gave no results.")),
    error: runEntries.error,
    completed_at: runEntries.completed_at,
  }),
  v.description('The test run that finished (`GET /v1/tests/{id}` shows it whole, with every case).'),
);

export const reviewCompletedEventData = v.pipe(
  v.object({
    review_id: reviewEntries.id,
    project_id: reviewEntries.project_id,
    workflow_id: reviewEntries.workflow_id,
    status: v.pipe(v.picklist(['completed', 'failed']), v.description('`failed`: `error` says why.')),
    verdict: reviewEntries.verdict,
    comments: v.number(),
    by_severity: severityCounts,
    dropped_comments: droppedComments,
    head_commit: reviewEntries.head_commit,
    merge_base: reviewEntries.merge_base,
    error: reviewEntries.error,
    duration_ms: v.number(),
  }),
  v.description("A review that finished: its verdict and its comments' counts (`GET /v1/reviews/{id}` shows it whole)."),
);

/** The schema of each event type's `data`, and the name the OpenAPI document gives it under `components/schemas`. */
export const eventDataSchemas = {
  'workflow.created': { component: 'WorkflowEventData', schema: workflowEventData },
  'workflow.started': { component: 'WorkflowEventData', schema: workflowEventData },
  'workflow.stage.completed': { component: 'WorkflowStageCompletedEventData', schema: workflowStageCompletedEventData },
  'workflow.completed': { component: 'WorkflowCompletedEventData', schema: workflowCompletedEventData },
  'workflow.failed': { component: 'WorkflowEventData', schema: workflowEventData },
  'workflow.cancelled': { component: 'WorkflowEventData', schema: workflowEventData },
  'security.scan.started': { component: 'ScanEventData', schema: scanEventData },
  'security.scan.completed': { component: 'ScanEventData', schema: scanEventData },
  'security.finding.created': { component: 'FindingEventData', schema: findingEventData },
  'security.finding.resolved': { component: 'FindingEventData', schema: findingEventData },
  'security.finding.reopened': { component: 'FindingEventData', schema: findingEventData },
  'security.finding.remediation.started': { component: 'FindingEventData', schema: findingEventData },
  'security.finding.remediation.failed': { component: 'FindingEventData', schema: findingEventData },
  'deployment.started': { component: 'DeploymentEventData', schema: deploymentEventData },
  'deployment.completed': { component: 'DeploymentEventData', schema: deploymentEventData },
  'deployment.failed': { component: 'DeploymentEventData', schema: deploymentEventData },
  'deployment.rollback': { component: 'DeploymentEventData', schema: deploymentEventData },
  'test.generation.completed': { component: 'TestGenerationEventData', schema: testGenerationEventData },
  'test.run.completed': { component: 'TestRunEventData', schema: testRunEventData },
  'review.comment.created': { component: 'ReviewComment', schema: reviewCommentSchema },
  'review.completed': { component: 'ReviewCompletedEventData', schema: reviewCompletedEventData },
  'webhook.failed': { component: 'Webhook', schema: webhookSchema },
  'webhook.enabled': { component: 'Webhook', schema: webhookSchema },
} as const satisfies Record<EventType, { component: string; schema: v.GenericSchema }>;
