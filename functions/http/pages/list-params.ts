import type { ListQuery } from '../../core/pagination';

/**
 * A page's list parameters from its address: page, sort and order, and filters from an allowed
 * set. Pages forgive what the API refuses: a value out of range or not allowed falls back to the
 * default (the filter form shows what applies).
 */
export const pageListQuery = <S extends string>(
  query: URLSearchParams,
  options: { sorts: readonly S[]; defaultSort: S; perPage?: number },
): ListQuery<S> => {
  const page = Number(query.get('page'));
  const sort = query.get('sort') as S | null;
  return {
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
    perPage: options.perPage ?? 20,
    sort: sort && options.sorts.includes(sort) ? sort : options.defaultSort,
    order: query.get('order') === 'asc' ? 'asc' : 'desc',
  };
};

/** A filter's value when it is one of `allowed`, else undefined (no filter). */
export const filterValue = <T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T | undefined => {
  const value = query.get(name);
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
};

/** The address of the same list with some parameters changed (empty values dropped). */
export const listHref = (path: string, query: URLSearchParams, changes: Record<string, string | number | undefined>): string => {
  const next = new URLSearchParams(query);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined || value === '') next.delete(name);
    else next.set(name, String(value));
  }
  const text = next.toString();
  return text ? `${path}?${text}` : path;
};
