import type { Tenant } from '../../core/tenancy';
import type { TargetPolicy } from '../../core/webhooks/target-policy';

/**
 * Settings of the webhook machinery read from the environment. The queue and the mailer have
 * modules of their own (delivery-queue.ts, mailer.ts) so that only the functions that use them
 * carry their SDK clients.
 */
export const webhookUserAgent = 'ProjectAutomationService-Webhooks/1.0';

/**
 * Live webhooks need https and a public address. Test-mode webhooks may use http, and, in the
 * local runtime only, loopback and private addresses; link-local and metadata stay refused.
 */
export const targetPolicyFor = (mode: Tenant['mode']): TargetPolicy =>
  mode === 'live'
    ? { requireHttps: true, allowPrivate: false }
    : { requireHttps: false, allowPrivate: process.env.LOCAL_ALLOW_PRIVATE_TEST_TARGETS === 'true' };

/** Only the local runtime sets LOCAL_TIME_SCALE. */
export const delayScaleFromEnvironment = (): number => {
  const scale = Number(process.env.LOCAL_TIME_SCALE);
  return Number.isFinite(scale) && scale > 0 ? scale : 1;
};
