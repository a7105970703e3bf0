import { Duration, type Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { ServiceFunction } from '../constructs/service-function';

/** A function alarms when more than this share of its invocations fail in five minutes. */
export const functionErrorRateThreshold = 0.01;

export const functionAlarmDescription = (description: string): string =>
  `${description}: more than ${functionErrorRateThreshold * 100} % of invocations failed, or an invocation was throttled (5 minutes)`;

/**
 * One alarm per function of the stack (and its metrics namespace): its error rate above 1 % (at least one error) or any
 * throttle, in five minutes, notifying the alarm topic on ALARM and on OK. One metric-math alarm
 * instead of two keeps a route at six resources (docs: README, "Alarms").
 */
export const alarmEveryFunction = (stack: Stack, topic: ITopic, metricsNamespace: string): void => {
  const action = new SnsAction(topic);
  const functions = stack.node.findAll().filter((construct): construct is ServiceFunction => construct instanceof ServiceFunction);
  for (const fn of functions) {
    // The service's own metrics (functions/observability/metrics.ts) go to the core stack's namespace.
    fn.function.addEnvironment('POWERTOOLS_METRICS_NAMESPACE', metricsNamespace);
    const period = Duration.minutes(5);
    const alarm = new Alarm(fn, 'ErrorsOrThrottles', {
      alarmDescription: functionAlarmDescription(fn.description),
      metric: new MathExpression({
        label: 'error rate over 1 % or throttled',
        expression: `(throttles > 0) || ((errors >= 1) && (errors > ${functionErrorRateThreshold} * invocations))`,
        usingMetrics: {
          errors: fn.function.metricErrors({ period, statistic: 'Sum' }),
          invocations: fn.function.metricInvocations({ period, statistic: 'Sum' }),
          throttles: fn.function.metricThrottles({ period, statistic: 'Sum' }),
        },
        period,
      }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
  }
};
