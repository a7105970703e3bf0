import type { ReadTogether } from '../../core/webhooks/batch-reads';
import { getItems, type ItemKey } from './batch-get';
import type { TableRef } from './client';
import { eventFrom } from './event-repository';
import * as keys from './table-keys';
import { webhookFrom } from './webhook-repository';

/** BatchGetItem's limit of keys per call. */
const keysPerCall = 100;

const textOf = (key: ItemKey) => `${key.pk}\n${key.sk}`;

/**
 * The webhooks and events of a batch of delivery messages in one `BatchGetItem`, eventually
 * consistent as the dispatcher's single webhook read is (`readsPerBatch` reads an event it misses
 * again, alone and strongly consistent).
 */
export const dynamoReadTogether =
  (table: TableRef): ReadTogether =>
  async (refs) => {
    const webhookKeys = refs.webhooks.map(({ tenant, id }) => keys.webhook(tenant, id));
    const eventKeys = refs.events.map(({ tenant, id }) => keys.event(tenant, id));
    const distinct = [...new Map([...webhookKeys, ...eventKeys].map((key) => [textOf(key), key])).values()];
    const found = new Map<string, Record<string, unknown> | undefined>();
    for (let start = 0; start < distinct.length; start += keysPerCall) {
      const chunk = distinct.slice(start, start + keysPerCall);
      const items = await getItems(table, chunk);
      chunk.forEach((key, i) => found.set(textOf(key), items[i]));
    }
    const itemOf = (key: ItemKey) => found.get(textOf(key));
    return {
      webhooks: webhookKeys.map((key) => {
        const item = itemOf(key);
        return item ? webhookFrom(item) : undefined;
      }),
      events: eventKeys.map((key) => {
        const item = itemOf(key);
        return item ? eventFrom(item) : undefined;
      }),
    };
  };
