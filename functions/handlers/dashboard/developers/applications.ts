import { dashboardPage } from '../../../http/pages/dashboard-page';
import { applicationsRoute } from '../../../routes/dashboard-resources';
import { applicationsPage } from './applications-page';

const notices: Record<string, string> = { deleted: 'The application is deleted: its tokens no longer work.' };

export const handler = dashboardPage(
  applicationsRoute,
  async (request) => applicationsPage(request, { notice: notices[request.query.get('done') ?? ''] }),
  { formsBoundTo: 'account' },
);
