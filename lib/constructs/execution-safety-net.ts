import { Duration } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { ServiceFunction } from './service-function';

export const executionEndedDescription = 'execution safety net: records workflows and deployments whose execution ended unfinished';

export const jobFailedDescription = 'job safety net: records scans, remediations, test jobs and reviews whose invocations all failed';

export interface ExecutionSafetyNetProps {
  table: ITableV2;
  serviceName: string;
  stateMachines: IStateMachine[];
  /** The asynchronous workers' on-failure destinations (security, tests and review functions). */
  jobFailureQueues: IQueue[];
  /** The rule's dead-letter queue (in the core stack: it holds what could not be recorded). */
  executionFailures: IQueue;
}

/**
 * When an execution of the service's state machines ends FAILED, TIMED_OUT or ABORTED while its
 * workflow or deployment still looks under way, a function fails the record and frees the
 * deployment lock (`functions/core/executions/execution-ended.ts`). The local runtime does the same
 * for executions a restart cut short.
 */
export class ExecutionSafetyNet extends Construct {
  readonly function: ServiceFunction;
  readonly jobFailed: ServiceFunction;

  constructor(scope: Construct, id: string, props: ExecutionSafetyNetProps) {
    super(scope, id);
    this.function = new ServiceFunction(this, 'Function', {
      handler: 'workers/execution-ended',
      description: executionEndedDescription,
      serviceName: props.serviceName,
      timeout: Duration.seconds(30),
    });
    this.function.bindTable(props.table, 'write');

    const failures = props.executionFailures;
    // The rule's retries and dead-letter queue cover handing an event over; the function failing on
    // one is Lambda's asynchronous retries', after which the event goes to the same queue.
    this.function.function.configureAsyncInvoke({ retryAttempts: 2, onFailure: new SqsDestination(failures) });
    new Rule(this, 'ExecutionEnded', {
      description: 'Executions of the workflow and deployment state machines that ended without succeeding',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: {
          status: ['FAILED', 'TIMED_OUT', 'ABORTED'],
          stateMachineArn: props.stateMachines.map((machine) => machine.stateMachineArn),
        },
      },
      targets: [
        new LambdaFunction(this.function.function, { deadLetterQueue: failures, retryAttempts: 8, maxEventAge: Duration.hours(24) }),
      ],
    });

    // The same for the asynchronous workers: a job whose invocations all failed lands in its
    // function's failure queue, and its record is failed instead of staying under way.
    this.jobFailed = new ServiceFunction(this, 'JobFailed', {
      handler: 'workers/job-failed',
      description: jobFailedDescription,
      serviceName: props.serviceName,
      timeout: Duration.seconds(30),
    });
    this.jobFailed.bindTable(props.table, 'write');
    for (const queue of props.jobFailureQueues) {
      this.jobFailed.function.addEventSource(new SqsEventSource(queue, { batchSize: 10, reportBatchItemFailures: true }));
    }
  }
}
