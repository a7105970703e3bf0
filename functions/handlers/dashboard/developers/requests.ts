import { requestLogReaderFromEnvironment } from '../../../adapters/request-log-reader';
import { ApiError } from '../../../core/errors';
import { type ApiRequestRecord, listApiRequests, parseApiRequestQuery } from '../../../core/requests/api-requests';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { fieldErrors } from '../../../http/pages/form-errors';
import { listHref } from '../../../http/pages/list-params';
import { logger } from '../../../observability/logger';
import { RequestsPage } from '../../../pages/views/dashboard/developers/requests';
import { requestsRoute } from '../../../routes/dashboard-resources';

const formFields = ['method', 'status_class', 'path_prefix', 'credential_id', 'per_page'] as const;

/**
 * Developers → Requests: the account's recent API requests in the page's mode, from the API's own
 * log (no write per request). Filters are checked here; a refused one is shown beside its field
 * (400), as on every list page.
 */
export const handler = dashboardPage(requestsRoute, async (request) => {
  const form = Object.fromEntries(formFields.map((name) => [name, request.query.get(name)?.trim() ?? ''])) as Record<
    (typeof formFields)[number],
    string
  >;
  // Taken in any case, shown as the form offers it.
  form.method = form.method.toUpperCase();
  const page = (
    requests: ApiRequestRecord[],
    status: number,
    extra: { filterErrors?: Record<string, string>; unavailable?: boolean } = {},
  ) => ({
    status,
    page: RequestsPage({
      shell: request.shell,
      requests,
      form,
      filterErrors: extra.filterErrors ?? {},
      unavailable: extra.unavailable,
      hrefOf: (changes) => listHref('/dashboard/developers/requests', request.query, changes),
    }),
  });
  let query;
  try {
    query = parseApiRequestQuery(request.query);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return page([], 400, { filterErrors: fieldErrors(error) });
  }
  try {
    return page(await listApiRequests(request.tenant, query, requestLogReaderFromEnvironment()), 200);
  } catch (error) {
    logger.error('request log not readable', { error: error as Error });
    return page([], 503, { unavailable: true });
  }
});
