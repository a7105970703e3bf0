import { readFile, writeFile } from 'node:fs/promises';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { withoutSdkLogging } from '../../functions/adapters/dynamodb/client';

type StreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

/** How often the shards are listed again. */
const describeEveryMs = 1_000;

export interface StreamPollerOptions {
  endpoint: string;
  region: string;
  tableName: string;
  /** Where the last processed sequence number of each shard is kept across restarts. */
  checkpointFile: string;
  handler: StreamHandler;
  /** The pause after the first read that found nothing; it doubles with every further one, up to `maxIdleMs`. */
  intervalMs?: number;
  /** The longest pause while the stream is idle: Lambda polls a shard four times a second. */
  maxIdleMs?: number;
  /**
   * Ends a pause early when something may have been written (the runtime: its own writes to the
   * table, `watchTableWrites`): subscribes the listener and returns the function that unsubscribes it.
   */
  wake?: (listener: () => void) => () => void;
  /**
   * The records the handler is given (the event source mapping's filter): as Lambda does, the
   * filter applies before a batch is formed, so a batch holds up to `batchSize` matching records.
   */
  filter?: (record: _Record) => boolean;
  /** Matching records per invocation at most (the mapping's batch size). */
  batchSize?: number;
}

/** Reads of a shard gathered into one batch at most, when few records match. */
const maxReadsPerBatch = 10;

const toLambdaRecord = (record: _Record) => ({
  eventID: record.eventID,
  eventName: record.eventName as 'INSERT' | 'MODIFY' | 'REMOVE',
  eventSource: 'aws:dynamodb',
  dynamodb: record.dynamodb as NonNullable<DynamoDBStreamEvent['Records'][number]['dynamodb']>,
});

/**
 * What the stream-triggered function gets in AWS, done locally: reads DynamoDB Local's stream of
 * the table shard by shard and hands the records to the same handler, in order, resuming after a
 * restart where it stopped. A batch the handler reports as failed is read again.
 */
export const startStreamPoller = async (options: StreamPollerOptions): Promise<{ stop(): Promise<void> }> => {
  const config = { endpoint: options.endpoint, region: options.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  // GetRecords answers carry whole batches of images: the SDK's logger would copy each one.
  const streams = withoutSdkLogging(new DynamoDBStreamsClient(config));
  const { Table } = await new DynamoDBClient(config).send(new DescribeTableCommand({ TableName: options.tableName }));
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${options.tableName} has no stream`);

  let checkpoints: Record<string, string> = {};
  try {
    checkpoints = JSON.parse(await readFile(options.checkpointFile, 'utf8')) as Record<string, string>;
  } catch {
    checkpoints = {};
  }
  const iterators = new Map<string, string | undefined>();
  const finished = new Set<string>();

  const iteratorFor = async (shardId: string): Promise<string | undefined> => {
    if (iterators.has(shardId)) return iterators.get(shardId);
    const after = checkpoints[shardId];
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    iterators.set(shardId, ShardIterator);
    return ShardIterator;
  };

  const matches = options.filter ?? (() => true);
  const batchSize = options.batchSize ?? 100;

  /**
   * Reads the shard until a batch of matching records is full, a read comes back empty or the shard
   * ends: true when it had records (there may be more right behind them).
   */
  const pollShard = async (shardId: string): Promise<boolean> => {
    let iterator = await iteratorFor(shardId);
    if (!iterator) {
      finished.add(shardId);
      return false;
    }
    const Records: _Record[] = [];
    let batch: _Record[] = [];
    let NextShardIterator: string | undefined = iterator;
    for (let reads = 0; NextShardIterator && batch.length < batchSize && reads < maxReadsPerBatch; reads += 1) {
      const read: GetRecordsCommandOutput = await streams.send(
        new GetRecordsCommand({ ShardIterator: iterator, Limit: batchSize - batch.length }),
      );
      NextShardIterator = read.NextShardIterator;
      if (NextShardIterator) iterator = NextShardIterator;
      const records = read.Records ?? [];
      Records.push(...records);
      batch = batch.concat(records.filter(matches));
      if (records.length === 0) break;
    }
    if (Records.length > 0) {
      const result =
        batch.length > 0
          ? await options.handler({ Records: batch.map(toLambdaRecord) as DynamoDBStreamEvent['Records'] })
          : { batchItemFailures: [] };
      const failedAt = result.batchItemFailures[0]?.itemIdentifier;
      const processed = failedAt ? Records.filter((r) => (r.dynamodb?.SequenceNumber ?? '') < failedAt) : Records;
      const last = processed[processed.length - 1]?.dynamodb?.SequenceNumber;
      if (last) {
        checkpoints[shardId] = last;
        await writeFile(options.checkpointFile, JSON.stringify(checkpoints));
      }
      if (failedAt) {
        // Read again from the failed record on the next round.
        iterators.delete(shardId);
        return false;
      }
    }
    iterators.set(shardId, NextShardIterator);
    if (!NextShardIterator) finished.add(shardId);
    return Records.length > 0;
  };

  /** The stream's shards, described again at most every `describeEveryMs` (new shards appear rarely). */
  let shards: string[] = [];
  let describedAt = -Infinity;
  const currentShards = async (): Promise<string[]> => {
    if (performance.now() - describedAt >= describeEveryMs) {
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
      shards = (StreamDescription?.Shards ?? []).flatMap((shard) => (shard.ShardId ? [shard.ShardId] : []));
      describedAt = performance.now();
    }
    return shards.filter((shardId) => !finished.has(shardId));
  };

  let running = true;
  const firstPauseMs = options.intervalMs ?? 25;
  const maxIdleMs = options.maxIdleMs ?? 250;
  /** Set while pausing: ends the pause. */
  let endPause: (() => void) | undefined;
  /** Something was written since the round began. */
  let woken = false;
  const unsubscribe = options.wake?.(() => {
    woken = true;
    endPause?.();
  });
  const pause = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        endPause = undefined;
        resolve();
      }
      endPause = done;
    });

  const loop = (async () => {
    let idleMs = firstPauseMs;
    while (running) {
      let busy = false;
      woken = false;
      try {
        // Shards one after the other, as before: a shard's records stay in order.
        for (const shardId of await currentShards()) busy = (await pollShard(shardId)) || busy;
      } catch (error) {
        if (running) console.error('local stream poller:', (error as Error).message);
      }
      // Records were there, or were written meanwhile: read again at once, as Lambda reads a busy
      // shard without pause. An idle stream is read less and less often, at once again after a write.
      if (busy || woken || !running) {
        idleMs = firstPauseMs;
        continue;
      }
      await pause(idleMs);
      idleMs = woken ? firstPauseMs : Math.min(maxIdleMs, idleMs * 2);
    }
  })();

  return {
    async stop() {
      running = false;
      unsubscribe?.();
      endPause?.();
      await loop;
      streams.destroy();
    },
  };
};
