import type { EventRepository, ServiceEvent } from '../events/event';
import type { Tenant } from '../tenancy';
import type { Webhook, WebhookRef, WebhookRepository } from './webhook';

/** An event of a tenant, by id. */
export interface EventRef {
  tenant: Tenant;
  id: string;
}

/** What the dispatcher reads besides the delivery it claims: the webhook, and the event it sends. */
export interface DispatchReads {
  webhooks: Pick<WebhookRepository, 'get'>;
  /** Finds an event however recently it was written (a strongly consistent read). */
  events: Pick<EventRepository, 'get'>;
}

/** The webhooks and events a batch's messages name. */
export interface BatchRefs {
  webhooks: readonly WebhookRef[];
  events: readonly EventRef[];
}

/** Reads webhooks and events together, in one round trip; each answer in the order asked, undefined where none is. */
export type ReadTogether = (refs: BatchRefs) => Promise<{ webhooks: (Webhook | undefined)[]; events: (ServiceEvent | undefined)[] }>;

const keyOf = (tenant: Tenant, id: string): string => `${tenant.mode}/${tenant.accountId}/${id}`;

/**
 * Reads by key, each key once while its read lasts or has succeeded: a read that fails is not kept,
 * the next asks again, alone.
 */
const readOnce = <T>(readAlone: (tenant: Tenant, id: string) => Promise<T>) => {
  const reads = new Map<string, Promise<T>>();
  const keep = (key: string, read: Promise<T>) => {
    reads.set(key, read);
    read.catch(() => reads.delete(key));
  };
  return {
    keep,
    get(tenant: Tenant, id: string): Promise<T> {
      const key = keyOf(tenant, id);
      const kept = reads.get(key);
      if (kept) return kept;
      const read = readAlone(tenant, id);
      keep(key, read);
      return read;
    },
  };
};

const distinct = <R extends { tenant: Tenant; id: string }>(refs: readonly R[]): [string, R][] => [
  ...new Map(refs.map((ref) => [keyOf(ref.tenant, ref.id), ref])).entries(),
];

/**
 * The reads of one batch of delivery messages: the webhooks and events the messages name (`refs`)
 * are read together in one call, and any other once for the whole batch (its messages run side by
 * side, so every one of them would read it at the same moment anyway).
 */
export const readsPerBatch = (
  alone: DispatchReads,
  together: ReadTogether,
  refs: BatchRefs = { webhooks: [], events: [] },
): DispatchReads => {
  const webhooks = readOnce((tenant, id) => alone.webhooks.get(tenant, id));
  const events = readOnce((tenant, id) => alone.events.get(tenant, id));
  const wantedWebhooks = distinct(refs.webhooks);
  const wantedEvents = distinct(refs.events);
  if (wantedWebhooks.length + wantedEvents.length > 0) {
    const read = together({ webhooks: wantedWebhooks.map(([, ref]) => ref), events: wantedEvents.map(([, ref]) => ref) });
    // A webhook not found together was deleted, or created a moment ago: before its message is
    // taken for one of a deleted webhook, the read alone looks again, strongly consistent.
    wantedWebhooks.forEach(([key, ref], i) =>
      webhooks.keep(
        key,
        read.then((found) => found.webhooks[i] ?? alone.webhooks.get(ref.tenant, ref.id, { consistent: true })),
      ),
    );
    // An event not found together was written a moment ago (the batch read is eventually
    // consistent; events are never deleted): the read alone looks again.
    wantedEvents.forEach(([key, ref], i) =>
      events.keep(
        key,
        read.then((found) => found.events[i] ?? alone.events.get(ref.tenant, ref.id)),
      ),
    );
  }
  return { webhooks: { get: webhooks.get }, events: { get: events.get } };
};
