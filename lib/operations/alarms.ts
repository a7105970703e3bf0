import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  type IAlarmAction,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';

const fiveMinutes = Duration.minutes(5);

/** An alarm that notifies `action` when it fires and when it clears; missing data is not breaching. */
export const notifyingAlarm = (
  scope: Construct,
  id: string,
  action: IAlarmAction,
  props: { description: string; metric: IMetric; threshold: number; evaluationPeriods?: number },
): Alarm => {
  const alarm = new Alarm(scope, id, {
    alarmDescription: props.description,
    metric: props.metric,
    threshold: props.threshold,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: props.evaluationPeriods ?? 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  alarm.addAlarmAction(action);
  alarm.addOkAction(action);
  return alarm;
};

/** A dead-letter or failure queue that nobody reads holds a message: something was given up on. */
export const queueNotEmptyAlarm = (scope: Construct, id: string, action: IAlarmAction, queue: IQueue, what: string): Alarm =>
  notifyingAlarm(scope, id, action, {
    description: `${what}: the queue is not empty`,
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: fiveMinutes, statistic: 'Maximum' }),
    threshold: 1,
  });

/** A failure queue that a safety net reads: a message arriving means a job failed after its retries. */
export const queueReceivedAlarm = (scope: Construct, id: string, action: IAlarmAction, queue: IQueue, what: string): Alarm =>
  notifyingAlarm(scope, id, action, {
    description: `${what}: a message arrived (a job failed after its retries)`,
    metric: queue.metricNumberOfMessagesSent({ period: fiveMinutes, statistic: 'Sum' }),
    threshold: 1,
  });

/**
 * A dead-letter queue that a function reads (the delivery queue's, which the dispatcher settles): a
 * message received means something failed 5 times; one waiting an hour, that its reader fails on it
 * too (it comes back every visibility timeout until the queue's retention ends). A count of visible
 * messages would miss the first, read within seconds of its arrival.
 */
export const readDeadLetterAlarms = (scope: Construct, id: string, action: IAlarmAction, queue: IQueue, what: string): Alarm[] => [
  notifyingAlarm(scope, id, action, {
    description: `${what}: a message arrived and was read (5 minutes)`,
    metric: queue.metricNumberOfMessagesReceived({ period: fiveMinutes, statistic: 'Sum' }),
    threshold: 1,
  }),
  notifyingAlarm(scope, `${id}Waiting`, action, {
    description: `${what}: a message has waited an hour (its reader fails on it too)`,
    metric: queue.metricApproximateAgeOfOldestMessage({ period: fiveMinutes, statistic: 'Maximum' }),
    threshold: deadLetterWaitAlarmSeconds,
  }),
];

/** A dead letter read and settled leaves within seconds; one still there after this was failed on again. */
export const deadLetterWaitAlarmSeconds = 3600;

/** Any error of a worker whose errors mean lost or late work (the webhook dispatcher, the fan-out, the stream's second reader). */
export const workerErrorsAlarm = (scope: Construct, id: string, action: IAlarmAction, fn: IFunction, what: string): Alarm =>
  notifyingAlarm(scope, id, action, {
    description: `${what}: an invocation failed (5 minutes)`,
    metric: fn.metricErrors({ period: fiveMinutes, statistic: 'Sum' }),
    threshold: 1,
  });

/** Executions failed (at a rate: a failed workflow or deployment is also a normal outcome) or timed out (never normal). */
export const stateMachineFailedExecutionsThreshold = 5;

export const stateMachineAlarms = (scope: Construct, action: IAlarmAction, machine: IStateMachine, what: string): Alarm[] => [
  notifyingAlarm(scope, 'ExecutionsTimedOut', action, {
    description: `${what}: an execution timed out`,
    metric: machine.metricTimedOut({ period: fiveMinutes, statistic: 'Sum' }),
    threshold: 1,
  }),
  notifyingAlarm(scope, 'ExecutionsFailed', action, {
    description: `${what}: ${stateMachineFailedExecutionsThreshold} or more executions failed in an hour (a failed run ends its execution FAILED too: see the records' errors)`,
    metric: machine.metricFailed({ period: Duration.hours(1), statistic: 'Sum' }),
    threshold: stateMachineFailedExecutionsThreshold,
  }),
];

/** The API answered 5xx to more than 1 % of requests (at least 5) in five minutes. */
export const apiServerErrorsMetric = (apiId: string): MathExpression =>
  new MathExpression({
    label: '5xx over 1 % of requests',
    expression: '(errors >= 5) && (errors > 0.01 * requests)',
    usingMetrics: {
      errors: new Metric({ namespace: 'AWS/ApiGateway', metricName: '5xx', dimensionsMap: { ApiId: apiId }, statistic: 'Sum' }),
      requests: new Metric({ namespace: 'AWS/ApiGateway', metricName: 'Count', dimensionsMap: { ApiId: apiId }, statistic: 'Sum' }),
    },
    period: fiveMinutes,
  });

/** p99 of the API's latency above this for 15 minutes alarms. */
export const apiLatencyP99ThresholdMs = 2500;

export const apiLatencyMetric = (apiId: string): Metric =>
  new Metric({
    namespace: 'AWS/ApiGateway',
    metricName: 'Latency',
    dimensionsMap: { ApiId: apiId },
    statistic: 'p99',
    period: fiveMinutes,
  });

/** Read and write throttle events of the table (its indexes included). */
export const tableThrottlesMetric = (tableName: string): MathExpression =>
  new MathExpression({
    label: 'read and write throttle events',
    expression: 'reads + writes',
    usingMetrics: {
      reads: new Metric({
        namespace: 'AWS/DynamoDB',
        metricName: 'ReadThrottleEvents',
        dimensionsMap: { TableName: tableName },
        statistic: 'Sum',
      }),
      writes: new Metric({
        namespace: 'AWS/DynamoDB',
        metricName: 'WriteThrottleEvents',
        dimensionsMap: { TableName: tableName },
        statistic: 'Sum',
      }),
    },
    period: fiveMinutes,
  });
