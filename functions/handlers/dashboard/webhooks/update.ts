import { updateWebhook } from '../../../core/webhooks/webhook-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { updateWebhookPageRoute } from '../../../routes/dashboard-resources';
import { formErrors, isChangedMeanwhile } from '../../../http/pages/form-errors';
import { dashboardWebhookDeps, webhookChangesOf, webhookFields, webhookIdOf, webhookPage } from './webhook-pages';

export const handler = dashboardPage(
  updateWebhookPageRoute,
  async (request) => {
    const id = webhookIdOf(request);
    // The tag of what the form was filled from: someone else's save since then is not overwritten.
    const etag = request.form.get('etag') || undefined;
    const fields = webhookFields(request.form);
    try {
      await updateWebhook(
        request.tenant,
        id,
        webhookChangesOf(fields, request.form.get('active') === 'true'),
        dashboardWebhookDeps(),
        etag,
      );
      return { redirect: `/dashboard/webhooks/${encodeURIComponent(id)}?done=saved` };
    } catch (error) {
      // Shown again against the webhook as it is now when someone else saved first; else as it was.
      const changed = isChangedMeanwhile(error);
      return webhookPage(
        request,
        { errors: formErrors(error, { url: 'Endpoint URL' }), form: fields, ...(changed || !etag ? {} : { etag }) },
        changed ? 409 : 422,
      );
    }
  },
  { adminOnly: true },
);
