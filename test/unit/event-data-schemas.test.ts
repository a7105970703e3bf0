import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { deploymentSnapshot } from '../../functions/core/deployments/snapshot';
import { eventCatalogue, type EventType, eventTypes } from '../../functions/core/events/event-types';
import { commentCreatedData, reviewCompletedData } from '../../functions/core/reviews/snapshots';
import type { Review, ReviewComment } from '../../functions/core/reviews/review';
import { newReview } from '../../functions/core/reviews/review-use-cases';
import type { Finding } from '../../functions/core/security/finding';
import type { Scan } from '../../functions/core/security/scan';
import { findingSnapshot, scanSnapshot } from '../../functions/core/security/snapshots';
import { suiteSnapshot } from '../../functions/core/testing/snapshots';
import type { TestSuite } from '../../functions/core/testing/test-records';
import { viewOfWebhook, type Webhook } from '../../functions/core/webhooks/webhook';
import {
  cancelRun,
  completeRun,
  completeStage,
  failRun,
  skipStage,
  startRun,
  startStage,
  type Transition,
} from '../../functions/core/workflows/transitions';
import { newWorkflow, type Workflow } from '../../functions/core/workflows/workflow';
import { buildOpenApiDocument } from '../../functions/openapi/build-document';
import { routes } from '../../functions/routes';
import { eventDataSchemas } from '../../functions/routes/schemas/event-data';
import { closed } from '../support/closed-schema';
import { deploymentRecord } from './fakes/deployment-fixtures';

type Json = Record<string, any>;

const document = buildOpenApiDocument(routes) as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(closed(document) as Json, 'openapi');

/** What is wrong with `data` as the data of an event of `type`, by the schema the document names for it (closed). */
const problemsOf = (type: EventType, data: unknown): string[] => {
  const ref = `openapi#/components/schemas/${eventDataSchemas[type].component}`;
  const validate = ajv.getSchema(ref);
  if (!validate) return [`no schema at ${ref}`];
  return validate(data) ? [] : (validate.errors ?? []).map((error) => `${type} ${error.instancePath || '/'} ${error.message ?? ''}`);
};

const now = '2026-11-21T10:00:00.000Z';
const later = '2026-11-21T10:00:05.000Z';
const projectId = 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G';

const eventsOf = (...transitions: Transition[]) => transitions.flatMap(({ events }) => events);

describe('the schema of each event type’s data', () => {
  it('is named under components/schemas, and GET /v1/events and GET /v1/event-types show it for that type', () => {
    const schemas = document.components.schemas as Json;
    const events = (schemas.Event as Json).oneOf as Json[];
    const listed = (document.paths['/v1/event-types'].get.responses['200'].content['application/json'].schema as Json).properties.data.items
      .oneOf as Json[];
    for (const type of eventTypes) {
      const { component } = eventDataSchemas[type];
      const ref = `#/components/schemas/${component}`;
      expect([type, schemas[component]?.type]).toEqual([type, 'object']);
      expect([type, events.find((event) => event.properties.type.const === type)?.properties.data]).toEqual([type, { $ref: ref }]);
      expect([type, listed.find((entry) => entry.properties.type.const === type)?.properties.example]).toEqual([type, { $ref: ref }]);
    }
    expect(document.paths['/v1/events/{id}'].get.responses['200'].content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/Event',
    });
  });

  it('is the resource’s own where the data is the resource as its GET shows it', () => {
    expect(eventDataSchemas['webhook.failed'].component).toBe('Webhook');
    expect(eventDataSchemas['review.comment.created'].component).toBe('ReviewComment');
    expect(document.paths['/v1/webhooks/{id}'].get.responses['200'].content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/Webhook',
    });
    expect(document.paths['/v1/reviews/{id}/comments'].get.responses['200'].content['application/json'].schema.properties.data).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/ReviewComment' },
    });
  });

  it.each(eventTypes.map((type) => [type]))('holds the catalogue’s example of %s: every field, none the service never sends', (type) => {
    expect(problemsOf(type, eventCatalogue[type].example)).toEqual([]);
  });

  it('refuses an example that drifts: a field it does not have, a required one missing, a null or a value it does not allow', () => {
    const example = eventCatalogue['webhook.failed'].example as Json;
    expect(problemsOf('webhook.failed', { ...example, descripton: example.description })).not.toEqual([]);
    const { failed_at: _failedAt, ...withoutFailedAt } = example;
    expect(problemsOf('webhook.failed', withoutFailedAt)).not.toEqual([]);
    expect(problemsOf('webhook.failed', { ...example, created_at: null })).not.toEqual([]);
    expect(problemsOf('webhook.failed', { ...example, status: 'paused' })).not.toEqual([]);
    expect(problemsOf('webhook.failed', { ...example, description: null })).toEqual([]);
  });
});

describe('the data the service builds for each event', () => {
  const workflow = newWorkflow({
    id: 'wf_01JD2Q9R7W3T0N8M4K6H5G2F1E',
    project_id: projectId,
    name: 'Add rate limiting',
    prompt: 'Add rate limiting',
    config: { ai_provider: 'bedrock', auto_deploy: false, branch: null, max_iterations: 2, review: true },
    now,
  });

  const workflowEvents = (from: Workflow) => {
    const started = startRun(from, now);
    const intake = startStage(started.workflow, 'intake', now);
    const intakeDone = completeStage(intake.workflow, 'intake', {}, later);
    const failed = failRun(intakeDone.workflow, { stage: 'build', message: 'build failed' }, later);
    const cancelled = cancelRun(intakeDone.workflow, later);
    let done = intakeDone.workflow;
    const finishing: Transition[] = [];
    for (const stage of ['build', 'verify', 'prove', 'package'] as const) {
      const running = startStage(done, stage, later);
      const completed = completeStage(running.workflow, stage, {}, later);
      finishing.push(completed);
      done = completed.workflow;
    }
    const skipped = skipStage(done, 'iterate', later);
    return eventsOf(started, intakeDone, failed, cancelled, ...finishing, skipped, completeRun(skipped.workflow, later));
  };

  it('for a workflow’s moves is what the schema of each type says', () => {
    const events = workflowEvents(workflow);
    expect(new Set(events.map(({ type }) => type))).toEqual(
      new Set(['workflow.started', 'workflow.stage.completed', 'workflow.failed', 'workflow.cancelled', 'workflow.completed']),
    );
    for (const { type, data } of events) expect(problemsOf(type, data)).toEqual([]);
  });

  it('for a workflow stored before reviews existed shows the review fields as GET does', () => {
    const { review: _review, ...oldConfig } = workflow.config;
    const { review: _none, ...oldOutputs } = workflow.outputs;
    const stored = { ...workflow, config: oldConfig, outputs: oldOutputs } as unknown as Workflow;
    const [started] = workflowEvents(stored);
    expect(started?.data).toMatchObject({ config: { review: true }, outputs: { review: null } });
    expect(problemsOf('workflow.started', started?.data)).toEqual([]);
  });

  const finding: Finding = {
    id: 'fnd_01JD2QB2G6H8J0K2M4N6P8R0S2',
    project_id: projectId,
    branch: 'main',
    scan_id: 'scan_01JD2QA1F5G7H9J1K3M5N7P9Q1',
    type: 'secrets',
    rule_id: 'secretlint/aws',
    severity: 'critical',
    title: 'AWS secret access key in source',
    description: 'An AWS secret access key.',
    location: { path: 'config/deploy.js', line: 12 },
    excerpt: "const key = '***';",
    details: { detector: 'secretlint' },
    fingerprint: '8d1f0c6b2e4a9f3d7c5b1a0e9f8d7c6b',
    first_seen_at: now,
    last_seen_at: now,
    status: 'open',
    resolution: null,
    resolved_at: null,
    remediation: null,
    reopened_at: null,
    reopen_reason: null,
    created_at: now,
    updated_at: now,
    revision: 1,
  };

  it('for a finding, stored now or before it could be reopened, is what the schema says', () => {
    expect(problemsOf('security.finding.created', findingSnapshot(finding))).toEqual([]);
    const { reopened_at: _at, reopen_reason: _reason, ...older } = finding;
    const data = findingSnapshot(older as Finding);
    expect(data).toMatchObject({ reopened_at: null, reopen_reason: null });
    expect(problemsOf('security.finding.reopened', data)).toEqual([]);
  });

  it('for a finding’s remediation, as it starts, fails and resolves the finding, is what the schema says', () => {
    const requested = {
      status: 'in_progress' as const,
      method: null,
      requested_at: later,
      completed_at: null,
      error: null,
      patch: null,
      pushed_branch: null,
    };
    const started = findingSnapshot({ ...finding, status: 'remediating', remediation: requested });
    expect(started).toMatchObject({ status: 'remediating', remediation: requested });
    expect(problemsOf('security.finding.remediation.started', started)).toEqual([]);
    const failed = { ...requested, status: 'failed' as const, method: 'ai' as const, completed_at: later, error: 'no change' };
    expect(problemsOf('security.finding.remediation.failed', findingSnapshot({ ...finding, remediation: failed }))).toEqual([]);
    const remediated = findingSnapshot({
      ...finding,
      status: 'resolved',
      resolution: 'remediated',
      resolved_at: later,
      remediation: {
        ...failed,
        status: 'completed',
        error: null,
        patch: { location: 'findings/remediation.patch', sha256: 'ab'.repeat(32), size: 10 },
        pushed_branch: `remediation/${finding.id}`,
      },
    });
    expect(problemsOf('security.finding.resolved', remediated)).toEqual([]);
    // A finding stored before remediations existed shows none, as GET does.
    const { remediation: _remediation, ...older } = finding;
    expect(findingSnapshot(older as Finding)).toMatchObject({ remediation: null });
    expect(problemsOf('security.finding.created', findingSnapshot(older as Finding))).toEqual([]);
  });

  it('for a test generation, completed or failed, is what the schema says; a suite under way is not an end', () => {
    const suite: TestSuite = {
      id: 'test_01JD2QE4J8K0M2N4P6R8S0T2V4',
      object: 'test_suite',
      project_id: projectId,
      branch: null,
      branch_used: 'main',
      commit: '3f9a1c2e7b4d5a6f8e9d0c1b2a3f4e5d6c7b8a9f',
      paths: null,
      framework: 'vitest',
      framework_detected: true,
      ai_provider: 'bedrock',
      instructions: null,
      status: 'completed',
      summary: 'Covers the cart.',
      files: [{ path: 'src/cart.test.ts', content: "import { it } from 'vitest';\n", cases: ['adds an item'] }],
      ai_usage: { input_tokens: 10, output_tokens: 20, provider: 'bedrock', model: 'model' },
      latest_run_id: null,
      error: null,
      created_at: now,
      updated_at: later,
      started_at: now,
      completed_at: later,
      revision: 3,
    };
    const completed = suiteSnapshot(suite);
    expect(completed).toMatchObject({ branch: 'main', files: [{ path: 'src/cart.test.ts', cases: ['adds an item'] }] });
    expect(problemsOf('test.generation.completed', completed)).toEqual([]);
    const failedEarly = suiteSnapshot({
      ...suite,
      status: 'failed',
      branch: 'develop',
      branch_used: null,
      commit: null,
      files: [],
      error: 'x',
    });
    expect(failedEarly).toMatchObject({ branch: 'develop' });
    expect(problemsOf('test.generation.completed', failedEarly)).toEqual([]);
    expect(problemsOf('test.generation.completed', suiteSnapshot({ ...suite, status: 'running' }))).not.toEqual([]);
  });

  it('for a scan, a deployment, a review, its comment and a webhook is what the schema of each says', () => {
    const scan: Scan = {
      id: 'scan_01JD2QA1F5G7H9J1K3M5N7P9Q1',
      project_id: projectId,
      branch: null,
      branch_scanned: null,
      commit: null,
      scan_types: ['sast', 'secrets'],
      status: 'running',
      summary: null,
      coverage: {},
      errors: [],
      created_at: now,
      updated_at: now,
      started_at: now,
      completed_at: null,
      duration_ms: null,
      revision: 2,
    };
    expect(problemsOf('security.scan.started', scanSnapshot(scan))).toEqual([]);
    expect(problemsOf('deployment.started', deploymentSnapshot(deploymentRecord({ status: 'in_progress', started_at: now })))).toEqual([]);
    const review: Review = {
      ...newReview({
        id: 'rev_01JD2QD4J8K0M2N4P6R8S0T2V4',
        project_id: projectId,
        workflow_id: null,
        base: 'main',
        head: 'feature',
        ai_provider: 'bedrock',
        instructions: null,
        now,
      }),
      status: 'failed',
      error: 'the AI provider did not answer',
      completed_at: later,
    };
    expect(problemsOf('review.completed', reviewCompletedData(review))).toEqual([]);
    const comment: ReviewComment = {
      id: 'rvc_01JD2QF6M0N2P4R6S8T0V2W4X6',
      review_id: review.id,
      project_id: projectId,
      path: 'src/app.ts',
      start_line: 40,
      line: 42,
      severity: 'high',
      category: 'security',
      source: 'ai',
      rule: null,
      body: 'Validate the input.',
      suggestion: { replacement: 'check(input);', patch: '--- a/src/app.ts\n+++ b/src/app.ts\n' },
      created_at: now,
    };
    expect(problemsOf('review.comment.created', commentCreatedData(comment))).toEqual([]);
    const webhook: Webhook = {
      id: 'wh_01JD2QG7N1P3R5S7T9V1W3X5Y7',
      url: 'https://hooks.example.com/service',
      events: ['*'],
      active: true,
      status: 'failed',
      description: null,
      created_at: now,
      updated_at: later,
      failed_at: later,
      secret: 'whsec_never_shown',
      previous_secret: null,
      previous_secret_expires_at: null,
    };
    expect(problemsOf('webhook.failed', { ...viewOfWebhook(webhook) })).toEqual([]);
  });
});
