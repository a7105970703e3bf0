import { createScan } from '../../core/security/security-use-cases';
import { securityJobsFromEnvironment } from '../../adapters/security/security-jobs';
import { apiHandler } from '../../http/api-handler';
import { createScanRoute } from '../../routes/security';
import { securityDeps } from './deps';
import { viewOfScan } from '../../core/security/views';

const deps = securityDeps(securityJobsFromEnvironment);

export const handler = apiHandler(createScanRoute, async ({ principal, body }) => {
  const scan = await createScan(principal, body, deps);
  return { data: viewOfScan(scan), location: `/v1/security/scans/${scan.id}` };
});
