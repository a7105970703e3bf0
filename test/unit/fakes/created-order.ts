import { decodeTime } from 'ulid';
import type { ListQuery, Page } from '../../../functions/core/pagination';

/** The order of the table's keys: plain code-unit order (`<` on strings), never the locale's. */
export const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** When an id (`prefix_` + ULID) was made: what the adapters' created ranges compare. */
const createdMsOf = (id: string): number => decodeTime(id.slice(id.indexOf('_') + 1));

/** Whether the record falls in the query's [createdFrom, createdUntil), as the adapters' key ranges do. */
export const inCreatedRange = (record: { id: string }, query: Pick<ListQuery, 'createdFrom' | 'createdUntil'>): boolean => {
  const ms = createdMsOf(record.id);
  return (query.createdFrom === undefined || ms >= query.createdFrom) && (query.createdUntil === undefined || ms < query.createdUntil);
};

/**
 * One page of a collection listed by creation, as the DynamoDB adapters list it: by id (ULIDs sort
 * by creation time) in the query's order, within its created range, with the filtered total.
 * `copy` keeps the caller from changing what the fake stores. Cursors are the adapters' own: a
 * fake pages by number only, and hands out a placeholder cursor when more items follow (what
 * makes the `next` link), as `fakeNextCursor` does.
 */
export const createdOrderPage = <T extends { id: string }>(records: Iterable<T>, query: ListQuery, copy: (record: T) => T): Page<T> => {
  const direction = query.order === 'asc' ? 1 : -1;
  const matching = [...records].filter((record) => inCreatedRange(record, query)).sort((a, b) => direction * byId(a, b));
  const start = (query.page - 1) * query.perPage;
  return {
    items: matching.slice(start, start + query.perPage).map(copy),
    total: matching.length,
    nextCursor: fakeNextCursor(query, matching.length),
  };
};

/** A placeholder cursor when items follow the page (the fakes page by number, ignoring it). */
export const fakeNextCursor = (query: Pick<ListQuery, 'page' | 'perPage'>, matching: number): string | undefined =>
  query.perPage > 0 && query.page * query.perPage < matching ? `fake-page-${query.page + 1}` : undefined;
