import { getWebhook, updateWebhook } from '../../../core/webhooks/webhook-use-cases';
import { mergedAfterConflict, originalValuesOf } from '../../../http/pages/edit-conflict';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { updateWebhookPageRoute } from '../../../routes/dashboard-resources';
import { fieldErrors, formErrors, isChangedMeanwhile } from '../../../http/pages/form-errors';
import { webhookFieldLabels, webhookFormOf } from '../../../pages/views/dashboard/webhooks/webhooks';
import { dashboardWebhookDeps, webhookChangesOf, webhookFields, webhookIdOf, webhookPage } from './webhook-pages';

export const handler = dashboardPage(
  updateWebhookPageRoute,
  async (request) => {
    const id = webhookIdOf(request);
    // The tag of what the form was filled from: someone else's save since then is not overwritten.
    const etag = request.form.get('etag') || undefined;
    const fields = webhookFields(request.form);
    try {
      await updateWebhook(request.tenant, id, webhookChangesOf(fields, request.form), dashboardWebhookDeps(), etag);
      return { redirect: `/dashboard/webhooks/${encodeURIComponent(id)}?done=saved` };
    } catch (error) {
      const errors = formErrors(error, webhookFieldLabels);
      const original = originalValuesOf(request.form);
      if (!isChangedMeanwhile(error)) {
        return webhookPage(request, { errors, fieldErrors: fieldErrors(error), form: fields, original, ...(etag ? { etag } : {}) }, 422);
      }
      // Someone else saved first: the webhook as it is now, with this person's own edits on top.
      const webhook = await getWebhook(request.tenant, id, dashboardWebhookDeps());
      return webhookPage(request, { webhook, errors, form: mergedAfterConflict(fields, original, webhookFormOf(webhook)) }, 409);
    }
  },
  { adminOnly: true },
);
