import { updateWebhook } from '../../../core/webhooks/webhook-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { updateWebhookPageRoute } from '../../../routes/dashboard-resources';
import { formErrors } from '../../../http/pages/form-errors';
import { dashboardWebhookDeps, webhookChangesOf, webhookFields, webhookIdOf, webhookPage } from './webhook-pages';

export const handler = dashboardPage(
  updateWebhookPageRoute,
  async (request) => {
    const id = webhookIdOf(request);
    const fields = webhookFields(request.form);
    try {
      await updateWebhook(request.tenant, id, webhookChangesOf(fields, request.form.get('active') === 'true'), dashboardWebhookDeps());
      return { redirect: `/dashboard/webhooks/${encodeURIComponent(id)}?done=saved` };
    } catch (error) {
      return webhookPage(request, { errors: formErrors(error, { url: 'Endpoint URL' }), form: fields }, 422);
    }
  },
  { adminOnly: true },
);
