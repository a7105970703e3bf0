import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** One attempt is bounded by 10 s; a batch of 10 runs its attempts side by side. */
export const dispatcherTimeout = Duration.seconds(30);
/** Lambda's advice for an SQS source: at least six times the function's timeout. */
export const deliveryVisibilityTimeout = Duration.seconds(dispatcherTimeout.toSeconds() * 6);
/** A message that failed this often (not a failed attempt: the dispatcher itself failed) is set aside. */
export const deliveryMaxReceiveCount = 5;

const queueDefaults = { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, removalPolicy: RemovalPolicy.RETAIN } as const;

/**
 * The queues of webhook delivery (see `lib/constructs/webhook-delivery.ts`): they hold scheduled
 * retries and set-aside messages, so they live with the data and are retained.
 */
export class DeliveryQueues extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly fanOutFailures: Queue;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    // Read by the dispatcher too (it settles each dead letter's delivery): hidden as long as the queue's.
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      ...queueDefaults,
      retentionPeriod: Duration.days(14),
      visibilityTimeout: deliveryVisibilityTimeout,
    });
    this.queue = new Queue(this, 'Queue', {
      ...queueDefaults,
      visibilityTimeout: deliveryVisibilityTimeout,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: deliveryMaxReceiveCount },
    });
    this.fanOutFailures = new Queue(this, 'FanOutFailures', { ...queueDefaults, retentionPeriod: Duration.days(14) });
    Validations.of(this.fanOutFailures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is a dead-letter queue itself: the on-failure destination of the stream mappings (the fan-out's, the second reader's). cdk-nag recognises only redrive policies and function DLQs as such.",
    });
  }
}

/**
 * A queue that receives what failed for good (an asynchronous invocation after its retries, an
 * EventBridge target's undeliverable event), for a function to read: retained, 14 days, and set
 * aside in `deadLetterQueue` when that function fails on a message again and again.
 */
export const failureQueue = (
  scope: Construct,
  id: string,
  options: { visibilityTimeout: Duration; deadLetterQueue: { queue: Queue; maxReceiveCount: number } },
): Queue => new Queue(new Construct(scope, id), 'Failures', { ...queueDefaults, retentionPeriod: Duration.days(14), ...options });

/** A queue where what failed for good waits for a person (an alarm watches it): `of`, what sends it there. */
export const deadLetterQueue = (scope: Construct, id: string, of: string): Queue => {
  const queue = new Queue(new Construct(scope, id), 'Failures', { ...queueDefaults, retentionPeriod: Duration.days(14) });
  Validations.of(queue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason: `This queue is a dead-letter queue itself, of ${of}: cdk-nag recognises only redrive policies and function DLQs as such.`,
  });
  return queue;
};
