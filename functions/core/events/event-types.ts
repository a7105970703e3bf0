/** Every event type, in the catalogue's order (as `GET /v1/events/types` and the OpenAPI document list them). */
export const eventTypes = [
  'workflow.created',
  'workflow.started',
  'workflow.stage.completed',
  'workflow.completed',
  'workflow.failed',
  'workflow.cancelled',
  'security.scan.started',
  'security.scan.completed',
  'security.finding.created',
  'security.finding.resolved',
  'security.finding.reopened',
  'security.finding.remediation.started',
  'security.finding.remediation.failed',
  'deployment.started',
  'deployment.completed',
  'deployment.failed',
  'deployment.rollback',
  'test.generation.completed',
  'test.run.completed',
  'review.comment.created',
  'review.completed',
  'webhook.failed',
  'webhook.enabled',
] as const;

export type EventType = (typeof eventTypes)[number];

/**
 * The event catalogue: the spec's types plus `workflow.cancelled`, `security.finding.reopened`, the
 * remediation's start and failure (no state change without its event), `test.generation.completed`
 * and `test.run.completed`, the code review group, and a webhook's
 * moves out of and back into `enabled` (what Svix's operational webhooks tell). Each type's
 * `data` is a snapshot of the resource after the change; `workflow.completed` has exactly the
 * spec's shape.
 *
 * Built in one call marked pure: object spreads and property reads at a module's top level would
 * keep the catalogue in every bundle that imports this file, though most use only the type names.
 */
export const eventCatalogue = /* @__PURE__ */ (() => {
  const projectId = 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G';
  const stages = ['intake', 'build', 'verify', 'prove', 'iterate', 'package'];
  const noOutputs = {
    docker_image: null,
    deployment_url: null,
    repository: null,
    commit: null,
    branch: null,
    plan: null,
    diff: null,
    verification: null,
    provenance: null,
    bundle: null,
    pushed_branch: null,
    iterations: 0,
    deployment_id: null,
    review: null,
  };

  // Fields in the order the service builds them (workflowSnapshot and the others), which is the
  // order an event's data reads back in.
  const workflowSnapshot = {
    id: 'wf_01JD2Q9R7W3T0N8M4K6H5G2F1E',
    project_id: projectId,
    name: 'Add rate limiting',
    status: 'running',
    stages,
    stage_statuses: { intake: 'running', build: 'pending', verify: 'pending', prove: 'pending', iterate: 'pending', package: 'pending' },
    config: { ai_provider: 'bedrock', auto_deploy: false, branch: null, max_iterations: 2, review: true },
    outputs: noOutputs,
    error: null,
    created_at: '2026-11-21T10:00:00.000Z',
    started_at: '2026-11-21T10:00:01.204Z',
    completed_at: null,
    duration_ms: null,
  };

  const scanSnapshot = {
    id: 'scan_01JD2QA1F5G7H9J1K3M5N7P9Q1',
    project_id: projectId,
    status: 'completed',
    scan_types: ['sast', 'secrets', 'dependencies'],
    branch: 'main',
    commit: '3f9a1c2e7b4d5a6f8e9d0c1b2a3f4e5d6c7b8a9f',
    summary: {
      total: 1,
      by_severity: { critical: 1, high: 0, medium: 0, low: 0, info: 0 },
      by_type: {
        sast: { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
        secrets: { critical: 1, high: 0, medium: 0, low: 0, info: 0 },
        dependencies: { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
      },
      new_findings: 1,
      resolved_findings: 0,
    },
    errors: [],
    created_at: '2026-11-21T10:00:00.000Z',
    started_at: '2026-11-21T10:00:00.120Z',
    completed_at: '2026-11-21T10:00:02.480Z',
    duration_ms: 2360,
  };

  const findingSnapshot = {
    id: 'fnd_01JD2QB2G6H8J0K2M4N6P8R0S2',
    scan_id: scanSnapshot.id,
    project_id: projectId,
    branch: 'main',
    type: 'secrets',
    rule_id: 'secretlint/aws',
    severity: 'critical',
    status: 'open',
    resolution: null,
    remediation: null,
    title: 'AWS secret access key in source',
    location: { path: 'config/deploy.js', line: 12 },
    fingerprint: '8d1f0c6b2e4a9f3d7c5b1a0e9f8d7c6b',
    first_seen_at: '2026-11-21T10:00:02.310Z',
    last_seen_at: '2026-11-21T10:00:02.310Z',
    reopened_at: null,
    reopen_reason: null,
    created_at: '2026-11-21T10:00:02.310Z',
  };

  const remediationStarted = {
    status: 'in_progress',
    method: null,
    requested_at: '2026-11-21T11:00:00.000Z',
    completed_at: null,
    error: null,
    patch: null,
    pushed_branch: null,
  };

  const deploymentSnapshot = {
    id: 'dep_01JD2QC3H7J9K1M3N5P7R9S1T3',
    project_id: projectId,
    environment: 'production',
    provider: 'deploy-hook',
    branch: 'main',
    status: 'completed',
    url: 'https://shop.example.com',
    version: 'v42',
    artifact: { workflow_id: workflowSnapshot.id },
    rolled_back_from: null,
    rolled_back_to: null,
    rollback: null,
    error: null,
    created_at: '2026-11-21T10:00:00.000Z',
    started_at: '2026-11-21T10:00:00.410Z',
    completed_at: '2026-11-21T10:00:07.950Z',
    duration_ms: 7540,
  };
  const deploymentStarted = {
    ...deploymentSnapshot,
    status: 'in_progress',
    url: null,
    version: null,
    completed_at: null,
    duration_ms: null,
  };

  const webhookSnapshot = {
    id: 'wh_01JD2QG7N1P3R5S7T9V1W3X5Y7',
    url: 'https://hooks.example.com/service',
    events: ['workflow.completed', 'deployment.failed'],
    active: true,
    status: 'failed',
    description: 'Build notifications',
    created_at: '2026-11-20T09:00:00.000Z',
    updated_at: '2026-11-21T12:41:07.000Z',
    failed_at: '2026-11-21T12:41:07.000Z',
    previous_secret_expires_at: null,
  };

  return {
    'workflow.created': {
      description: 'A workflow was created and queued.',
      example: {
        ...workflowSnapshot,
        status: 'queued',
        stage_statuses: {
          intake: 'pending',
          build: 'pending',
          verify: 'pending',
          prove: 'pending',
          iterate: 'pending',
          package: 'pending',
        },
        started_at: null,
      },
    },
    'workflow.started': { description: 'A workflow began its first stage.', example: workflowSnapshot },
    'workflow.stage.completed': {
      description: 'A stage of a workflow finished.',
      example: { workflow_id: workflowSnapshot.id, stage: 'build', status: 'completed', duration_ms: 5231 },
    },
    'workflow.completed': {
      description: 'A workflow finished all its stages.',
      example: {
        workflow_id: workflowSnapshot.id,
        project_id: projectId,
        status: 'completed',
        duration_ms: 183_004,
        stages: {
          intake: 'completed',
          build: 'completed',
          verify: 'completed',
          prove: 'completed',
          iterate: 'skipped',
          package: 'completed',
        },
        outputs: { docker_image: null, deployment_url: null },
      },
    },
    'workflow.failed': {
      description: 'A workflow stopped at a failed stage; later stages were skipped.',
      example: {
        ...workflowSnapshot,
        status: 'failed',
        stage_statuses: {
          intake: 'completed',
          build: 'completed',
          verify: 'failed',
          prove: 'skipped',
          iterate: 'skipped',
          package: 'skipped',
        },
        outputs: { ...noOutputs, commit: '3f9a1c2e7b4d5a6f8e9d0c1b2a3f4e5d6c7b8a9f', branch: 'main' },
        error: { stage: 'verify', message: 'type check failed' },
        completed_at: '2026-11-21T10:02:13.400Z',
        duration_ms: 132_196,
      },
    },
    'workflow.cancelled': {
      description: 'A workflow was cancelled by a caller.',
      example: {
        ...workflowSnapshot,
        status: 'cancelled',
        stage_statuses: {
          intake: 'completed',
          build: 'cancelled',
          verify: 'cancelled',
          prove: 'cancelled',
          iterate: 'cancelled',
          package: 'cancelled',
        },
        outputs: { ...noOutputs, commit: '3f9a1c2e7b4d5a6f8e9d0c1b2a3f4e5d6c7b8a9f', branch: 'main' },
        completed_at: '2026-11-21T10:00:41.020Z',
        duration_ms: 39_816,
      },
    },
    'security.scan.started': {
      description: 'A security scan began.',
      example: { ...scanSnapshot, status: 'running', commit: null, summary: null, completed_at: null, duration_ms: null },
    },
    'security.scan.completed': { description: 'A security scan finished.', example: scanSnapshot },
    'security.finding.created': { description: 'A scan reported a new finding.', example: findingSnapshot },
    'security.finding.resolved': {
      description:
        'A finding was fixed (a later scan no longer finds it) or remediated (its remediation ended: `remediation` says how; no other event tells that end).',
      example: {
        ...findingSnapshot,
        status: 'resolved',
        resolution: 'remediated',
        remediation: {
          ...remediationStarted,
          status: 'completed',
          method: 'ai',
          completed_at: '2026-11-21T11:00:09.140Z',
          patch: {
            location: `s3://projectautomationservice-artifacts-1x2y3z4w5v6u/findings/acct_01JD2Q7A0B1C2D3E4F5G6H7J8K/live/${findingSnapshot.id}/remediation.patch`,
            sha256: '4b1e0c9d2f7a6e5b3c8d1f0a9e2b7c6d5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d',
            size: 412,
          },
          pushed_branch: `remediation/${findingSnapshot.id}`,
        },
      },
    },
    'security.finding.reopened': {
      description:
        'A scan still reports a resolved finding (it came back after it was fixed, or its remediation was never applied): it is open again.',
      example: {
        ...findingSnapshot,
        status: 'open',
        last_seen_at: '2026-11-22T10:15:00.000Z',
        reopened_at: '2026-11-22T10:15:00.000Z',
        reopen_reason: `scan ${scanSnapshot.id} of main at 3f9a1c2e7b4d still finds it: it came back after it was fixed`,
      },
    },
    'security.finding.remediation.started': {
      description: 'A remediation of an open finding began: the finding is `remediating`.',
      example: { ...findingSnapshot, status: 'remediating', remediation: remediationStarted },
    },
    'security.finding.remediation.failed': {
      description:
        'A remediation ended without removing the finding (no change was found, the scanner still reports it, or its job stopped): the finding is `open` again, `remediation.error` says why.',
      example: {
        ...findingSnapshot,
        remediation: {
          ...remediationStarted,
          status: 'failed',
          completed_at: '2026-11-21T11:00:06.820Z',
          error: 'the proposed patch was verified by re-running the secrets scanner, which still reports the finding',
        },
      },
    },
    'deployment.started': { description: 'A deployment began.', example: deploymentStarted },
    'deployment.completed': { description: 'A deployment finished and passed its health check.', example: deploymentSnapshot },
    'deployment.failed': {
      description: 'A deployment failed.',
      example: {
        ...deploymentSnapshot,
        status: 'failed',
        error: { step: 'health_check', message: 'no healthy answer from https://shop.example.com/health within 120 s' },
        completed_at: '2026-11-21T10:02:00.520Z',
        duration_ms: 120_110,
      },
    },
    'deployment.rollback': {
      description: 'A deployment was rolled back to the previous one.',
      example: {
        ...deploymentSnapshot,
        status: 'rolled_back',
        rolled_back_to: 'dep_01JD2Q7B2F6H8K0M2P4R6T8V0X',
        rollback: {
          status: 'completed',
          to: 'dep_01JD2Q7B2F6H8K0M2P4R6T8V0X',
          requested_at: '2026-11-21T11:30:00.000Z',
          completed_at: '2026-11-21T11:30:04.310Z',
          error: null,
          trigger: 'requested',
        },
      },
    },
    'test.generation.completed': {
      description: 'A test generation finished (`status` says whether it completed or failed; added: the spec has no test events).',
      example: {
        id: 'test_01JD2QE4J8K0M2N4P6R8S0T2V4',
        project_id: projectId,
        status: 'completed',
        branch: 'main',
        commit: '3f9a1c2e7b4d5a6f8e9d0c1b2a3f4e5d6c7b8a9f',
        framework: 'jest',
        // Objects in arrays read back with their fields in name order.
        files: [{ cases: ['adds an item', 'applies a discount'], path: 'src/cart.test.js' }],
        error: null,
        completed_at: '2026-11-21T10:00:04.120Z',
      },
    },
    'test.run.completed': {
      description: 'A test run finished (added: the spec has no test events).',
      example: {
        id: 'run_01JD2QE5K9M1N3P5R7S9T1V3W5',
        project_id: projectId,
        suite_id: 'test_01JD2QE4J8K0M2N4P6R8S0T2V4',
        status: 'completed',
        framework: 'jest',
        totals: { passed: 12, failed: 1, skipped: 2, errored: 0 },
        duration_ms: 4120,
        error: null,
        completed_at: '2026-11-21T10:00:05.300Z',
      },
    },
    'review.comment.created': {
      description: 'A code review left a comment (sent for each comment, before `review.completed`).',
      example: {
        id: 'rvc_01JD2QF6M0N2P4R6S8T0V2W4X6',
        review_id: 'rev_01JD2QD4J8K0M2N4P6R8S0T2V4',
        project_id: projectId,
        path: 'src/app.ts',
        start_line: null,
        line: 42,
        severity: 'high',
        category: 'security',
        source: 'analysis',
        rule: 'no-eval',
        body: '**eval() with a variable** (sast rule no-eval)\n\neval can run code an attacker sends.',
        suggestion: null,
        created_at: '2026-11-21T10:00:00.000Z',
      },
    },
    'review.completed': {
      description: 'A code review finished (`status` says whether it completed or failed).',
      example: {
        review_id: 'rev_01JD2QD4J8K0M2N4P6R8S0T2V4',
        project_id: projectId,
        workflow_id: null,
        status: 'completed',
        verdict: 'request_changes',
        comments: 3,
        by_severity: { critical: 0, high: 1, medium: 1, low: 1, info: 0 },
        dropped_comments: { outside_diff: 1, duplicate: 0, over_limit: 0 },
        head_commit: '9fceb02d0ae598e95dc970b74767f19372d61af8',
        merge_base: '1d3b5a7c9e1f3a5b7c9d1e3f5a7b9c1d3e5f7a9b',
        error: null,
        duration_ms: 8412,
      },
    },
    'webhook.failed': {
      description:
        'A delivery of a webhook exhausted its six attempts: the webhook is `failed` and gets no new deliveries (events meanwhile are recorded as skipped) until it is re-enabled. Sent to the other webhooks subscribed to it, never to the failed one.',
      example: webhookSnapshot,
    },
    'webhook.enabled': {
      description:
        'A failed webhook was re-enabled (`active: true`): new events are delivered to it again. Sent to the other webhooks subscribed to it, never to the re-enabled one.',
      example: { ...webhookSnapshot, status: 'enabled', updated_at: '2026-11-21T13:05:22.000Z', failed_at: null },
    },
  } as const satisfies Record<EventType, { description: string; example: Record<string, unknown> }>;
})();

export const isEventType = (value: string): value is EventType => (eventTypes as readonly string[]).includes(value);
