import type { TargetPolicy } from '../../core/webhooks/target-policy';
import { type AttemptResult, type LookupAll, postWebhook } from '../http/webhook-http-client';

/**
 * One GET health probe through the webhook client's SSRF guard: every resolved address checked
 * against the policy and pinned for the connection, no redirects, bounded in time, at most 4 KiB
 * of body read. Never throws; `ok` is a 2xx.
 */
export interface ProbeRequest {
  url: string;
  headers?: Record<string, string>;
  policy: TargetPolicy;
  /** Bound on the whole probe. Default 10 000 ms. */
  timeoutMs?: number;
  lookup?: LookupAll;
}

export type Probe = (request: ProbeRequest) => Promise<AttemptResult>;

export const probe: Probe = (request) => postWebhook({ ...request, headers: request.headers ?? {}, body: '', method: 'GET' });
