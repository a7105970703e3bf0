import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mapWithConcurrency } from '../../core/concurrency';
import type { TableRef } from './client';
import { counterUpdate } from './list-page';
import { type TransactItem, withConflictRetry } from './transactions';

/** DynamoDB's limits for one TransactWriteItems request: 100 items, 4 MB (kept well under). */
const maxItemsPerTransaction = 100;
const maxBytesPerTransaction = 3_000_000;
/** Transactions of one call in flight at once. */
const transactionConcurrency = 4;

export interface CollectionItem {
  item: Record<string, unknown> & { pk: string; sk: string };
  /** The collection whose counter counts it. */
  collection: string;
}

/** Rough size of an item as DynamoDB counts it (names and values), for the request limit. */
const sizeOf = (item: Record<string, unknown>): number => JSON.stringify(item).length;

/**
 * Chunks of items whose puts and counter updates fit one transaction each. Items of one collection
 * are kept together, so that a chunk updates few counters.
 */
const chunksOf = (entries: readonly { index: number; entry: CollectionItem }[]): { index: number; entry: CollectionItem }[][] => {
  const sorted = [...entries].sort((a, b) =>
    a.entry.collection < b.entry.collection ? -1 : a.entry.collection > b.entry.collection ? 1 : a.index - b.index,
  );
  const chunks: { index: number; entry: CollectionItem }[][] = [];
  let chunk: { index: number; entry: CollectionItem }[] = [];
  let collections = new Set<string>();
  let bytes = 0;
  for (const next of sorted) {
    const size = sizeOf(next.entry.item);
    const addsCounter = collections.has(next.entry.collection) ? 0 : 1;
    if (
      chunk.length > 0 &&
      (chunk.length + collections.size + addsCounter + 1 > maxItemsPerTransaction || bytes + size > maxBytesPerTransaction)
    ) {
      chunks.push(chunk);
      chunk = [];
      collections = new Set();
      bytes = 0;
    }
    chunk.push(next);
    collections.add(next.entry.collection);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
};

/** Indexes (into the chunk) of the puts whose item existed already. */
const existingAt = (error: unknown, puts: number): number[] | undefined => {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  const reasons = error.CancellationReasons ?? [];
  const failed = reasons.flatMap((reason, i) => (i < puts && reason.Code === 'ConditionalCheckFailed' ? [i] : []));
  // Cancelled for another reason as well (a conflict, say): not ours to decide here.
  const other = reasons.some(
    (reason, i) => reason.Code && reason.Code !== 'None' && !(i < puts && reason.Code === 'ConditionalCheckFailed'),
  );
  return failed.length > 0 && !other ? failed : undefined;
};

/** Writes one chunk: new items put and counted; items that exist already left as they are (false). */
const writeChunk = async (
  table: TableRef,
  chunk: readonly { index: number; entry: CollectionItem }[],
  created: boolean[],
): Promise<void> => {
  let remaining = [...chunk];
  while (remaining.length > 0) {
    const counts = new Map<string, number>();
    for (const { entry } of remaining) counts.set(entry.collection, (counts.get(entry.collection) ?? 0) + 1);
    const items: TransactItem[] = [
      ...remaining.map(({ entry }) => ({
        Put: { TableName: table.tableName, Item: entry.item, ConditionExpression: 'attribute_not_exists(pk)' },
      })),
      ...[...counts].map(([collection, n]) => counterUpdate(table.tableName, collection, n)),
    ];
    try {
      await withConflictRetry(() => table.client.send(new TransactWriteCommand({ TransactItems: items })));
      for (const { index } of remaining) created[index] = true;
      return;
    } catch (error) {
      const existing = existingAt(error, remaining.length);
      if (!existing) throw error;
      // Written by an earlier run: the rest go again without them.
      const skip = new Set(existing);
      for (const i of existing) created[(remaining[i] as { index: number }).index] = false;
      remaining = remaining.filter((_, i) => !skip.has(i));
    }
  }
};

/**
 * Adds many new items to their collections and counts them, in as few transactions as DynamoDB's
 * limits allow (each item with its counter in the same transaction, so that counts never drift).
 * Per item, in order: false when an item with its key existed already (it is neither written nor
 * counted again).
 */
export const putManyInCollections = async (
  table: TableRef,
  entries: readonly CollectionItem[],
  onWritten?: (created: readonly number[]) => Promise<void>,
): Promise<boolean[]> => {
  const created = new Array<boolean>(entries.length).fill(false);
  const chunks = chunksOf(entries.map((entry, index) => ({ index, entry })));
  await mapWithConcurrency(chunks, transactionConcurrency, async (chunk) => {
    await writeChunk(table, chunk, created);
    await onWritten?.(chunk.flatMap(({ index }) => (created[index] ? [index] : [])));
  });
  return created;
};
