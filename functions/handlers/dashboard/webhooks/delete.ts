import { deleteWebhook } from '../../../core/webhooks/webhook-use-cases';
import { confirmFirst, dashboardPage } from '../../../http/pages/dashboard-page';
import { deleteWebhookPageRoute } from '../../../routes/dashboard-resources';
import { dashboardWebhookDeps, webhookIdOf } from './webhook-pages';

export const handler = dashboardPage(
  deleteWebhookPageRoute,
  async (request) => {
    const id = webhookIdOf(request);
    const asked = confirmFirst(request, 'Delete this webhook? It receives nothing more.', `/dashboard/webhooks/${encodeURIComponent(id)}`);
    if (asked) return asked;
    await deleteWebhook(request.tenant, id, dashboardWebhookDeps());
    return { redirect: '/dashboard/webhooks?done=deleted' };
  },
  { adminOnly: true },
);
