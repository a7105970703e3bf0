/**
 * The service's own CloudWatch metrics (EMF, written by `metrics.ts`), named once: the functions
 * write them and the dashboard (`lib/operations/service-dashboard.ts`) reads them. The namespace is
 * the core stack's name (POWERTOOLS_METRICS_NAMESPACE, set on every function).
 */
export const defaultMetricsNamespace = 'ProjectAutomationService';

export const metricNames = {
  /** Dimensions route (operationId) and status_class (2xx, 4xx, 5xx). */
  requests: 'Requests',
  /** Dimension outcome: succeeded, failed (the target answered an error or nothing). */
  webhookAttempts: 'WebhookAttempts',
  /** From the event's creation to the first attempt of its delivery, ms. */
  webhookFirstAttemptLatency: 'WebhookFirstAttemptLatency',
  /** Dimension outcome: completed, failed, cancelled. */
  workflowOutcomes: 'WorkflowOutcomes',
  workflowDuration: 'WorkflowDuration',
  /** Dimension outcome: completed, failed, rolled_back. */
  deploymentOutcomes: 'DeploymentOutcomes',
  deploymentDuration: 'DeploymentDuration',
  /** A security job start to end, ms; dimension job: scan, remediate. */
  scanDuration: 'ScanDuration',
} as const;
