import { Duration } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { type AiSettings, aiEnvironment, grantAi } from './ai-settings';
import { type RepositoryToken, repositoryTokenEnvironment } from './repository-token';
import type { ServiceFunction } from './service-function';

/** What every asynchronously invoked worker function (reviews, security, tests) is built from. */
export interface AsyncWorkerProps {
  table: ITableV2;
  serviceName: string;
  ai: AiSettings;
  /** The token for private https repositories, and where it may go. */
  repositoryToken?: RepositoryToken;
  /** Where invocations that failed (after their retries, if any) go (in the core stack: it holds them). */
  failures: IQueue;
}

/** The AI settings and, when configured, the repository token's secret and hosts: the last variables of a worker's environment. */
export const asyncWorkerEnvironment = (props: AsyncWorkerProps): Record<string, string> => ({
  ...aiEnvironment(props.ai),
  ...repositoryTokenEnvironment(props.repositoryToken),
});

/**
 * Invoked asynchronously (events up to 6 hours old, `retryAttempts` retries, then the failure
 * queue), writing the table and asking the AI provider.
 */
export const bindAsyncWorker = (fn: ServiceFunction, props: AsyncWorkerProps, retryAttempts: number): void => {
  fn.function.configureAsyncInvoke({
    retryAttempts,
    maxEventAge: Duration.hours(6),
    onFailure: new SqsDestination(props.failures),
  });
  fn.bindTable(props.table, 'write');
  grantAi(fn, props.ai);
};
