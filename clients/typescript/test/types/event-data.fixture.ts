/**
 * What the SDK's event types let a receiver write, and what they refuse: checked by the type
 * checker (event-types.test.ts, and tsc of the repository). Each `@ts-expect-error` is a mistake
 * the types must catch; a line without one must compile.
 */
import type { components, EventOf, ServiceEvent } from '../../src/index.js';

type WebhookFailed = EventOf<'webhook.failed'>;

// A field the service may send as null is typed so: the receiver has to handle it.
export const description: WebhookFailed['data']['description'] = null;
export const failedAt: EventOf<'webhook.enabled'>['data']['failed_at'] = null;
export const deploymentUrl: EventOf<'deployment.completed'>['data']['url'] = null;
export const verdict: EventOf<'review.completed'>['data']['verdict'] = null;
export const totals: EventOf<'test.run.completed'>['data']['totals'] = null;
// @ts-expect-error: an id is never null
export const webhookId: WebhookFailed['data']['id'] = null;

// A value from a closed set is typed as that set, not as any string.
export const status: WebhookFailed['data']['status'] = 'failed';
// @ts-expect-error: a webhook is `enabled` or `failed`
export const pausedStatus: WebhookFailed['data']['status'] = 'paused';
// @ts-expect-error: a finding's severity is one of five
export const severity: EventOf<'security.finding.created'>['data']['severity'] = 'severe';

// A field the data does not have is an error, not `unknown`.
export const typo = (event: WebhookFailed) =>
  // @ts-expect-error: `descripton` is a typo of `description`
  event.data.descripton;

// The data is the resource's schema in the OpenAPI document, the same type as the API's answer.
export const asResource = (event: WebhookFailed): components['schemas']['Webhook'] => event.data;
export const asAnswer = (answer: components['schemas']['Webhook']): EventOf<'webhook.enabled'>['data'] => answer;

// Every field the service always sends is required.
// @ts-expect-error: `failed_at` and the others are missing
export const partial: WebhookFailed['data'] = { id: 'wh_1', url: 'https://hooks.example.com/service' };

// The union narrows on `type` to that event's data.
export const urlOf = (event: ServiceEvent): string | null => (event.type === 'deployment.failed' ? event.data.url : null);
export const stagesOf = (event: ServiceEvent) =>
  // @ts-expect-error: not every event's data has `stages`: narrow on `type` first
  event.data.stages;
