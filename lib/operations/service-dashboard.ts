import { Duration } from 'aws-cdk-lib';
import { Dashboard, GraphWidget, type IMetric, MathExpression, Metric, TextWidget } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { metricNames } from '../../functions/observability/metric-names';
import type { CoreStack } from '../core-stack';
import { apiLatencyMetric } from './alarms';

const period = Duration.minutes(5);

/** Every series of the service's namespace with these dimensions, one line each (a search, so new routes appear). */
const search = (namespace: string, dimensions: string[], metricName: string, statistic: string, label: string): IMetric =>
  new MathExpression({
    expression: `SEARCH('{${namespace},${['service', ...dimensions].join(',')}} MetricName="${metricName}"', '${statistic}', ${period.toSeconds()})`,
    label,
    period,
  });

/**
 * The operator's page: requests by route and status class, API errors and latency, webhook
 * attempts and their delay after the event, workflow and deployment outcomes and durations, scan
 * durations, the queues that should stay empty, the table, and the functions' errors and throttles.
 * The service's own figures are its EMF metrics (`functions/observability/metrics.ts`); the
 * functions are found by a search on the stack name, so no domain stack is referenced from here.
 */
export class ServiceDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, core: CoreStack) {
    super(scope, id);
    const namespace = core.stackName;
    const apiMetric = (metricName: string, statistic: string) =>
      new Metric({ namespace: 'AWS/ApiGateway', metricName, dimensionsMap: { ApiId: core.api.apiId }, statistic, period });
    const lambdaSearch = (metricName: string) =>
      new MathExpression({
        expression: `SEARCH('{AWS/Lambda,FunctionName} MetricName="${metricName}" "${core.stackName}-"', 'Sum', ${period.toSeconds()})`,
        label: metricName,
        period,
      });
    const queueDepth = (
      label: string,
      queue: { metricApproximateNumberOfMessagesVisible: CoreStack['executionFailures']['metricApproximateNumberOfMessagesVisible'] },
    ) => queue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum', label });
    const wide = { width: 12, height: 6 } as const;

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `${core.stackName}-service`,
      defaultInterval: Duration.hours(3),
      widgets: [
        [
          new TextWidget({
            markdown: `# ${core.stackName}\nAlarms notify the alarm topic (output AlarmTopicArn). Figures of the service: namespace \`${namespace}\`.`,
            width: 24,
            height: 2,
          }),
        ],
        [
          new GraphWidget({
            title: 'Requests by route and status class',
            left: [search(namespace, ['route', 'status_class'], metricNames.requests, 'Sum', '')],
            ...wide,
          }),
          new GraphWidget({
            title: 'API: requests, 4xx, 5xx; p99 latency (ms)',
            left: [apiMetric('Count', 'Sum'), apiMetric('4xx', 'Sum'), apiMetric('5xx', 'Sum')],
            right: [apiLatencyMetric(core.api.apiId)],
            ...wide,
          }),
        ],
        [
          new GraphWidget({
            title: 'Webhook attempts by outcome',
            left: [search(namespace, ['outcome'], metricNames.webhookAttempts, 'Sum', '')],
            ...wide,
          }),
          new GraphWidget({
            title: 'Event to first delivery attempt (ms): p50, p99',
            left: [
              search(namespace, [], metricNames.webhookFirstAttemptLatency, 'p50', 'p50'),
              search(namespace, [], metricNames.webhookFirstAttemptLatency, 'p99', 'p99'),
            ],
            ...wide,
          }),
        ],
        [
          new GraphWidget({
            title: 'Workflow and deployment outcomes',
            left: [
              search(namespace, ['outcome'], metricNames.workflowOutcomes, 'Sum', ''),
              search(namespace, ['outcome'], metricNames.deploymentOutcomes, 'Sum', ''),
            ],
            ...wide,
          }),
          new GraphWidget({
            title: 'Durations (ms, p50): workflows, deployments, scans',
            left: [
              search(namespace, ['outcome'], metricNames.workflowDuration, 'p50', ''),
              search(namespace, ['outcome'], metricNames.deploymentDuration, 'p50', ''),
              search(namespace, ['job'], metricNames.scanDuration, 'p50', ''),
            ],
            ...wide,
          }),
        ],
        [
          new GraphWidget({
            title: 'Queues that should stay empty (messages visible)',
            left: [
              queueDepth('webhook DLQ', core.deliveryQueues.deadLetterQueue),
              queueDepth('fan-out failures', core.deliveryQueues.fanOutFailures),
              queueDepth('safety net DLQ', core.executionFailures),
              queueDepth('security job failures', core.securityFailures),
              queueDepth('test job failures', core.testFailures),
            ],
            ...wide,
          }),
          new GraphWidget({
            title: 'Functions: errors and throttles',
            left: [lambdaSearch('Errors'), lambdaSearch('Throttles')],
            ...wide,
          }),
        ],
        [
          new GraphWidget({
            title: 'Table: consumed capacity and throttles',
            left: [
              core.table.metricConsumedReadCapacityUnits({ period, statistic: 'Sum' }),
              core.table.metricConsumedWriteCapacityUnits({ period, statistic: 'Sum' }),
            ],
            right: [
              new Metric({
                namespace: 'AWS/DynamoDB',
                metricName: 'ReadThrottleEvents',
                dimensionsMap: { TableName: core.table.tableName },
                statistic: 'Sum',
                period,
              }),
              new Metric({
                namespace: 'AWS/DynamoDB',
                metricName: 'WriteThrottleEvents',
                dimensionsMap: { TableName: core.table.tableName },
                statistic: 'Sum',
                period,
              }),
            ],
            ...wide,
          }),
          new GraphWidget({
            title: 'Webhook delivery queue: visible and oldest (s)',
            left: [core.deliveryQueues.queue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' })],
            right: [core.deliveryQueues.queue.metricApproximateAgeOfOldestMessage({ period, statistic: 'Maximum' })],
            ...wide,
          }),
        ],
      ],
    });
  }
}
