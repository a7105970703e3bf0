import type { ListQuery } from '../../core/pagination';

/**
 * A page's list parameters from its address: page, sort and order. A page number out of range,
 * or a sort or order the page's form does not offer, falls back to the default (a page whose form
 * offers them checks them as filters).
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

/**
 * What is wrong with each filter a list page's address gives, by parameter. A list page answers
 * 400 with each beside its field (what was given kept) and lists nothing, as the Requests page
 * does: ignoring the value would list everything under a filter that seems to apply.
 */
export type FilterErrors = Record<string, string>;

/** A filter's value: one of `allowed`, or undefined when not given (absent or empty: any); another is noted in `errors`. */
export const checkedFilter = <T extends string>(
  query: URLSearchParams,
  name: string,
  allowed: readonly T[],
  errors: FilterErrors,
): T | undefined => {
  const value = query.get(name) ?? '';
  if (value === '') return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  errors[name] = `must be one of ${allowed.join(', ')}`;
  return undefined;
};

/** A day filter (`YYYY-MM-DD`): its text as given, and its start in ms when it is a day of the calendar; another is noted in `errors`. */
export const checkedDay = (query: URLSearchParams, name: string, errors: FilterErrors): { text: string; ms?: number } => {
  const text = query.get(name) ?? '';
  if (text === '') return { text };
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00.000Z`) : NaN;
  // Date.parse takes 2026-02-30 as 2 March: only a day that is itself is one.
  if (Number.isFinite(ms) && new Date(ms).toISOString().startsWith(text)) return { text, ms };
  errors[name] = 'must be a date (YYYY-MM-DD)';
  return { text };
};

/** Whether a filter was refused: the page answers 400 and lists nothing. */
export const filtersRefused = (errors: FilterErrors): boolean => Object.keys(errors).length > 0;

/** The filters to show in the form: those applied, and each refused one as it was given (to be corrected). */
export const shownFilters = <F extends Record<string, string | undefined>>(
  applied: F,
  query: URLSearchParams,
  errors: FilterErrors,
): F & Record<string, string | undefined> => ({
  ...applied,
  ...Object.fromEntries(Object.keys(errors).map((name) => [name, query.get(name) ?? undefined])),
});

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
