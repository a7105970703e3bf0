import { dashboardPage } from '../../../http/pages/dashboard-page';
import { webhookPageRoute } from '../../../routes/dashboard-resources';
import { webhookPage } from './webhook-pages';

const notices: Record<string, string> = {
  saved: 'Your changes are saved.',
  're-enabled': 'The webhook is enabled again: new events are delivered.',
  redelivered: 'The delivery is queued again: its first attempt goes out now.',
};

export const handler = dashboardPage(webhookPageRoute, async (request) =>
  webhookPage(request, { notice: notices[request.query.get('done') ?? ''] }),
);
