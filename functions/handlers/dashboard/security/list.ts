import { findingStatuses } from '../../../core/security/finding';
import { scanTypes, severities } from '../../../core/security/scanner';
import { listFindings, listScans } from '../../../core/security/security-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { filterValue, listHref, pageListQuery } from '../../../http/pages/list-params';
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
  const filters = {
    severity: filterValue(request.query, 'severity', severities),
    status: filterValue(request.query, 'status', findingStatuses),
    type: filterValue(request.query, 'type', scanTypes),
    project_id: request.query.get('project_id')?.trim() || undefined,
  };
  const [findings, scans] = await Promise.all([
    listFindings(request.tenant, query, filters, deps),
    listScans(request.tenant, { page: 1, perPage: 10, sort: 'created_at', order: 'desc' }, { project_id: filters.project_id }, deps),
  ]);
  return {
    page: SecurityPage({
      shell: request.shell,
      findings: findings.items,
      scans: scans.items,
      page: query.page,
      total: findings.total,
      totalPages: Math.ceil(findings.total / query.perPage),
      filters,
      hrefOf: (n) => listHref('/dashboard/security', request.query, { page: n }),
    }),
  };
});
