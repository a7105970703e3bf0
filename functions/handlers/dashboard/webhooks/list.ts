import { dashboardPage } from '../../../http/pages/dashboard-page';
import { webhooksRoute } from '../../../routes/dashboard-resources';
import { webhooksPage } from './webhook-pages';

const notices: Record<string, string> = { deleted: 'The webhook is deleted.' };

export const handler = dashboardPage(webhooksRoute, async (request) =>
  webhooksPage(request, { notice: notices[request.query.get('done') ?? ''] }),
);
