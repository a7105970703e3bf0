import { createHash } from 'node:crypto';

/** A list request as every list endpoint takes it (DESIGN.md: page, per_page, sort, order, dates). */
export interface ListQuery<Sort extends string = string> {
  page: number;
  perPage: number;
  sort: Sort;
  order: 'asc' | 'desc';
  /** Created at or after this instant (ms). */
  createdFrom?: number;
  /** Created strictly before this instant (ms). */
  createdUntil?: number;
  /** Opaque position handed out in the previous page's `next` link. */
  cursor?: string;
}

/**
 * A list query that asks for the total alone: a page of size 0 reads no items, so a filtered
 * total costs one count (a badge, the counts on Home) instead of a count and a page.
 */
export const totalOnly = <Sort extends string>(sort: Sort): ListQuery<Sort> => ({ page: 1, perPage: 0, sort, order: 'desc' });

export interface Page<T> {
  items: T[];
  /** Size of the whole filtered collection. */
  total: number;
  /** Cursor that continues right after this page, when there is a next page. */
  nextCursor?: string;
}

export interface PageMeta {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
}

export const pageMeta = (query: ListQuery, total: number): PageMeta => ({
  page: query.page,
  per_page: query.perPage,
  total,
  total_pages: Math.ceil(total / query.perPage),
});

/**
 * The `next` link's cursor: where the next page starts, bound to the page number it leads to and
 * to the query it came from, so it cannot be replayed against another sort or filter.
 */
export interface CursorContent {
  position: Record<string, unknown>;
  page: number;
  query: string;
}

/** What a cursor is bound to: every part of the query except the page itself. */
export const queryFingerprint = (query: ListQuery, filters: Record<string, unknown> = {}): string =>
  createHash('sha256')
    .update(JSON.stringify([query.sort, query.order, query.perPage, query.createdFrom ?? null, query.createdUntil ?? null, filters]))
    .digest('base64url')
    .slice(0, 16);

export const encodeCursor = (content: CursorContent): string => Buffer.from(JSON.stringify(content)).toString('base64url');

export const decodeCursor = (cursor: string): CursorContent | undefined => {
  try {
    const content = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorContent>;
    if (
      typeof content.page !== 'number' ||
      typeof content.query !== 'string' ||
      typeof content.position !== 'object' ||
      !content.position
    ) {
      return undefined;
    }
    return content as CursorContent;
  } catch {
    return undefined;
  }
};
