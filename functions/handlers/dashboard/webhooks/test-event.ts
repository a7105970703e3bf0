import { validationError } from '../../../core/errors';
import { isEventType } from '../../../core/events/event-types';
import { testWebhook } from '../../../core/webhooks/webhook-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { testWebhookPageRoute } from '../../../routes/dashboard-resources';
import { dashboardWebhookDeps, webhookIdOf, webhookPage } from './webhook-pages';

/** One signed attempt of an example event, made now; its result is on the page that answers. */
export const handler = dashboardPage(
  testWebhookPageRoute,
  async (request) => {
    const type = request.form.get('type') ?? '';
    if (!isEventType(type)) throw validationError([{ field: 'type', issue: 'must be a known event type' }]);
    const delivery = await testWebhook(request.tenant, webhookIdOf(request), type, dashboardWebhookDeps());
    return webhookPage(request, { testDelivery: delivery });
  },
  { adminOnly: true },
);
