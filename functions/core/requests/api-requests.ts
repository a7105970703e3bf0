import { type FieldIssue, validationError } from '../errors';
import type { Mode, Tenant } from '../tenancy';

/**
 * One API request as the API's own log line records it (`functions/observability/request-log.ts`):
 * the one line every API function writes per request, read back here. Nothing is written to the
 * table for it.
 */
export interface ApiRequestRecord {
  request_id: string;
  /** ISO 8601, when the answer was sent. */
  at: string;
  account_id: string;
  mode: Mode;
  method: string;
  /** The path only: a query string could carry values that are no business of a log. */
  path: string;
  status: number;
  duration_ms: number;
  credential_id: string;
  /** The redacted form (`sk_live_…a1b2`): never the credential's value. */
  credential_hint: string;
}

export const requestMethods = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
export const statusClasses = ['2xx', '3xx', '4xx', '5xx'] as const;
export const requestPageSizes = [25, 50, 100] as const;

export interface ApiRequestFilters {
  method?: (typeof requestMethods)[number];
  status_class?: (typeof statusClasses)[number];
  /** `/v1/projects`: requests whose path starts with it. */
  path_prefix?: string;
  /** A credential's id (`key_…`), as the API keys page lists them. */
  credential_id?: string;
}

export interface ApiRequestQuery extends ApiRequestFilters {
  limit: number;
}

/** Where the requests are read from: CloudWatch Logs Insights in AWS, the local runtime's own log locally. */
export interface RequestLogReader {
  /** The tenant's requests (its account, in its mode) matching the filters, newest first, at most `limit`. */
  recent(tenant: Tenant, query: ApiRequestQuery): Promise<ApiRequestRecord[]>;
}

/** Characters of a path prefix: those of the API's paths, nothing a query language could read as syntax. */
const pathPrefixPattern = /^\/[A-Za-z0-9/_.~-]{0,200}$/;
const credentialIdPattern = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The filters of the Requests page, checked on the server: a value outside its list or pattern is
 * refused with a clear error (every wrong field named), never passed on to a log query.
 */
export const parseApiRequestQuery = (params: URLSearchParams): ApiRequestQuery => {
  const issues: FieldIssue[] = [];
  const given = (name: string): string | undefined => params.get(name)?.trim() || undefined;
  const oneOf = <T extends string | number>(name: string, value: T | undefined, allowed: readonly T[]): T | undefined => {
    if (value === undefined || allowed.includes(value)) return value;
    issues.push({ field: name, issue: `must be one of ${allowed.join(', ')}` });
    return undefined;
  };
  const matching = (name: string, pattern: RegExp, rule: string): string | undefined => {
    const value = given(name);
    if (value === undefined || pattern.test(value)) return value;
    issues.push({ field: name, issue: rule });
    return undefined;
  };
  const size = given('per_page');
  const query: ApiRequestQuery = {
    limit: oneOf('per_page', size === undefined ? requestPageSizes[0] : Number(size), requestPageSizes) ?? requestPageSizes[0],
    method: oneOf('method', given('method')?.toUpperCase() as ApiRequestFilters['method'], requestMethods),
    status_class: oneOf('status_class', given('status_class') as ApiRequestFilters['status_class'], statusClasses),
    path_prefix: matching('path_prefix', pathPrefixPattern, 'must start with / and hold only letters, digits and / _ . ~ -'),
    credential_id: matching('credential_id', credentialIdPattern, 'must be a credential id such as key_…'),
  };
  if (issues.length > 0) throw validationError(issues);
  return query;
};

/** Whether a record is the tenant's and passes the filters: what every reader applies, whatever it reads. */
export const matchesRequestQuery = (record: ApiRequestRecord, tenant: Tenant, query: ApiRequestFilters): boolean =>
  record.account_id === tenant.accountId &&
  record.mode === tenant.mode &&
  (!query.method || record.method === query.method) &&
  (!query.status_class || `${Math.floor(record.status / 100)}xx` === query.status_class) &&
  (!query.path_prefix || record.path.startsWith(query.path_prefix)) &&
  (!query.credential_id || record.credential_id === query.credential_id);

/** The Requests page's one use case: the account's recent requests in the page's mode. */
export const listApiRequests = (tenant: Tenant, query: ApiRequestQuery, reader: RequestLogReader): Promise<ApiRequestRecord[]> =>
  reader.recent(tenant, query);
