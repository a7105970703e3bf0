import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';

/** The part of a stream record a filter looks at, as the poller reads it and as Lambda hands it over. */
export interface StreamRecordLike {
  eventName?: string;
  dynamodb?: { NewImage?: Record<string, { S?: string }>; OldImage?: Record<string, { S?: string }> };
}

/** One function the stream starts, and the filter of its event source mapping. */
export interface StreamConsumer {
  filter(record: StreamRecordLike): boolean;
  handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse>;
}

/**
 * Several consumers of the table's stream behind one reader: the local poller, which reads for
 * every event source mapping of the stack, and a function whose one mapping serves several jobs
 * (`second-stream-reader`). Each consumer is handed the batch's records its filter takes, one after
 * the other, and the batch fails from the earliest record any of them reports. The consumers are
 * idempotent, as they must be in AWS, where each mapping retries on its own: a record read again
 * is handled again.
 */
export const oneReaderFor = (consumers: readonly StreamConsumer[]) => ({
  filter: (record: StreamRecordLike): boolean => consumers.some((consumer) => consumer.filter(record)),
  async handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
    const position = new Map(event.Records.map((record, i) => [record.dynamodb?.SequenceNumber ?? '', i]));
    let earliest: string | undefined;
    for (const consumer of consumers) {
      const Records = event.Records.filter((record) => consumer.filter(record as StreamRecordLike));
      if (Records.length === 0) continue;
      const failedAt = (await consumer.handler({ Records })).batchItemFailures[0]?.itemIdentifier;
      if (failedAt !== undefined && (earliest === undefined || (position.get(failedAt) ?? 0) < (position.get(earliest) ?? 0))) {
        earliest = failedAt;
      }
    }
    return { batchItemFailures: earliest === undefined ? [] : [{ itemIdentifier: earliest }] };
  },
});
