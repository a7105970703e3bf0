import type { IdKind } from '../../core/ids';
import type { ListQuery, Page } from '../../core/pagination';
import type { Tenant } from '../../core/tenancy';
import type { TableRef } from './client';
import { countRange, counterValue, createdRangeOn, isDateFiltered, isEmptyCreatedRange, listPage, withEqualityFilters } from './list-page';
import { ownedRecord } from './keys';

/**
 * An entity kept in two collections, each with its counter: all of the account's on the table, and
 * each project's on gsi1, both sorted by `<sortKeyPrefix><id>`.
 */
export interface AccountOrProjectCollection {
  ofAccount: (tenant: Tenant) => string;
  ofProject: (tenant: Tenant, projectId: string) => string;
  sortKeyPrefix: string;
  idKind: IdKind;
}

/** The items created in the query's date range: a project's when `projectId` is given, else the account's. */
export const accountOrProjectRange = (
  collection: AccountOrProjectCollection,
  tenant: Tenant,
  query: ListQuery,
  projectId: string | undefined,
) =>
  projectId
    ? createdRangeOn(collection.ofProject(tenant, projectId), 'gsi1', collection.sortKeyPrefix, collection.idKind, query)
    : createdRangeOn(collection.ofAccount(tenant), null, collection.sortKeyPrefix, collection.idKind, query);

/**
 * The list of such an entity, optionally of one project and of one status. The total is the
 * collection's counter unless a status or a date narrows the range; then it is counted.
 */
export const listOfAccountOrProject =
  <T>(table: TableRef, collection: AccountOrProjectCollection) =>
  async (tenant: Tenant, query: ListQuery, filters: { project_id?: string; status?: string }): Promise<Page<T>> => {
    if (isEmptyCreatedRange(query)) return { items: [], total: 0 };
    const base = accountOrProjectRange(collection, tenant, query, filters.project_id);
    const spec = withEqualityFilters(base, { status: filters.status });
    const total = filters.status || isDateFiltered(query) ? await countRange(table, spec) : await counterValue(table, base.partition);
    const page = await listPage<Record<string, unknown>>(table, spec, query, total, {
      project_id: filters.project_id ?? null,
      status: filters.status ?? null,
    });
    return { ...page, items: page.items.map((item) => ownedRecord<T>(item)) };
  };
