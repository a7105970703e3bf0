import { getScan } from '../../../core/security/security-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { ScanPage } from '../../../pages/views/dashboard/security/scan';
import { scanPageRoute } from '../../../routes/dashboard-resources';
import { securityDeps } from '../../security/deps';

export const handler = dashboardPage(scanPageRoute, async (request) => ({
  page: ScanPage({ shell: request.shell, scan: await getScan(request.tenant, request.event.pathParameters?.id ?? '', securityDeps()) }),
}));
