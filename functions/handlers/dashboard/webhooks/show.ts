import { ApiError } from '../../../core/errors';
import { getDelivery } from '../../../core/webhooks/webhook-use-cases';
import type { DeliveryView } from '../../../core/webhooks/delivery';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { webhookPageRoute } from '../../../routes/dashboard-resources';
import { dashboardWebhookDeps, webhookIdOf, webhookPage } from './webhook-pages';

const notices: Record<string, string> = {
  saved: 'Your changes are saved.',
  're-enabled': 'The webhook is enabled again: new events are delivered.',
  redelivered: 'The delivery is queued again: its first attempt goes out now.',
};

/** What Recover did, as its answer's redirect says it. */
const recoveredNotice = (query: URLSearchParams): string => {
  const requeued = Number.parseInt(query.get('requeued') ?? '', 10);
  if (!Number.isSafeInteger(requeued) || requeued <= 0) return 'Nothing to recover: no failed or skipped delivery since then.';
  return (
    `${requeued === 1 ? '1 delivery is' : `${requeued} deliveries are`} queued again.` +
    (query.get('more') === '1' ? ' More wait: press Recover again to queue the next ones.' : '')
  );
};

/** The test delivery a redirect names, when it is one of this webhook's tests. */
const testDeliveryOf = async (request: Parameters<typeof webhookPage>[0]): Promise<DeliveryView | undefined> => {
  const id = request.query.get('delivery') ?? '';
  const delivery = await getDelivery(request.tenant, webhookIdOf(request), id, dashboardWebhookDeps()).catch((error: unknown) => {
    if (error instanceof ApiError) return undefined;
    throw error;
  });
  return delivery?.test ? delivery : undefined;
};

export const handler = dashboardPage(webhookPageRoute, async (request) => {
  const done = request.query.get('done') ?? '';
  if (done === 'recovered') return webhookPage(request, { notice: recoveredNotice(request.query) });
  if (done === 'tested') return webhookPage(request, { testDelivery: await testDeliveryOf(request) });
  return webhookPage(request, { notice: notices[done] });
});
