import { createHash } from 'node:crypto';
import type { Clock } from '../../core/clock';
import type { DeliveryMessage, DeliveryQueue } from '../../core/webhooks/delivery';
import type { AwsJsonCall } from '../aws/aws-json-call';
import { sqsCall } from '../aws/sqs-call';

/** SQS delays a message 15 minutes at most; later attempts come back early and are delayed again. */
export const maxSqsDelaySeconds = 900;

export const sqsDelaySeconds = (message: DeliveryMessage, nowMs: number): number =>
  Math.min(maxSqsDelaySeconds, Math.max(0, Math.ceil((message.not_before - nowMs) / 1000)));

/** SQS takes at most 10 messages per SendMessageBatch. */
const maxBatch = 10;

interface SendMessageOutput {
  MessageId?: string;
  MD5OfMessageBody?: string;
}

interface SendMessageBatchOutput {
  Successful?: (SendMessageOutput & { Id: string })[];
  Failed?: { Id: string; Code?: string; SenderFault?: boolean; Message?: string }[];
}

const md5Of = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

/** SQS answers each message's MD5; a different one means the body was changed on the way (the SDK checks it too). */
const checkedDigest = (body: string, answered: SendMessageOutput): void => {
  if (answered.MD5OfMessageBody !== md5Of(body)) {
    throw new Error(`SQS stored message ${answered.MessageId ?? '(no id)'} with a different body digest than was sent`);
  }
};

/** `call`: SQS's SendMessage and SendMessageBatch, signed (default) or a test's. */
export const sqsDeliveryQueue = (queueUrl: string, clock: Clock, call: AwsJsonCall = sqsCall(queueUrl)): DeliveryQueue => {
  const send = async (message: DeliveryMessage): Promise<void> => {
    const body = JSON.stringify(message);
    const answered = await call<SendMessageOutput>('SendMessage', {
      QueueUrl: queueUrl,
      MessageBody: body,
      DelaySeconds: sqsDelaySeconds(message, clock.now()),
    });
    checkedDigest(body, answered);
  };

  /** One batch; the entries SQS refused go again one by one, so that an error names the message. */
  const sendBatch = async (batch: readonly DeliveryMessage[]): Promise<void> => {
    const entries = batch.map((message, i) => ({
      Id: String(i),
      MessageBody: JSON.stringify(message),
      DelaySeconds: sqsDelaySeconds(message, clock.now()),
    }));
    const { Successful = [], Failed = [] } = await call<SendMessageBatchOutput>('SendMessageBatch', {
      QueueUrl: queueUrl,
      Entries: entries,
    });
    for (const stored of Successful) checkedDigest(entries[Number(stored.Id)]?.MessageBody ?? '', stored);
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
