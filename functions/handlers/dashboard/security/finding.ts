import { getFinding } from '../../../core/security/security-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { FindingPage } from '../../../pages/views/dashboard/security/finding';
import { findingPageRoute } from '../../../routes/dashboard-resources';
import { securityDeps } from '../../security/deps';

const notices: Record<string, string> = { remediating: 'Remediation started: the patch is verified by scanning again.' };

export const handler = dashboardPage(findingPageRoute, async (request) => ({
  page: FindingPage({
    shell: request.shell,
    finding: await getFinding(request.tenant, request.event.pathParameters?.id ?? '', securityDeps()),
    notice: notices[request.query.get('done') ?? ''],
  }),
}));
