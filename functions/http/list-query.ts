import type { ListQuery } from '../core/pagination';

export const defaultPerPage = 20;

/** The list parameters as parsed by the route's query schema, with DESIGN.md's defaults. */
export interface ParsedListParams<S extends string> {
  page?: number;
  per_page?: number;
  sort?: S;
  order?: 'asc' | 'desc';
  created_after?: number;
  created_before?: number;
  cursor?: string;
}

export const toListQuery = <S extends string>(params: ParsedListParams<S>, defaultSort: S): ListQuery<S> => ({
  page: params.page ?? 1,
  perPage: params.per_page ?? defaultPerPage,
  sort: params.sort ?? defaultSort,
  order: params.order ?? 'desc',
  createdFrom: params.created_after,
  createdUntil: params.created_before,
  cursor: params.cursor,
});
