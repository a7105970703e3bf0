import { Duration } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type AiSettings, aiEnvironment } from './ai-settings';
import { type AsyncWorkerProps, asyncWorkerEnvironment, bindAsyncWorker } from './async-worker';
import { grantRepositoryToken } from './repository-token';
import { ServiceFunction } from './service-function';

export const reviewFunctionDescription =
  'reviews: AI code reviews of a change (type check, sast, secrets, then the AI), invoked asynchronously';

export type CodeReviewsProps = AsyncWorkerProps;

/**
 * The review function: one code review per asynchronous invocation (`POST /v1/reviews`), long
 * enough to fetch both sides of a change, type-check and scan it and ask the AI provider in parts
 * (15 minutes, 10 GiB of /tmp). Lambda retries a failed invocation twice, then the event goes to a
 * failure queue, which the job safety net reads to fail the review instead of leaving it running.
 * It reaches the table, the AI provider and the repository token; no bucket, key or other function.
 */
export class CodeReviews extends Construct {
  readonly function: ServiceFunction;
  readonly failures: IQueue;
  private readonly ai: AiSettings;

  constructor(scope: Construct, id: string, props: CodeReviewsProps) {
    super(scope, id);
    this.ai = props.ai;
    this.failures = props.failures;
    this.function = new ServiceFunction(this, 'Function', {
      handler: 'workers/review-job',
      description: reviewFunctionDescription,
      serviceName: props.serviceName,
      timeout: Duration.minutes(15),
      memorySize: 3008,
      ephemeralStorageMiB: 10_240,
      // The type check needs TypeScript and its lib files on disk, the sast scanner ESLint's
      // no-unsanitized plugin (both read their own files through __filename); jiti is never used.
      shippedModules: {
        typescript: ['package.json', 'lib/typescript.js', 'lib/lib.*.d.ts'],
        'eslint-plugin-no-unsanitized': ['package.json', 'index.js', 'lib'],
      },
      unusedModules: ['jiti'],
      environment: asyncWorkerEnvironment(props),
    });
    bindAsyncWorker(this.function, props, 2);
    grantRepositoryToken(this.function, props.repositoryToken);
  }

  /** A route function that starts reviews: it may invoke the review function, and knows the providers it offers. */
  bindStarter(fn: ServiceFunction): void {
    fn.function.addEnvironment('REVIEW_FUNCTION_NAME', this.function.function.functionName);
    for (const [name, value] of Object.entries(aiEnvironment(this.ai))) fn.function.addEnvironment(name, value);
    fn.allow(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.function.function.functionArn] }));
  }
}
