import { Duration, Stack, Token } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { entityTypes } from '../../functions/adapters/dynamodb/keys';
import { dispatcherBatchSize, dispatcherMaxConcurrency } from './dispatcher-event-source';
import { ServiceFunction } from './service-function';
import { dispatcherTimeout } from '../stateful/delivery-queues';

export { deliveryMaxReceiveCount, deliveryVisibilityTimeout, dispatcherTimeout } from '../stateful/delivery-queues';

export const dispatcherDescription = 'webhook dispatcher: one signed attempt per delivery queue message';
export const fanOutDescription = 'webhook fan-out: new events from the table stream become deliveries';
export const secondStreamReaderDescription =
  "the table stream's second reader: deleted webhooks' deliveries and count removed, password-reset e-mails sent";

/** Dead letters are few (each is a dispatcher failure): two batches at once, the least a mapping may have. */
export const deadLetterMaxConcurrency = 2;

/** A batch of up to 100 events, each read against every webhook of its tenant. */
export const fanOutTimeout = Duration.seconds(60);

/**
 * Records (deleted webhooks, password-reset requests) the second reader handles in one invocation.
 * A webhook with a million deliveries takes about ten thousand transactions; one cut short by the
 * timeout is retried and resumes where it stopped (what it removed is gone), and the requests of
 * its batch, whose e-mails go first, are passed over then (each is sent once).
 */
const secondStreamReaderBatchSize = 10;
export const secondStreamReaderTimeout = Duration.minutes(5);

export interface WebhookDeliveryProps {
  table: ITableV2;
  /** The delivery queue, its dead-letter queue and the fan-out's failure queue (in the core stack: they hold messages). */
  queues: { queue: IQueue; deadLetters: IQueue; fanOutFailures: IQueue };
  serviceName: string;
  /** Address of the failure e-mails; an SES identity verified in the stack's account and region. */
  notificationSender: string;
}

const plainAddress = /^[^\s@<>"]+@[^\s@<>"]+$/;

/**
 * The asynchronous half of webhooks (DESIGN.md, "Events and webhooks"):
 *
 *   table stream ─(INSERT of an event item)→ fan-out ─→ delivery queue ─→ dispatcher ─→ target
 *        │                                                 ↑    │            │  ↑
 *        │                                                 │    └(5 failed receives)→ DLQ
 *        │                                                 └─ retries, and messages due later
 *        │                                                    than SQS's 15-minute delay limit
 *        └─(REMOVE of a webhook, INSERT of a password-reset request)→ the second reader: the
 *          webhook's deliveries and their count go; the request's e-mail is sent (SES)
 *
 * The queue's own failures (a dispatcher that threw 5 times) go to its DLQ, which the dispatcher
 * reads too (a second event source, rather than a function of its own): a delivery whose attempt
 * was never made ends `failed`, so none stays pending with no message to attempt it
 * (`core/webhooks/dead-letters.ts`); one it fails on there comes back every visibility timeout for
 * the DLQ's 14 days, and an alarm tells the operators of both. Stream batches that
 * the fan-out or the second reader could not process after their retries are recorded
 * in a separate queue, since those messages are stream-batch pointers, not delivery messages, and
 * must never be redriven into the delivery queue. Those pointers name stream records, which the
 * stream keeps 24 h: whoever reads that queue later still finds the events themselves in the table
 * (event items have no TTL), `npm run cli -- migrate deleted-webhook-deliveries` removes what
 * deleted webhooks left, and a password reset whose e-mail was given up on is asked for again.
 *
 * The password-reset e-mails join the second reader rather than a mapping of their own: DynamoDB
 * serves two readers per shard without throttling, and a third would slow the fan-out's reads.
 */
export class WebhookDelivery extends Construct {
  readonly queue: IQueue;
  readonly deadLetters: IQueue;
  readonly fanOutFailures: IQueue;
  readonly dispatcher: ServiceFunction;
  readonly fanOut: ServiceFunction;
  readonly secondStreamReader: ServiceFunction;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    const { table, serviceName, notificationSender } = props;
    if (!Token.isUnresolved(notificationSender) && !plainAddress.test(notificationSender)) {
      throw new Error(`notificationSender must be a bare e-mail address (it names an SES identity), not "${notificationSender}"`);
    }

    this.queue = props.queues.queue;
    this.deadLetters = props.queues.deadLetters;
    this.fanOutFailures = props.queues.fanOutFailures;

    this.dispatcher = new ServiceFunction(this, 'Dispatcher', {
      handler: 'workers/dispatch',
      description: dispatcherDescription,
      serviceName,
      timeout: dispatcherTimeout,
      environment: { NOTIFICATION_SENDER: notificationSender },
    });
    this.dispatcher.bindTable(table, 'write');
    // Retries, and messages due later than 15 minutes, go back to the queue they came from.
    this.dispatcher.bindDeliveryQueue(this.queue);
    // The address identity only. Were the sender verified through its domain instead, SES would
    // authorise against identity/<domain>, and this grant would have to name that.
    this.dispatcher.allow(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [Stack.of(this).formatArn({ service: 'ses', resource: 'identity', resourceName: notificationSender })],
      }),
    );
    this.dispatcher.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: dispatcherBatchSize,
        maxConcurrency: dispatcherMaxConcurrency,
        // No batching window: a message is handed over as soon as it is polled, so a lone event's first
        // attempt is not held back (the first-attempt latency is what a receiver sees; README, Webhooks).
        reportBatchItemFailures: true,
      }),
    );
    // The dead letters: each delivery is settled (ended `failed` when its attempt was never made).
    // The mapping grants receiving and deleting in this queue only; the ARN tells its records apart.
    this.dispatcher.function.addEnvironment('DELIVERY_DEAD_LETTER_QUEUE_ARN', this.deadLetters.queueArn);
    this.dispatcher.function.addEventSource(
      new SqsEventSource(this.deadLetters, {
        batchSize: dispatcherBatchSize,
        maxConcurrency: deadLetterMaxConcurrency,
        reportBatchItemFailures: true,
      }),
    );

    this.fanOut = new ServiceFunction(this, 'FanOut', {
      handler: 'workers/fan-out',
      description: fanOutDescription,
      serviceName,
      timeout: fanOutTimeout,
    });
    // Creates deliveries and their collection counters.
    this.fanOut.bindTable(table, 'write');
    this.fanOut.bindDeliveryQueue(this.queue);
    // Only new event items: every other write to the table never invokes the function.
    this.fanOut.function.addEventSource(
      this.streamSource(table, 100, {
        eventName: FilterRule.isEqual('INSERT'),
        dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(entityTypes.event) } } },
      }),
    );

    // The stream's second reader (DynamoDB serves two per shard without throttling). The construct
    // id is the one of the release where it removed deleted webhooks alone: its function and its
    // mapping (with its place in the stream) stay the same resources.
    this.secondStreamReader = new ServiceFunction(this, 'DeletedWebhooks', {
      handler: 'workers/second-stream-reader',
      description: secondStreamReaderDescription,
      serviceName,
      timeout: secondStreamReaderTimeout,
    });
    // Reads a deleted webhook's delivery partition and deletes it, checking the webhook stays
    // absent; reads a request's user, stores its link and removes the request.
    this.secondStreamReader.bindTable(table, 'write');
    this.secondStreamReader.bindMailer(notificationSender);
    this.secondStreamReader.function.addEventSource(
      this.streamSource(
        table,
        secondStreamReaderBatchSize,
        // Removed webhooks: a webhook is removed once, when it is deleted.
        {
          eventName: FilterRule.isEqual('REMOVE'),
          dynamodb: { OldImage: { entity: { S: FilterRule.isEqual(entityTypes.webhook) } } },
        },
        // New password-reset requests: the claim and its undoing are MODIFYs, never handed over.
        {
          eventName: FilterRule.isEqual('INSERT'),
          dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(entityTypes.passwordResetRequest) } } },
        },
      ),
    );
  }

  /**
   * A mapping of the table's stream from its oldest record, for the records any of `filters`
   * takes: a failing batch is halved to find its record and retried from it, and after its
   * retries is recorded in the stream-failure queue.
   */
  private streamSource(table: ITableV2, batchSize: number, ...filters: Record<string, unknown>[]): DynamoEventSource {
    return new DynamoEventSource(table, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize,
      bisectBatchOnError: true,
      reportBatchItemFailures: true,
      retryAttempts: 10,
      onFailure: new SqsDlq(this.fanOutFailures),
      filters: filters.map((filter) => FilterCriteria.filter(filter)),
    });
  }
}
