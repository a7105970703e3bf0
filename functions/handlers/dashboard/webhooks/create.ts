import { createWebhook } from '../../../core/webhooks/webhook-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { createWebhookPageRoute } from '../../../routes/dashboard-resources';
import { fieldErrors, formErrors } from '../../../http/pages/form-errors';
import { webhookFieldLabels } from '../../../pages/views/dashboard/webhooks/webhooks';
import { dashboardWebhookDeps, newWebhookOf, webhookFields, webhooksPage } from './webhook-pages';

/** Creates an endpoint and shows its signing secret this once, in the answer to the form. */
export const handler = dashboardPage(
  createWebhookPageRoute,
  async (request) => {
    const fields = webhookFields(request.form);
    await request.takeEffectOnce();
    try {
      const { secret, ...webhook } = await createWebhook(request.tenant, newWebhookOf(fields), dashboardWebhookDeps());
      return webhooksPage(request, { created: { webhook, secret } });
    } catch (error) {
      const errors = formErrors(error, webhookFieldLabels);
      return webhooksPage(request, { errors, fieldErrors: fieldErrors(error), form: fields }, 422);
    }
  },
  { adminOnly: true },
);
