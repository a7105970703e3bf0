import type { DynamoDBStreamEvent, SQSEvent, SQSRecord } from 'aws-lambda';

// The handlers build their clients at import; nothing here reaches them (no record gets that far).
process.env.TABLE_NAME ??= 'batch-handlers-test';
process.env.AWS_REGION ??= 'eu-west-1';
process.env.NOTIFICATION_SENDER ??= 'webhooks@example.com';
process.env.DELIVERY_QUEUE_URL ??= 'https://sqs.eu-west-1.amazonaws.com/123456789012/deliveries';
const deadLetterQueueArn = 'arn:aws:sqs:eu-west-1:123456789012:deliveries-dlq';
process.env.DELIVERY_DEAD_LETTER_QUEUE_ARN ??= deadLetterQueueArn;

const sqsRecord = (messageId: string, body: string): SQSRecord =>
  ({
    messageId,
    body,
    receiptHandle: messageId,
    attributes: {},
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-west-1:123456789012:q',
    awsRegion: 'eu-west-1',
  }) as SQSRecord;

describe('partial batch responses (Powertools Batch)', () => {
  it('job-failed: a message that cannot be read comes back alone; one without a job is read and dropped', async () => {
    const { handler } = await import('../../../functions/handlers/workers/job-failed');
    const event: SQSEvent = {
      Records: [
        sqsRecord('m-1', '{"requestContext":{"condition":"RetriesExhausted"}}'),
        sqsRecord('m-2', 'not json'),
        sqsRecord('m-3', '{}'),
      ],
    };
    expect(await handler(event)).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-2' }] });
  });

  it('job-failed: a batch that fails whole is answered with every message, not thrown', async () => {
    const { handler } = await import('../../../functions/handlers/workers/job-failed');
    const event: SQSEvent = { Records: [sqsRecord('m-1', '['), sqsRecord('m-2', '{')] };
    expect(await handler(event)).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }, { itemIdentifier: 'm-2' }] });
  });

  it('dispatch: a message that cannot be read comes back alone', async () => {
    const { handler } = await import('../../../functions/handlers/workers/dispatch');
    expect(await handler({ Records: [sqsRecord('d-1', 'not json')] })).toEqual({ batchItemFailures: [{ itemIdentifier: 'd-1' }] });
  });

  it('dispatch: a dead letter (from the DLQ, its second source) that cannot be read names no delivery: dropped, not sent round again', async () => {
    const { handler } = await import('../../../functions/handlers/workers/dispatch');
    const deadLetter = { ...sqsRecord('d-2', 'not json'), eventSourceARN: deadLetterQueueArn };
    expect(await handler({ Records: [deadLetter, sqsRecord('d-3', 'not json')] })).toEqual({
      batchItemFailures: [{ itemIdentifier: 'd-3' }],
    });
  });

  it('dispatch: tells the dispatch how many times SQS handed the message over (1 when it does not say)', async () => {
    const { receiptOf } = await import('../../../functions/handlers/workers/dispatch');
    const record = sqsRecord('d-4', '{}');
    expect(receiptOf({ ...record, attributes: { ...record.attributes, ApproximateReceiveCount: '3' } })).toEqual({ receiveCount: 3 });
    expect(receiptOf(record)).toEqual({ receiveCount: 1 });
  });

  it('fan-out: records that are not new events are passed over without a failure', async () => {
    const { handler } = await import('../../../functions/handlers/workers/fan-out');
    const event = {
      Records: [
        { eventName: 'MODIFY', dynamodb: { SequenceNumber: '1', NewImage: { entity: { S: 'EVENT' } } } },
        { eventName: 'INSERT', dynamodb: { SequenceNumber: '2', NewImage: { entity: { S: 'PROJECT' } } } },
        { eventName: 'REMOVE', dynamodb: { SequenceNumber: '3' } },
      ],
    } as DynamoDBStreamEvent;
    expect(await handler(event)).toEqual({ batchItemFailures: [] });
  });

  it('deleted-webhooks: records that are not removals of webhooks are passed over without a call or a failure', async () => {
    const { handler } = await import('../../../functions/handlers/workers/deleted-webhooks');
    const webhookImage = { pk: { S: 'ACCOUNT#acct_1#MODE#test#WEBHOOKS' }, entity: { S: 'webhook' }, id: { S: 'wh_1' } };
    const event = {
      Records: [
        { eventName: 'MODIFY', dynamodb: { SequenceNumber: '1', NewImage: webhookImage, OldImage: webhookImage } },
        { eventName: 'REMOVE', dynamodb: { SequenceNumber: '2', OldImage: { ...webhookImage, entity: { S: 'project' } } } },
        { eventName: 'REMOVE', dynamodb: { SequenceNumber: '3', OldImage: { ...webhookImage, pk: { S: 'SOMETHING#ELSE' } } } },
        { eventName: 'REMOVE', dynamodb: { SequenceNumber: '4' } },
      ],
    } as DynamoDBStreamEvent;
    expect(await handler(event)).toEqual({ batchItemFailures: [] });
  });

  it('second stream reader: hands each of its functions its own records only, and passes over the rest', async () => {
    const { secondStreamReader } = await import('../../../functions/handlers/workers/second-stream-reader');
    const webhookImage = { pk: { S: 'ACCOUNT#acct_1#MODE#test#WEBHOOKS' }, entity: { S: 'webhook' }, id: { S: 'wh_1' } };
    const requestImage = { pk: { S: 'RESET_REQUEST#r1' }, entity: { S: 'password_reset_request' } };
    const records = [
      { eventName: 'REMOVE', dynamodb: { SequenceNumber: '1', OldImage: webhookImage } },
      { eventName: 'INSERT', dynamodb: { SequenceNumber: '2', NewImage: requestImage } },
      { eventName: 'MODIFY', dynamodb: { SequenceNumber: '3', NewImage: requestImage, OldImage: requestImage } },
      { eventName: 'REMOVE', dynamodb: { SequenceNumber: '4', OldImage: requestImage } },
      { eventName: 'INSERT', dynamodb: { SequenceNumber: '5', NewImage: { entity: { S: 'event' } } } },
    ];
    expect(records.map((record) => secondStreamReader.filter(record))).toEqual([true, true, false, false, false]);
    // The unreadable request (no fields) is passed over; nothing here reaches the table or SES.
    expect(await secondStreamReader.handler({ Records: records.slice(1) } as DynamoDBStreamEvent)).toEqual({ batchItemFailures: [] });
  });
});
