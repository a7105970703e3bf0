import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { DynamoDBStreamsClient, GetRecordsCommand } from '@aws-sdk/client-dynamodb-streams';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { TableRef } from '../../functions/adapters/dynamodb/client';
import { startStreamPoller, type StreamPollerOptions } from '../../lib/local/stream-poller';
import { watchTableWrites } from '../../lib/local/table-writes';
import { dynamoDbEndpointVariable, useDynamoDbLocal } from './support/table';

/**
 * The local stream poller on DynamoDB Local's stream: an idle stream costs DynamoDB Local a few
 * reads a second at most, and a write this process makes is handed over without waiting for the
 * next regular read.
 */
const dynamodb = useDynamoDbLocal();

/** Resolves when `done()` holds, checked every few milliseconds; fails the test after `timeoutMs`. */
const waitFor = async (done: () => boolean, what: string, timeoutMs = 20_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('local stream poller', () => {
  let table: TableRef;
  let endpoint: string;
  let checkpointDir: string;
  let poller: { stop(): Promise<void> } | undefined;
  const handed: string[] = [];
  /** When each GetRecords was sent. */
  let reads: number[] = [];

  beforeEach(async () => {
    table = await dynamodb.freshTable();
    endpoint = process.env[dynamoDbEndpointVariable] as string;
    checkpointDir = await mkdtemp(join(tmpdir(), 'stream-poller-'));
    handed.length = 0;
    reads = [];
    const send = DynamoDBStreamsClient.prototype.send;
    jest.spyOn(DynamoDBStreamsClient.prototype, 'send').mockImplementation(function (this: DynamoDBStreamsClient, ...args: unknown[]) {
      if (args[0] instanceof GetRecordsCommand) reads.push(performance.now());
      return (send as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof send);
  });
  afterEach(async () => {
    await poller?.stop();
    poller = undefined;
    jest.restoreAllMocks();
    await rm(checkpointDir, { recursive: true, force: true });
  });

  const start = async (options: Partial<StreamPollerOptions>) => {
    poller = await startStreamPoller({
      endpoint,
      region: 'local',
      tableName: table.tableName,
      checkpointFile: join(checkpointDir, 'checkpoint.json'),
      handler: async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
        for (const record of event.Records) handed.push(String(record.dynamodb?.Keys?.pk?.S));
        return { batchItemFailures: [] };
      },
      ...options,
    });
  };

  it('reads an idle stream less and less often, at most four times a second', async () => {
    await start({});
    await waitFor(() => reads.length >= 9, 'nine reads');
    // Pauses of 25, 50, 100 and 200 ms, then 250 ms each: at least 1,375 ms from the first read to
    // the ninth (a busy stream is read every 25 ms or at once: 200 ms or less).
    const gaps = reads.slice(1, 9).map((at, i) => at - (reads[i] as number));
    expect((reads[8] as number) - (reads[0] as number)).toBeGreaterThanOrEqual(1_370);
    for (const gap of gaps.slice(4)) expect(gap).toBeGreaterThanOrEqual(245);
    expect(handed).toEqual([]);
  });

  it("hands over a write of this process at once, though the idle stream's next read is a minute away", async () => {
    await start({ intervalMs: 60_000, maxIdleMs: 60_000, wake: (listener) => watchTableWrites(endpoint, listener) });
    await waitFor(() => reads.length > 0, 'the first read');
    await table.client.send(new PutCommand({ TableName: table.tableName, Item: { pk: 'WRITTEN#1', sk: 'ITEM' } }));
    await waitFor(() => handed.includes('WRITTEN#1'), 'the write to be handed over');
    expect(handed).toEqual(['WRITTEN#1']);
  });
});
