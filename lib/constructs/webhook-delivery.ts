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
export const deletedWebhooksDescription = 'deleted webhooks: their deliveries and count removed, from the table stream';

/** A batch of up to 100 events, each read against every webhook of its tenant. */
export const fanOutTimeout = Duration.seconds(60);

/**
 * Deleted webhooks whose deliveries are removed in one invocation. A webhook with a million
 * deliveries takes about ten thousand transactions; one cut short by the timeout is retried and
 * resumes where it stopped (what it removed is gone).
 */
const deletedWebhooksBatchSize = 10;
export const deletedWebhooksTimeout = Duration.minutes(5);

export interface WebhookDeliveryProps {
  table: ITableV2;
  /** The delivery queue and the fan-out's failure queue (in the core stack: they hold messages). */
  queues: { queue: IQueue; fanOutFailures: IQueue };
  serviceName: string;
  /** Address of the failure e-mails; an SES identity verified in the stack's account and region. */
  notificationSender: string;
}

const plainAddress = /^[^\s@<>"]+@[^\s@<>"]+$/;

/**
 * The asynchronous half of webhooks (DESIGN.md, "Events and webhooks"):
 *
 *   table stream ─(INSERT of an event item)→ fan-out ─→ delivery queue ─→ dispatcher ─→ target
 *        │                                                 ↑                 │
 *        │                                                 └─ retries, and messages due later
 *        │                                                    than SQS's 15-minute delay limit
 *        └─(REMOVE of a webhook)→ deleted webhooks: the webhook's deliveries and their count go
 *
 * The queue's own failures (a dispatcher that threw 5 times) go to its DLQ; stream batches that
 * the fan-out or the deleted-webhooks function could not process after their retries are recorded
 * in a separate queue, since those messages are stream-batch pointers, not delivery messages, and
 * must never be redriven into the delivery queue. Those pointers name stream records, which the
 * stream keeps 24 h: whoever reads that queue later still finds the events themselves in the table
 * (event items have no TTL), and `npm run cli -- migrate deleted-webhook-deliveries` removes what
 * deleted webhooks left.
 */
export class WebhookDelivery extends Construct {
  readonly queue: IQueue;
  readonly fanOutFailures: IQueue;
  readonly dispatcher: ServiceFunction;
  readonly fanOut: ServiceFunction;
  readonly deletedWebhooks: ServiceFunction;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    const { table, serviceName, notificationSender } = props;
    if (!Token.isUnresolved(notificationSender) && !plainAddress.test(notificationSender)) {
      throw new Error(`notificationSender must be a bare e-mail address (it names an SES identity), not "${notificationSender}"`);
    }

    this.queue = props.queues.queue;
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

    // The stream's second reader (DynamoDB serves two per shard without throttling).
    this.deletedWebhooks = new ServiceFunction(this, 'DeletedWebhooks', {
      handler: 'workers/deleted-webhooks',
      description: deletedWebhooksDescription,
      serviceName,
      timeout: deletedWebhooksTimeout,
    });
    // Reads a deleted webhook's delivery partition and deletes it, checking the webhook stays absent.
    this.deletedWebhooks.bindTable(table, 'write');
    // Only removed webhooks: a webhook is removed once, when it is deleted.
    this.deletedWebhooks.function.addEventSource(
      this.streamSource(table, deletedWebhooksBatchSize, {
        eventName: FilterRule.isEqual('REMOVE'),
        dynamodb: { OldImage: { entity: { S: FilterRule.isEqual(entityTypes.webhook) } } },
      }),
    );
  }

  /**
   * A mapping of the table's stream from its oldest record, for the records `filter` takes: a
   * failing batch is halved to find its record and retried from it, and after its retries is
   * recorded in the stream-failure queue.
   */
  private streamSource(table: ITableV2, batchSize: number, filter: Record<string, unknown>): DynamoEventSource {
    return new DynamoEventSource(table, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize,
      bisectBatchOnError: true,
      reportBatchItemFailures: true,
      retryAttempts: 10,
      onFailure: new SqsDlq(this.fanOutFailures),
      filters: [FilterCriteria.filter(filter)],
    });
  }
}
