import { securityJobsFromEnvironment } from '../../../adapters/security/security-jobs';
import { requestRemediation } from '../../../core/security/security-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { remediatePageRoute } from '../../../routes/dashboard-resources';
import { securityDeps } from '../../security/deps';

const deps = securityDeps(securityJobsFromEnvironment);

/** As `POST /v1/security/findings/{id}/remediate`: an open finding gets a patch, verified by scanning again. */
export const handler = dashboardPage(
  remediatePageRoute,
  async (request) => {
    const finding = await requestRemediation(request.tenant, request.event.pathParameters?.id ?? '', deps);
    return { redirect: `/dashboard/security/findings/${encodeURIComponent(finding.id)}?done=remediating` };
  },
  { adminOnly: true },
);
