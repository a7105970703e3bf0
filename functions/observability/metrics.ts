import { logger } from './logger';

const namespace = 'ProjectAutomationService';

/**
 * Counts one occurrence of `name` as a CloudWatch metric: the log line carries the Embedded
 * Metric Format block, so CloudWatch Logs turns it into a metric with no API call. Locally it is
 * a log line like any other.
 */
export const countMetric = (name: string, dimensions: Record<string, string>, context: Record<string, unknown> = {}): void => {
  logger.warn(`metric ${name}`, {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [{ Namespace: namespace, Dimensions: [Object.keys(dimensions)], Metrics: [{ Name: name, Unit: 'Count' }] }],
    },
    ...dimensions,
    [name]: 1,
    ...context,
  });
};
