import type { TableRef } from '../../../functions/adapters/dynamodb/client';
import { dynamoEventRepository } from '../../../functions/adapters/dynamodb/event-repository';
import { newEvent, type ServiceEvent } from '../../../functions/core/events/event';
import { eventCatalogue, type EventType } from '../../../functions/core/events/event-types';
import type { Mode } from '../../../functions/core/tenancy';
import { type as } from './http';
import { eventually } from './receiver';
import { runtimeTable } from './runtime';

type Api = ReturnType<typeof as>;

/**
 * Records an event through the transactional outbox, as a state change would: the runtime's
 * stream poller fans it out to the webhooks. Its data is the catalogue's example of the type with
 * `changes` over it, so `GET /v1/events` answers what the type's schema says.
 */
export const recordEvent = async (
  accountId: string,
  mode: Mode,
  type: EventType,
  changes: Record<string, unknown> = {},
  table?: TableRef,
): Promise<ServiceEvent> => {
  const event = newEvent(type, { ...eventCatalogue[type].example, ...changes }, Date.now());
  await dynamoEventRepository(table ?? (await runtimeTable())).record({ accountId, mode }, event);
  return event;
};

/** Creates a webhook and returns the create answer's data (with its secret). */
export const createWebhook = async (api: Api, body: Record<string, unknown>) => {
  const created = await api.post('/webhooks', body);
  if (created.status !== 201) throw new Error(`webhook creation failed: ${created.status} ${created.text}`);
  return created.body.data as { id: string; secret: string; status: string; [k: string]: unknown };
};

/** Polls GET /webhooks/{id}/deliveries/{delivery_id} until `done` holds. */
export const waitForDelivery = async (
  api: Api,
  webhookId: string,
  deliveryId: string,
  done: (d: any) => boolean,
  timeoutMs = 15_000,
): Promise<any> => {
  let last: any;
  return eventually(
    async () => {
      const answer = await api.get(`/webhooks/${webhookId}/deliveries/${deliveryId}`);
      last = answer.body?.data;
      return answer.status === 200 && done(last) ? last : undefined;
    },
    timeoutMs,
    () => `delivery ${deliveryId} did not reach the expected state; last seen: ${JSON.stringify(last)}`,
    // 10 requests a second at most: well inside the runtime's rate limit of 20 per second.
    100,
  );
};

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
