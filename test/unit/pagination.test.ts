import { decodeCursor, encodeCursor, type ListQuery, pageMeta, type PageMeta, queryFingerprint } from '../../functions/core/pagination';
import { paginationLinks } from '../../functions/http/links';
import { apiEvent } from './fakes/api-gateway-event';

const query: ListQuery = { page: 2, perPage: 20, sort: 'created_at', order: 'desc' };

describe('cursors', () => {
  it('round-trip their content as URL-safe text', () => {
    const content = { position: { pk: 'ACCOUNT#acct_1#MODE#live', sk: 'PROJECT#proj_01J' }, page: 3, query: queryFingerprint(query) };
    const cursor = encodeCursor(content);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(content);
  });

  it.each([
    ['not base64', '%%%'],
    ['base64 of text that is not JSON', Buffer.from('hello').toString('base64url')],
    ['JSON null', Buffer.from('null').toString('base64url')],
    ['a JSON number', Buffer.from('42').toString('base64url')],
    ['an object without a page', Buffer.from(JSON.stringify({ position: {}, query: 'q' })).toString('base64url')],
    ['an object without a query', Buffer.from(JSON.stringify({ position: {}, page: 2 })).toString('base64url')],
    ['an object with a null position', Buffer.from(JSON.stringify({ position: null, page: 2, query: 'q' })).toString('base64url')],
    ['an empty string', ''],
  ])('decode %s to undefined', (_what, cursor) => {
    expect(decodeCursor(cursor)).toBeUndefined();
  });

  it('are bound to everything in the query but the page and the cursor itself', () => {
    const base = queryFingerprint(query, { status: 'open' });
    expect(queryFingerprint({ ...query, page: 9, cursor: 'abc' }, { status: 'open' })).toBe(base);
    expect(queryFingerprint({ ...query, sort: 'name' }, { status: 'open' })).not.toBe(base);
    expect(queryFingerprint({ ...query, order: 'asc' }, { status: 'open' })).not.toBe(base);
    expect(queryFingerprint({ ...query, perPage: 21 }, { status: 'open' })).not.toBe(base);
    expect(queryFingerprint({ ...query, createdFrom: 0 }, { status: 'open' })).not.toBe(base);
    expect(queryFingerprint({ ...query, createdUntil: 0 }, { status: 'open' })).not.toBe(base);
    expect(queryFingerprint(query, { status: 'resolved' })).not.toBe(base);
  });
});

describe('page meta', () => {
  it('counts whole pages, rounding up', () => {
    expect(pageMeta({ ...query, page: 1, perPage: 20 }, 41)).toEqual({ page: 1, per_page: 20, total: 41, total_pages: 3 });
    expect(pageMeta({ ...query, page: 1, perPage: 20 }, 40).total_pages).toBe(2);
    expect(pageMeta({ ...query, page: 1, perPage: 20 }, 0).total_pages).toBe(0);
  });
});

/** The Link header as { rel: URL }. */
const linksOf = (header: string): Record<string, URL> =>
  Object.fromEntries(
    header.split(', ').map((part) => {
      const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
      if (!match?.[1] || !match[2]) throw new Error(`not an RFC 8288 link: ${part}`);
      return [match[2], new URL(match[1])];
    }),
  );

const meta = (page: number, totalPages: number): PageMeta => ({ page, per_page: 10, total: totalPages * 10, total_pages: totalPages });
const listEvent = (search = 'per_page=10&sort=name') => apiEvent({ method: 'GET', path: `/v1/projects?${search}` });

describe('paginationLinks', () => {
  it('on the first page: first, next and last, no prev', () => {
    const links = linksOf(paginationLinks(listEvent(), meta(1, 3), 'CURSOR2'));
    expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next']);
    expect(links.first?.searchParams.get('page')).toBe('1');
    expect(links.next?.searchParams.get('page')).toBe('2');
    expect(links.last?.searchParams.get('page')).toBe('3');
  });

  it('are absolute URLs of the same path that keep the other query parameters', () => {
    const links = linksOf(paginationLinks(listEvent(), meta(1, 3), 'CURSOR2'));
    for (const url of Object.values(links)) {
      expect(url.origin).toBe('https://api.example.test');
      expect(url.pathname).toBe('/v1/projects');
      expect(url.searchParams.get('per_page')).toBe('10');
      expect(url.searchParams.get('sort')).toBe('name');
    }
  });

  it('next carries the cursor; first, prev and last do not carry the old one', () => {
    const links = linksOf(paginationLinks(listEvent('per_page=10&page=2&cursor=OLD'), meta(2, 3), 'CURSOR3'));
    expect(links.next?.searchParams.get('cursor')).toBe('CURSOR3');
    expect(links.next?.searchParams.get('page')).toBe('3');
    for (const rel of ['first', 'prev', 'last']) expect(links[rel]?.searchParams.has('cursor')).toBe(false);
    expect(links.prev?.searchParams.get('page')).toBe('1');
  });

  it('on the last page: first, prev and last, no next', () => {
    const links = linksOf(paginationLinks(listEvent(), meta(3, 3)));
    expect(Object.keys(links).sort()).toEqual(['first', 'last', 'prev']);
    expect(links.prev?.searchParams.get('page')).toBe('2');
    expect(links.last?.searchParams.get('page')).toBe('3');
  });

  it('on a page past the end: still first and last, prev leads back to the last page, no next', () => {
    const links = linksOf(paginationLinks(listEvent('page=7'), meta(7, 3)));
    expect(Object.keys(links).sort()).toEqual(['first', 'last', 'prev']);
    expect(links.first?.searchParams.get('page')).toBe('1');
    expect(links.last?.searchParams.get('page')).toBe('3');
    expect(links.prev?.searchParams.get('page')).toBe('3');
  });

  it('next is there exactly when the list has more after this page, whatever the count says', () => {
    // The count grew while a caller walked: more pages by it, none left after the walk's position.
    expect(linksOf(paginationLinks(listEvent('page=3'), meta(3, 4))).next).toBeUndefined();
    // The count shrank: no more pages by it, more items after the position.
    expect(linksOf(paginationLinks(listEvent('page=2'), meta(2, 2), 'CURSOR3')).next?.searchParams.get('cursor')).toBe('CURSOR3');
  });

  it('of an empty collection: first and last both page 1', () => {
    const links = linksOf(paginationLinks(listEvent(), { page: 1, per_page: 10, total: 0, total_pages: 0 }));
    expect(Object.keys(links).sort()).toEqual(['first', 'last']);
    expect(links.first?.searchParams.get('page')).toBe('1');
    expect(links.last?.searchParams.get('page')).toBe('1');
  });
});
