import { idParams } from './schemas/common';
import { createWebhookBody, recoverBody, rotateSecretBody, testWebhookBody, updateWebhookBody } from './schemas/webhooks-bodies';
import { listDeliveriesQuery, listWebhooksQuery } from './schemas/webhooks-queries';
import { deliveryParams, deliverySchema, recoverResultSchema, webhookSchema, webhookWithSecretSchema } from './schemas/webhooks';
import { testAttemptTimeoutMs } from '../core/webhooks/webhook-use-cases';
import { defineRoute, type ResponseSchemas } from './route';

const tag = 'Webhooks';

/**
 * The time limit of the routes that make a test attempt while the caller waits: the attempt's
 * own bound plus 10 s for the rest (reads, the record, a cold start), so a receiver that never
 * answers gives the attempt's `timeout` result, not the function's timeout.
 */
export const testRouteTimeoutSeconds = testAttemptTimeoutMs / 1000 + 10;

export const createWebhookRoute = /* @__PURE__ */ defineRoute({
  operationId: 'createWebhook',
  summary: 'Register a webhook',
  description:
    'The answer carries the signing `secret`, shown only here. A target that is, or resolves to, a private, loopback or link-local address is refused (422); live mode requires https.',
  tag,
  method: 'POST',
  path: '/v1/webhooks',
  handler: 'webhooks/create',
  scope: 'write:webhooks',
  tableAccess: 'write',
  body: createWebhookBody,
  entityTag: true,
  success: { status: 201, description: 'The new webhook with its secret.' },
});

export const listWebhooksRoute = /* @__PURE__ */ defineRoute({
  operationId: 'listWebhooks',
  summary: 'List webhooks',
  tag,
  method: 'GET',
  path: '/v1/webhooks',
  handler: 'webhooks/list',
  scope: 'read:webhooks',
  tableAccess: 'read',
  query: listWebhooksQuery,
  success: { status: 200, description: 'A page of webhooks.', list: true },
});

export const getWebhookRoute = /* @__PURE__ */ defineRoute({
  operationId: 'getWebhook',
  summary: 'Get a webhook',
  tag,
  method: 'GET',
  path: '/v1/webhooks/{id}',
  handler: 'webhooks/get',
  scope: 'read:webhooks',
  tableAccess: 'read',
  params: idParams,
  entityTag: true,
  success: { status: 200, description: 'The webhook (never its secret).' },
  errors: [404],
});

export const updateWebhookRoute = /* @__PURE__ */ defineRoute({
  operationId: 'updateWebhook',
  summary: 'Change a webhook',
  description:
    'Any non-empty subset of url, events, active, description. `active: true` on a failed webhook re-enables it. One giving every field as stored (`active: true` on an enabled webhook) writes nothing: no event, the webhook answered as it is, its `updated_at` and ETag unmoved.',
  tag,
  method: 'PATCH',
  path: '/v1/webhooks/{id}',
  handler: 'webhooks/update',
  scope: 'write:webhooks',
  tableAccess: 'write',
  params: idParams,
  body: updateWebhookBody,
  entityTag: true,
  success: { status: 200, description: 'The webhook as changed.' },
  errors: [404],
});

export const deleteWebhookRoute = /* @__PURE__ */ defineRoute({
  operationId: 'deleteWebhook',
  summary: 'Delete a webhook',
  description:
    'Stops its deliveries at once (one still queued is dropped without an attempt). Its delivery log goes with it, within seconds: `GET …/deliveries` answers 404 from now on. The events stay.',
  tag,
  method: 'DELETE',
  path: '/v1/webhooks/{id}',
  handler: 'webhooks/delete',
  scope: 'write:webhooks',
  tableAccess: 'write',
  params: idParams,
  entityTag: true,
  success: { status: 204, description: 'Deleted; no body.' },
  errors: [404],
});

export const rotateWebhookSecretRoute = /* @__PURE__ */ defineRoute({
  operationId: 'rotateWebhookSecret',
  summary: 'Rotate the signing secret',
  description:
    'Returns the new secret, shown only here. The old one keeps signing beside it (two `v1=` values) for `expires_in` seconds, 24 h by default. The body may be left out. Of two rotations at once, one is stored and the other answered 409: a secret is only ever returned when it signs.',
  tag,
  method: 'POST',
  path: '/v1/webhooks/{id}/rotate-secret',
  handler: 'webhooks/rotate-secret',
  scope: 'write:webhooks',
  tableAccess: 'write',
  params: idParams,
  body: rotateSecretBody,
  optionalBody: true,
  success: { status: 200, description: 'The webhook with its new secret.' },
  errors: [404, 409],
});

export const testWebhookRoute = /* @__PURE__ */ defineRoute({
  operationId: 'testWebhook',
  summary: 'Send a test event',
  description:
    'One signed attempt of an example event of `event_type`, made at once and recorded in the delivery log. Never retried; never marks the webhook failed. The attempt waits at most 10 s for the receiver: a slower receiver still answers 202, with the attempt’s `timeout` result (`error: timeout`).',
  tag,
  method: 'POST',
  path: '/v1/webhooks/{id}/test',
  handler: 'webhooks/test',
  scope: 'write:webhooks',
  tableAccess: 'write',
  timeoutSeconds: testRouteTimeoutSeconds,
  params: idParams,
  body: testWebhookBody,
  success: { status: 202, description: 'The test delivery with the attempt’s result.' },
  errors: [404],
});

export const listDeliveriesRoute = /* @__PURE__ */ defineRoute({
  operationId: 'listWebhookDeliveries',
  summary: 'List the deliveries of a webhook',
  tag,
  method: 'GET',
  path: '/v1/webhooks/{id}/deliveries',
  handler: 'webhooks/deliveries-list',
  scope: 'read:webhooks',
  tableAccess: 'read',
  params: idParams,
  query: listDeliveriesQuery,
  success: { status: 200, description: 'A page of deliveries with their attempts.', list: true },
  errors: [404],
});

export const getDeliveryRoute = /* @__PURE__ */ defineRoute({
  operationId: 'getWebhookDelivery',
  summary: 'Get a delivery and its attempts',
  tag,
  method: 'GET',
  path: '/v1/webhooks/{id}/deliveries/{delivery_id}',
  handler: 'webhooks/deliveries-get',
  scope: 'read:webhooks',
  tableAccess: 'read',
  params: deliveryParams,
  success: { status: 200, description: 'The delivery.' },
  errors: [404],
});

export const redeliverRoute = /* @__PURE__ */ defineRoute({
  operationId: 'redeliverWebhookDelivery',
  summary: 'Deliver again',
  description:
    'A new sequence of attempts of the same event (same event id), the first one at once: of a delivery that succeeded or failed, or one waiting for its next retry (retry now: the scheduled retry is then dropped). A delivery whose attempt is on its way, or whose first attempt is still queued, answers 409.',
  tag,
  method: 'POST',
  path: '/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver',
  handler: 'webhooks/deliveries-redeliver',
  scope: 'write:webhooks',
  tableAccess: 'write',
  sendsDeliveries: true,
  params: deliveryParams,
  success: { status: 202, description: 'The delivery, pending again.' },
  errors: [404, 409],
});

export const recoverRoute = /* @__PURE__ */ defineRoute({
  operationId: 'recoverWebhookDeliveries',
  summary: 'Replay what a webhook missed',
  description:
    'Queues again the failed and skipped deliveries created since `since`, oldest first, at most 500 a call: with `has_more`, call again with the same `since` for the rest. The webhook must be active and enabled.',
  tag,
  method: 'POST',
  path: '/v1/webhooks/{id}/recover',
  handler: 'webhooks/recover',
  scope: 'write:webhooks',
  tableAccess: 'write',
  timeoutSeconds: 29,
  sendsDeliveries: true,
  params: idParams,
  body: recoverBody,
  success: { status: 202, description: 'How many deliveries were queued again.' },
  errors: [404, 409],
});

export const webhookRoutes = [
  createWebhookRoute,
  listWebhooksRoute,
  getWebhookRoute,
  updateWebhookRoute,
  deleteWebhookRoute,
  rotateWebhookSecretRoute,
  testWebhookRoute,
  listDeliveriesRoute,
  getDeliveryRoute,
  redeliverRoute,
  recoverRoute,
];

/** The `data` of each operation's success response, for the OpenAPI document (`ResponseSchemas`). */
export const webhookResponses = {
  createWebhook: webhookWithSecretSchema,
  listWebhooks: webhookSchema,
  getWebhook: webhookSchema,
  updateWebhook: webhookSchema,
  rotateWebhookSecret: webhookWithSecretSchema,
  testWebhook: deliverySchema,
  listWebhookDeliveries: deliverySchema,
  getWebhookDelivery: deliverySchema,
  redeliverWebhookDelivery: deliverySchema,
  recoverWebhookDeliveries: recoverResultSchema,
} satisfies ResponseSchemas;
