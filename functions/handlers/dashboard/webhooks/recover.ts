import { validationError } from '../../../core/errors';
import { recoverDeliveries } from '../../../core/webhooks/webhook-use-cases';
import { deliveryQueueFromEnvironment } from '../../../adapters/runtime/delivery-queue';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { recoverWebhookPageRoute } from '../../../routes/dashboard-resources';
import { redeliveryDeps } from '../../webhooks/deps';
import { fieldErrors } from '../../../http/pages/form-errors';
import { webhookIdOf, webhookPage } from './webhook-pages';

const deps = redeliveryDeps(deliveryQueueFromEnvironment);

/** A `datetime-local` field (`2026-11-24T13:05`, seconds optional), read as UTC as the form says. */
const sinceOf = (form: URLSearchParams): number => {
  const value = (form.get('since') ?? '').trim();
  const since = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value) ? Date.parse(`${value}Z`) : Number.NaN;
  if (!Number.isFinite(since)) throw validationError([{ field: 'since', issue: 'must be a date and time (UTC)' }]);
  return since;
};

/** As `POST /v1/webhooks/{id}/recover`: the failed and skipped deliveries since then are queued again (500 a press). */
export const handler = dashboardPage(
  recoverWebhookPageRoute,
  async (request) => {
    const id = webhookIdOf(request);
    let sinceMs: number;
    try {
      sinceMs = sinceOf(request.form);
    } catch (error) {
      // Shown beside the field, with what was typed, on the webhook's page.
      return webhookPage(request, { recover: { since: request.form.get('since') ?? '', error: fieldErrors(error).since ?? '' } }, 422);
    }
    const result = await recoverDeliveries(request.tenant, id, sinceMs, deps);
    // Told by the page the answer redirects to: a reload shows it again and queues nothing more.
    const told = new URLSearchParams({ done: 'recovered', requeued: String(result.requeued), ...(result.has_more ? { more: '1' } : {}) });
    return { redirect: `/dashboard/webhooks/${encodeURIComponent(id)}?${told.toString()}` };
  },
  { adminOnly: true },
);
