import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Clock } from '../../core/clock';
import type { DeliveryMessage, DeliveryQueue } from '../../core/webhooks/delivery';

/** SQS delays a message 15 minutes at most; later attempts come back early and are delayed again. */
export const maxSqsDelaySeconds = 900;

export const sqsDelaySeconds = (message: DeliveryMessage, nowMs: number): number =>
  Math.min(maxSqsDelaySeconds, Math.max(0, Math.ceil((message.not_before - nowMs) / 1000)));

export const sqsDeliveryQueue = (client: SQSClient, queueUrl: string, clock: Clock): DeliveryQueue => ({
  async send(message) {
    await client.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: JSON.stringify(message),
        DelaySeconds: sqsDelaySeconds(message, clock.now()),
      }),
    );
  },
});
