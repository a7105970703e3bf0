import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { oneReaderFor, type StreamConsumer } from '../../../functions/handlers/workers/stream-consumers';

const record = (sequence: string, eventName: 'INSERT' | 'MODIFY' | 'REMOVE', entity: string): DynamoDBRecord => ({
  eventName,
  dynamodb: { SequenceNumber: sequence, NewImage: { entity: { S: entity } }, OldImage: { entity: { S: entity } } },
});

/** A consumer that takes records of one entity, keeps what it was given and fails at `failAt`, if given. */
const consumerOf = (entity: string, failAt?: string) => {
  const given: string[][] = [];
  const consumer: StreamConsumer = {
    filter: (r) => r.dynamodb?.NewImage?.entity?.S === entity,
    async handler(event: DynamoDBStreamEvent) {
      given.push(event.Records.map((r) => r.dynamodb?.SequenceNumber ?? ''));
      return { batchItemFailures: failAt ? [{ itemIdentifier: failAt }] : [] };
    },
  };
  return { consumer, given };
};

const batch: DynamoDBStreamEvent = {
  Records: [
    record('100', 'INSERT', 'event'),
    record('101', 'REMOVE', 'webhook'),
    record('102', 'INSERT', 'event'),
    record('103', 'INSERT', 'event'),
  ],
};

describe('one local stream reader for several event source mappings', () => {
  it("hands each function the batch's records its filter takes, in order, and none to a function with none", async () => {
    const events = consumerOf('event');
    const webhooks = consumerOf('webhook');
    const projects = consumerOf('project');
    const reader = oneReaderFor([events.consumer, webhooks.consumer, projects.consumer]);

    expect(await reader.handler(batch)).toEqual({ batchItemFailures: [] });
    expect(events.given).toEqual([['100', '102', '103']]);
    expect(webhooks.given).toEqual([['101']]);
    expect(projects.given).toEqual([]);
    expect(batch.Records.map((r) => reader.filter(r as never))).toEqual([true, true, true, true]);
    expect(reader.filter(record('104', 'INSERT', 'account') as never)).toBe(false);
  });

  it('fails the batch from the earliest record any function reports, whichever reports it', async () => {
    const laterFirst = oneReaderFor([consumerOf('event', '103').consumer, consumerOf('webhook', '101').consumer]);
    expect(await laterFirst.handler(batch)).toEqual({ batchItemFailures: [{ itemIdentifier: '101' }] });
    const earlierFirst = oneReaderFor([consumerOf('event', '100').consumer, consumerOf('webhook', '101').consumer]);
    expect(await earlierFirst.handler(batch)).toEqual({ batchItemFailures: [{ itemIdentifier: '100' }] });
  });
});
