import { findingStatuses } from '../../../core/security/finding';
import { scanTypes, severities } from '../../../core/security/scanner';
import { listFindings, listScans } from '../../../core/security/security-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { checkedFilter, type FilterErrors, filtersRefused, listHref, pageListQuery, shownFilters } from '../../../http/pages/list-params';
import { SecurityPage } from '../../../pages/views/dashboard/security/security';
import { securityRoute } from '../../../routes/dashboard-resources';
import { securityDeps } from '../../security/deps';

/** Findings filtered by severity, status, type and project (most severe first), and the latest scans. */
export const handler = dashboardPage(securityRoute, async (request) => {
  const deps = securityDeps();
  const query = {
    ...pageListQuery(request.query, { sorts: ['severity', 'created_at'] as const, defaultSort: 'severity' }),
    order: 'asc' as const,
  };
  const errors: FilterErrors = {};
  const filters = {
    severity: checkedFilter(request.query, 'severity', severities, errors),
    status: checkedFilter(request.query, 'status', findingStatuses, errors),
    type: checkedFilter(request.query, 'type', scanTypes, errors),
    project_id: request.query.get('project_id')?.trim() || undefined,
  };
  const refused = filtersRefused(errors);
  // A refused filter lists no findings; the latest scans, which it does not filter, stay.
  const [findings, scans] = await Promise.all([
    refused ? { items: [], total: 0 } : listFindings(request.tenant, query, filters, deps),
    listScans(request.tenant, { page: 1, perPage: 10, sort: 'created_at', order: 'desc' }, { project_id: filters.project_id }, deps),
  ]);
  return {
    status: refused ? 400 : 200,
    page: SecurityPage({
      shell: request.shell,
      findings: findings.items,
      scans: scans.items,
      page: query.page,
      total: findings.total,
      totalPages: Math.ceil(findings.total / query.perPage),
      filters: shownFilters(filters, request.query, errors),
      filterErrors: errors,
      hrefOf: (n) => listHref('/dashboard/security', request.query, { page: n }),
    }),
  };
});
