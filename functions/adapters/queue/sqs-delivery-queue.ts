import { SendMessageBatchCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Clock } from '../../core/clock';
import type { DeliveryMessage, DeliveryQueue } from '../../core/webhooks/delivery';

/** SQS delays a message 15 minutes at most; later attempts come back early and are delayed again. */
export const maxSqsDelaySeconds = 900;

export const sqsDelaySeconds = (message: DeliveryMessage, nowMs: number): number =>
  Math.min(maxSqsDelaySeconds, Math.max(0, Math.ceil((message.not_before - nowMs) / 1000)));

/** SQS takes at most 10 messages per SendMessageBatch. */
const maxBatch = 10;

export const sqsDeliveryQueue = (client: SQSClient, queueUrl: string, clock: Clock): DeliveryQueue => {
  const send = async (message: DeliveryMessage): Promise<void> => {
    await client.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: JSON.stringify(message),
        DelaySeconds: sqsDelaySeconds(message, clock.now()),
      }),
    );
  };

  /** One batch; the entries SQS refused go again one by one, so that an error names the message. */
  const sendBatch = async (batch: readonly DeliveryMessage[]): Promise<void> => {
    const { Failed = [] } = await client.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: batch.map((message, i) => ({
          Id: String(i),
          MessageBody: JSON.stringify(message),
          DelaySeconds: sqsDelaySeconds(message, clock.now()),
        })),
      }),
    );
    for (const failed of Failed) await send(batch[Number(failed.Id)] as DeliveryMessage);
  };

  return {
    send,
    async sendMany(messages) {
      const batches: DeliveryMessage[][] = [];
      for (let i = 0; i < messages.length; i += maxBatch) batches.push(messages.slice(i, i + maxBatch));
      await Promise.all(batches.map(sendBatch));
    },
  };
};
