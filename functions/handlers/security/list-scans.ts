import { pageMeta } from '../../core/pagination';
import { listScans } from '../../core/security/security-use-cases';
import { viewOfScan } from '../../core/security/views';
import { apiReadHandler } from '../../http/api-handler';
import { toListQuery } from '../../http/list-query';
import { listScansRoute } from '../../routes/security';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoScanList } from '../../adapters/dynamodb/scan-repository';

// The list alone: no scan writes, no findings.
const deps = { scans: dynamoScanList(tableFromEnvironment()) };

export const handler = apiReadHandler(listScansRoute, async ({ principal, query: params }) => {
  const query = toListQuery(params, 'created_at');
  const page = await listScans(principal, query, { project_id: params.project_id, status: params.status }, deps);
  return { list: page.items.map(viewOfScan), meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
});
