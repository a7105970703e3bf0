import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { defaultMetricsNamespace, metricNames } from './metric-names';

/**
 * The service's metrics as CloudWatch embedded metric format: one JSON line on stdout per figure,
 * which CloudWatch turns into metrics with no API call. Written only in Lambda (or when
 * POWERTOOLS_METRICS_DISABLED=false): the local runtime and the tests print none.
 */
const enabled = (): boolean => {
  const disabled = process.env.POWERTOOLS_METRICS_DISABLED;
  return disabled !== undefined ? disabled.toLowerCase() !== 'true' : Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);
};

let instance: Metrics | undefined;

/** Built on the first figure written (never, where metrics are off), not at import: see `logger.ts`. */
const metrics = (): Metrics =>
  (instance ??= new Metrics({
    namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? defaultMetricsNamespace,
    serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'project-automation-service',
  }));

type Name = (typeof metricNames)[keyof typeof metricNames];
type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];

/** One figure with its own dimensions, written at once (a figure never waits for a flush that may not come). */
const emit = (name: Name, unit: Unit, value: number, dimensions: Record<string, string> = {}): void => {
  if (!enabled()) return;
  const single = metrics().singleMetric();
  single.addDimensions(dimensions);
  single.addMetric(name, unit, value);
};

export const statusClassOf = (status: number): string => `${Math.floor(status / 100)}xx`;

export const recordRequest = (route: string, status: number): void =>
  emit(metricNames.requests, MetricUnit.Count, 1, { route, status_class: statusClassOf(status) });

export const recordWebhookAttempt = (outcome: 'succeeded' | 'failed', firstAttemptLatencyMs?: number): void => {
  emit(metricNames.webhookAttempts, MetricUnit.Count, 1, { outcome });
  if (firstAttemptLatencyMs !== undefined)
    emit(metricNames.webhookFirstAttemptLatency, MetricUnit.Milliseconds, Math.max(0, firstAttemptLatencyMs));
};

export const recordWorkflowOutcome = (outcome: string, durationMs: number | null | undefined): void => {
  emit(metricNames.workflowOutcomes, MetricUnit.Count, 1, { outcome });
  if (typeof durationMs === 'number') emit(metricNames.workflowDuration, MetricUnit.Milliseconds, durationMs, { outcome });
};

export const recordDeploymentOutcome = (outcome: string, durationMs: number | null | undefined): void => {
  emit(metricNames.deploymentOutcomes, MetricUnit.Count, 1, { outcome });
  if (typeof durationMs === 'number') emit(metricNames.deploymentDuration, MetricUnit.Milliseconds, durationMs, { outcome });
};

/** A scan or a remediation, start to end. */
export const recordScanDuration = (job: 'scan' | 'remediate', durationMs: number): void =>
  emit(metricNames.scanDuration, MetricUnit.Milliseconds, durationMs, { job });

/** Workflow and deployment outcomes, told by the events that end them. */
export const recordEventOutcome = (event: { type: string; data: Record<string, unknown> }): void => {
  const duration = typeof event.data.duration_ms === 'number' ? event.data.duration_ms : undefined;
  const workflow = /^workflow\.(completed|failed|cancelled)$/.exec(event.type)?.[1];
  if (workflow) recordWorkflowOutcome(workflow, duration);
  const deployment = /^deployment\.(completed|failed|rollback)$/.exec(event.type)?.[1];
  if (deployment) recordDeploymentOutcome(deployment === 'rollback' ? 'rolled_back' : deployment, duration);
};

/** The shared rate limit let a request through because the table could not answer (`throttled` or `error`). */
export const recordRateLimitFailedOpen = (reason: 'throttled' | 'error'): void =>
  emit(metricNames.rateLimitFailedOpen, MetricUnit.Count, 1, { reason });
