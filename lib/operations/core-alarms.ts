import { Construct } from 'constructs';
import type { CoreStack } from '../core-stack';
import {
  apiLatencyMetric,
  apiLatencyP99ThresholdMs,
  apiServerErrorsMetric,
  notifyingAlarm,
  queueNotEmptyAlarm,
  queueReceivedAlarm,
  readDeadLetterAlarms,
  tableThrottlesMetric,
} from './alarms';

/**
 * The alarms on what the core stack holds: every dead-letter and failure queue, the API's 5xx
 * rate and p99 latency, and the table's throttles. The domain stacks alarm on their own functions
 * and state machines.
 */
export class CoreAlarms extends Construct {
  constructor(scope: Construct, id: string, core: CoreStack) {
    super(scope, id);
    const action = core.alarms.action;
    const queues = core.deliveryQueues;
    readDeadLetterAlarms(
      this,
      'DeliveryDeadLetters',
      action,
      queues.deadLetterQueue,
      'Webhook delivery dead-letter queue (the dispatcher failed a message 5 times; it ends the delivery failed if its attempt was never made)',
    );
    queueNotEmptyAlarm(
      this,
      'FanOutFailures',
      action,
      queues.fanOutFailures,
      'Webhook fan-out failures (stream batches the fan-out gave up on)',
    );
    queueNotEmptyAlarm(this, 'ExecutionEventFailures', action, core.executionFailures, 'Execution safety net dead-letter queue');
    queueReceivedAlarm(this, 'SecurityJobFailures', action, core.securityFailures, 'Security job failures');
    queueReceivedAlarm(this, 'TestJobFailures', action, core.testFailures, 'Test job failures');
    queueReceivedAlarm(this, 'ReviewJobFailures', action, core.reviewFailures, 'Review job failures');
    queueNotEmptyAlarm(
      this,
      'JobFailureDeadLetters',
      action,
      core.jobFailureDeadLetters,
      'Job safety net dead-letter queue (its function failed on a failed job 5 times; the job may still show under way)',
    );
    notifyingAlarm(this, 'ApiServerErrors', action, {
      description: 'HTTP API: more than 1 % of requests (at least 5) answered 5xx in 5 minutes',
      metric: apiServerErrorsMetric(core.api.apiId),
      threshold: 1,
    });
    notifyingAlarm(this, 'ApiLatencyP99', action, {
      description: `HTTP API: p99 latency at or above ${apiLatencyP99ThresholdMs} ms for 15 minutes`,
      metric: apiLatencyMetric(core.api.apiId),
      threshold: apiLatencyP99ThresholdMs,
      evaluationPeriods: 3,
    });
    notifyingAlarm(this, 'TableThrottles', action, {
      description: 'DynamoDB table: requests throttled (5 minutes)',
      metric: tableThrottlesMetric(core.table.tableName),
      threshold: 1,
    });
  }
}
