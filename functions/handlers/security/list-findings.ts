import { pageMeta } from '../../core/pagination';
import { listFindings } from '../../core/security/security-use-cases';
import { viewOfFinding } from '../../core/security/views';
import { apiReadHandler } from '../../http/api-handler';
import { toListQuery } from '../../http/list-query';
import { listFindingsRoute } from '../../routes/security';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoFindingList } from '../../adapters/dynamodb/finding-repository';

// The list alone: no finding writes, no scans.
const deps = { findings: dynamoFindingList(tableFromEnvironment()) };

export const handler = apiReadHandler(listFindingsRoute, async ({ principal, query: params }) => {
  const query = toListQuery(params, 'created_at');
  const filters = {
    severity: params.severity,
    status: params.status,
    project_id: params.project_id,
    type: params.type,
    scan_id: params.scan_id,
  };
  const page = await listFindings(principal, query, filters, deps);
  return { list: page.items.map(viewOfFinding), meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
});
