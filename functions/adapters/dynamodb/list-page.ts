import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { isoTime } from '../../core/clock';
import { type IdKind, idPrefixes, lowestIdAt } from '../../core/ids';
import { validationError } from '../../core/errors';
import { decodeCursor, encodeCursor, type ListQuery, type Page, queryFingerprint } from '../../core/pagination';
import type { TableRef } from './client';
import { entityTypes, idRangeEnd, withoutKeys } from './keys';
import * as keys from './table-keys';

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
  if (query.perPage === 0) return { items: [], total };
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

  // One item beyond the page says whether another follows: what the range holds now decides the
  // `next` link, not the count, which moves while a caller walks (items created or deleted meanwhile).
  const read = await readRange(table, spec, ascending, start, query.perPage + 1, false).catch((error: unknown) => {
    // A hand-made position that names no place in this range.
    if (query.cursor !== undefined && error instanceof Error && error.name === 'ValidationException') throw invalidCursor();
    throw error;
  });
  const items = read.items.slice(0, query.perPage);
  const last = items[items.length - 1];
  const hasNext = read.items.length > query.perPage && last !== undefined;
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

/**
 * The sort-key range of the items created in [createdFrom, createdUntil): ids are prefix + ULID,
 * so a time range is a key range. `skPrefix` is the label before the id (`PROJECT#`), `idPrefix`
 * the id's own (`proj_`).
 */
export const createdKeyRange = (skPrefix: string, idKind: IdKind, query: ListQuery): { low: string; high: string } => ({
  low: skPrefix + (query.createdFrom === undefined || query.createdFrom <= 0 ? idPrefixes[idKind] : lowestIdAt(idKind, query.createdFrom)),
  high: skPrefix + (query.createdUntil === undefined ? idPrefixes[idKind] : lowestIdAt(idKind, query.createdUntil - 1)) + idRangeEnd,
});

export const isDateFiltered = (query: ListQuery): boolean => query.createdFrom !== undefined || query.createdUntil !== undefined;

/** No id can fall in a range that ends at or before it starts, or before 1970 (ULID time). */
export const isEmptyCreatedRange = (query: ListQuery): boolean =>
  query.createdUntil !== undefined && query.createdUntil <= Math.max(query.createdFrom ?? 0, 0);

/** FilterExpression parts for a created_at range on an index sorted by something else. */
export const createdAtFilter = (query: ListQuery): { expressions: string[]; values: Record<string, string> } => {
  const expressions: string[] = [];
  const values: Record<string, string> = {};
  if (query.createdFrom !== undefined) {
    expressions.push('created_at >= :createdFrom');
    values[':createdFrom'] = isoTime(Math.max(query.createdFrom, 0));
  }
  if (query.createdUntil !== undefined) {
    expressions.push('created_at < :createdUntil');
    values[':createdUntil'] = isoTime(Math.max(query.createdUntil, 0));
  }
  return { expressions, values };
};

/** The whole size of a collection, kept in the same transaction as every create and delete in it. */
export const counterValue = async (table: TableRef, collection: string): Promise<number> => {
  const counter = await table.client.send(new GetCommand({ TableName: table.tableName, Key: keys.counter(collection) }));
  return Number(counter.Item?.count ?? 0);
};

/** The transaction item that moves a collection's counter. */
export const counterUpdate = (tableName: string, collection: string, by: number) => ({
  Update: {
    TableName: tableName,
    Key: keys.counter(collection),
    UpdateExpression: 'ADD #count :by SET entity = :entity',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':by': by, ':entity': entityTypes.counter },
  },
});

/**
 * A collection's items created in the query's date range, in id (= creation) order, optionally
 * filtered: `filters` maps each filter expression to its values; `names` are the attribute names
 * the expressions use (only those used are sent).
 */
export const createdRangeSpec = (
  partition: string,
  skPrefix: string,
  idKind: IdKind,
  query: ListQuery,
  filters: Record<string, Record<string, unknown>> = {},
  names: Record<string, string> = {},
): RangeSpec => {
  const { low, high } = createdKeyRange(skPrefix, idKind, query);
  const expressions = Object.keys(filters);
  const usedNames = Object.fromEntries(Object.entries(names).filter(([name]) => expressions.some((e) => e.includes(name))));
  return {
    query: {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
      ExpressionAttributeValues: { ':pk': partition, ':low': low, ':high': high, ...Object.assign({}, ...Object.values(filters)) },
      ...(expressions.length > 0 ? { FilterExpression: expressions.join(' AND ') } : {}),
      ...(Object.keys(usedNames).length > 0 ? { ExpressionAttributeNames: usedNames } : {}),
    },
    keyAttributes: ['pk', 'sk'],
    partition,
  };
};

/** The range with `attribute = value` filters added for every filter that is set. */
export const withEqualityFilters = (spec: RangeSpec, filters: Record<string, unknown>): RangeSpec => {
  const entries = Object.entries(filters).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return spec;
  const expressions = entries.map((_, i) => `#f${i} = :f${i}`);
  return {
    ...spec,
    query: {
      ...spec.query,
      FilterExpression: [spec.query.FilterExpression, ...expressions].filter(Boolean).join(' AND '),
      ExpressionAttributeNames: {
        ...spec.query.ExpressionAttributeNames,
        ...Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
      },
      ExpressionAttributeValues: {
        ...spec.query.ExpressionAttributeValues,
        ...Object.fromEntries(entries.map(([, value], i) => [`:f${i}`, value])),
      },
    },
  };
};

/**
 * A collection's items created in the query's date range, in id order: on the table (`index`
 * null) or on an index whose sort key is `<skPrefix><id>` too.
 */
export const createdRangeOn = (
  partition: string,
  index: 'gsi1' | 'gsi2' | null,
  skPrefix: string,
  idKind: IdKind,
  query: ListQuery,
): RangeSpec => {
  const { low, high } = createdKeyRange(skPrefix, idKind, query);
  const [pk, sk] = index ? [`${index}pk`, `${index}sk`] : ['pk', 'sk'];
  return {
    query: {
      ...(index ? { IndexName: index } : {}),
      KeyConditionExpression: `${pk} = :pk AND ${sk} BETWEEN :low AND :high`,
      ExpressionAttributeValues: { ':pk': partition, ':low': low, ':high': high },
    },
    keyAttributes: index ? ['pk', 'sk', `${index}pk`, `${index}sk`] : ['pk', 'sk'],
    partition,
  };
};
