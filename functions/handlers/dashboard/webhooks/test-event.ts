import { validationError } from '../../../core/errors';
import { isEventType } from '../../../core/events/event-types';
import { testWebhook } from '../../../core/webhooks/webhook-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { testWebhookPageRoute } from '../../../routes/dashboard-resources';
import { dashboardWebhookDeps, webhookIdOf } from './webhook-pages';

/**
 * One signed attempt of an example event, made now; its result is on the page the answer redirects
 * to (a reload of that page shows it again, and sends nothing).
 */
export const handler = dashboardPage(
  testWebhookPageRoute,
  async (request) => {
    const type = request.form.get('type') ?? '';
    if (!isEventType(type)) throw validationError([{ field: 'type', issue: 'must be a known event type' }]);
    const id = webhookIdOf(request);
    const delivery = await testWebhook(request.tenant, id, type, dashboardWebhookDeps());
    return { redirect: `/dashboard/webhooks/${encodeURIComponent(id)}?done=tested&delivery=${encodeURIComponent(delivery.id)}` };
  },
  { adminOnly: true },
);
