import { dashboardPage } from '../../../http/pages/dashboard-page';
import { applicationPageRoute } from '../../../routes/dashboard-resources';
import { applicationPage } from './application-page';

const notices: Record<string, string> = { saved: 'Saved. The next authorization request is checked against these redirect URIs.' };

export const handler = dashboardPage(
  applicationPageRoute,
  async (request) => applicationPage(request, { notice: notices[request.query.get('done') ?? ''] }),
  { formsBoundTo: 'account' },
);
