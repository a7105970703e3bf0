import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { validationError } from '../../core/errors';
import { decodeCursor, encodeCursor, type ListQuery, type Page, queryFingerprint } from '../../core/pagination';
import type { TableRef } from './client';
import { withoutKeys } from './keys';

type Item = Record<string, unknown>;

/** One ordered range of the table or of an index, with an optional filter. */
export interface RangeSpec {
  /** Query input without the table name, limit, start key or direction. */
  query: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey' | 'ScanIndexForward'>;
  /** The attributes that make up a position in this range (table keys plus index keys). */
  keyAttributes: readonly string[];
  /** The collection's partition value: never put in a cursor, always the caller's own. */
  partition: string;
}

const positionOf = (item: Item, keyAttributes: readonly string[]): Item =>
  Object.fromEntries(keyAttributes.map((name) => [name, item[name]]));

/** A cursor's position holds only the sort values; the partition comes from the caller's tenant. */
const cursorPosition = (item: Item, spec: RangeSpec): Item =>
  Object.fromEntries(Object.entries(positionOf(item, spec.keyAttributes)).filter(([, value]) => value !== spec.partition));

const startKeyFromCursor = (position: Record<string, unknown>, spec: RangeSpec): Item | undefined => {
  const key: Item = {};
  for (const name of spec.keyAttributes) {
    const value = position[name] ?? spec.partition;
    if (typeof value !== 'string' || value.length === 0 || value.length > 1024) return undefined;
    key[name] = value;
  }
  return Object.keys(position).every((name) => spec.keyAttributes.includes(name)) ? key : undefined;
};

const invalidCursor = () =>
  validationError([{ field: 'cursor', issue: 'is not a cursor of this list query and page; follow the Link header as given' }]);

/** Reads up to `wanted` matching items of the range from `start`, across 1 MB pages and filters. */
const readRange = async (
  table: TableRef,
  spec: RangeSpec,
  ascending: boolean,
  start: Item | undefined,
  wanted: number,
  keysOnly: boolean,
): Promise<{ items: Item[]; exhausted: boolean }> => {
  const items: Item[] = [];
  let startKey = start;
  while (items.length < wanted) {
    const projection = keysOnly
      ? {
          ProjectionExpression: spec.keyAttributes.map((_, i) => `#k${i}`).join(', '),
          ExpressionAttributeNames: {
            ...spec.query.ExpressionAttributeNames,
            ...Object.fromEntries(spec.keyAttributes.map((name, i) => [`#k${i}`, name])),
          },
        }
      : {};
    const result = await table.client.send(
      new QueryCommand({
        ...spec.query,
        ...projection,
        TableName: table.tableName,
        ScanIndexForward: ascending,
        ExclusiveStartKey: startKey,
        Limit: wanted - items.length,
      }),
    );
    items.push(...(result.Items ?? []));
    if (!result.LastEvaluatedKey) return { items, exhausted: true };
    startKey = result.LastEvaluatedKey;
  }
  return { items, exhausted: false };
};

/**
 * One page of a list. Following the `next` cursor costs one page of reads however deep the walk
 * goes; jumping straight to page N reads the keys of the pages before it once.
 */
export const listPage = async <T>(
  table: TableRef,
  spec: RangeSpec,
  query: ListQuery,
  total: number,
  filters: Record<string, unknown> = {},
): Promise<Page<T>> => {
  // Bound to the collection too: another tenant's cursor is refused, not silently reinterpreted.
  const fingerprint = queryFingerprint(query, { ...filters, collection: spec.partition });
  const ascending = query.order === 'asc';
  let start: Item | undefined;

  if (query.cursor !== undefined) {
    const cursor = decodeCursor(query.cursor);
    if (!cursor || cursor.query !== fingerprint || cursor.page !== query.page) throw invalidCursor();
    start = startKeyFromCursor(cursor.position, spec);
    if (!start) throw invalidCursor();
  } else if (query.page > 1) {
    const skip = (query.page - 1) * query.perPage;
    if (skip >= total) return { items: [], total };
    const skipped = await readRange(table, spec, ascending, undefined, skip, true);
    if (skipped.items.length < skip) return { items: [], total };
    start = positionOf(skipped.items[skipped.items.length - 1] as Item, spec.keyAttributes);
  }

  const { items } = await readRange(table, spec, ascending, start, query.perPage, false).catch((error: unknown) => {
    // A hand-made position that names no place in this range.
    if (query.cursor !== undefined && error instanceof Error && error.name === 'ValidationException') throw invalidCursor();
    throw error;
  });
  const last = items[items.length - 1];
  const hasNext = query.page * query.perPage < total && items.length === query.perPage && last !== undefined;
  return {
    items: items.map((item) => withoutKeys<T>(item)),
    total,
    nextCursor: hasNext ? encodeCursor({ position: cursorPosition(last, spec), page: query.page + 1, query: fingerprint }) : undefined,
  };
};

/** Counts the matching items of a range (reads the range once). */
export const countRange = async (table: TableRef, spec: RangeSpec): Promise<number> => {
  let count = 0;
  let startKey: Item | undefined;
  do {
    const result = await table.client.send(
      new QueryCommand({ ...spec.query, TableName: table.tableName, Select: 'COUNT', ExclusiveStartKey: startKey }),
    );
    count += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return count;
};
