import { rotateWebhookSecret } from '../../../core/webhooks/webhook-use-cases';
import { confirmFirst, dashboardPage } from '../../../http/pages/dashboard-page';
import { rotateWebhookSecretPageRoute } from '../../../routes/dashboard-resources';
import { dashboardWebhookDeps, webhookIdOf, webhookPage } from './webhook-pages';

/** The new secret is shown this once, in the answer to the form; the old one signs beside it for 24 h. */
export const handler = dashboardPage(
  rotateWebhookSecretPageRoute,
  async (request) => {
    const id = webhookIdOf(request);
    const asked = confirmFirst(request, 'Rotate the signing secret of this webhook?', `/dashboard/webhooks/${encodeURIComponent(id)}`);
    if (asked) return asked;
    await request.takeEffectOnce();
    const { secret, ...webhook } = await rotateWebhookSecret(request.tenant, id, undefined, dashboardWebhookDeps());
    return webhookPage(request, { webhook, secret });
  },
  { adminOnly: true },
);
