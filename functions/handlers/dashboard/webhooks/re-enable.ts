import { updateWebhook } from '../../../core/webhooks/webhook-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { reEnableWebhookRoute } from '../../../routes/dashboard-resources';
import { dashboardWebhookDeps, webhookIdOf } from './webhook-pages';

/** As `PATCH /v1/webhooks/{id}` with `active: true` does: a failed webhook receives new events again. */
export const handler = dashboardPage(
  reEnableWebhookRoute,
  async (request) => {
    const id = webhookIdOf(request);
    await updateWebhook(request.tenant, id, { active: true }, dashboardWebhookDeps());
    return { redirect: `/dashboard/webhooks/${encodeURIComponent(id)}?done=re-enabled` };
  },
  { adminOnly: true },
);
