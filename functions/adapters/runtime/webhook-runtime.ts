import type { Tenant } from '../../core/tenancy';
import type { TargetPolicy } from '../../core/webhooks/target-policy';
import { testAttemptTimeoutMs } from '../../core/webhooks/webhook-use-cases';

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

const scaleOf = (value: string | undefined): number => {
  const scale = Number(value);
  return Number.isFinite(scale) && scale > 0 ? scale : 1;
};

/** Multiplies webhook retry delays, and nothing else: LOCAL_TIME_SCALE, set by the local runtime only. */
export const delayScaleFromEnvironment = (env: NodeJS.ProcessEnv = process.env): number => scaleOf(env.LOCAL_TIME_SCALE);

/**
 * Multiplies the other waits (deployment health deadlines, Step Functions Wait states and retry
 * intervals): LOCAL_WAIT_SCALE, a setting of its own so that shortening webhook retries never
 * shortens a deployment's health deadline too. Local runtime only; the integration tier sets it.
 */
export const waitScaleFromEnvironment = (env: NodeJS.ProcessEnv = process.env): number => scaleOf(env.LOCAL_WAIT_SCALE);

/**
 * The bound on a test attempt (`POST /webhooks/{id}/test`): 10 s, or less in the local runtime
 * with LOCAL_WEBHOOK_TEST_TIMEOUT_MS (never more: the route's time limit is built on 10 s).
 */
export const testAttemptTimeoutFromEnvironment = (env: NodeJS.ProcessEnv = process.env): number => {
  const configured = Number(env.LOCAL_WEBHOOK_TEST_TIMEOUT_MS);
  return Number.isFinite(configured) && configured > 0 ? Math.min(configured, testAttemptTimeoutMs) : testAttemptTimeoutMs;
};
