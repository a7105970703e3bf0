import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { type Clock, systemClock } from '../../functions/core/clock';
import type { DeliveryMessage, DeliveryQueue } from '../../functions/core/webhooks/delivery';

/** A message as the queue keeps it across a restart. */
export interface StoredMessage {
  id: string;
  message: DeliveryMessage;
}

/**
 * Where the local queue keeps its messages so that a restart loses none (the table of a runtime
 * with a data folder). An in-memory runtime has none: its table, and so every delivery the
 * messages point to, is gone after a restart anyway.
 */
export interface QueueStore {
  /** Every message stored, read once as the queue starts. */
  load(): Promise<StoredMessage[]>;
  put(messages: readonly StoredMessage[]): Promise<void>;
  remove(messages: readonly StoredMessage[]): Promise<void>;
}

export interface LeasedMessage extends StoredMessage {
  /** Times received, this one included (SQS's ApproximateReceiveCount). */
  receiveCount: number;
}

/** A message taken for processing is hidden this long; if its processor dies, it comes back. */
export const visibilityTimeoutMs = 30_000;

interface Entry extends StoredMessage {
  visibleAt: number;
  receiveCount: number;
}

export interface LocalDeliveryQueue {
  /** What the functions send to (`useLocalDeliveryQueue`). */
  queue: DeliveryQueue;
  /** Reads the stored messages; call once before the first receive. */
  start(): Promise<void>;
  /** Up to `max` messages visible now, hidden for the visibility timeout from now on. */
  receive(max: number): LeasedMessage[];
  /** Deletes a processed message. */
  acknowledge(message: StoredMessage): Promise<void>;
  /** When the earliest message becomes visible, if there is one. */
  nextVisibleAt(): number | undefined;
  /** Messages sent and not yet acknowledged: due or not, leased or not. */
  size(): number;
  /** Told of every message sent. */
  sent: EventEmitter<{ sent: [] }>;
}

/**
 * The local runtime's delivery queue, with the SQS semantics the dispatcher relies on: a message is
 * visible from its `not_before`, hidden for the visibility timeout while a batch processes it, back
 * when that ends unacknowledged, counted on every receive. One process sends and receives (the
 * runtime's functions and its poller), so the queue lives in that process's memory and leases cost
 * no call; a store, when there is one, holds each message from its send to its acknowledgement.
 * A lease does not outlive the process: after a restart every stored message is visible at once, and
 * the dispatcher's claim (the attempt number stored before the attempt) keeps a second copy from
 * repeating or hastening an attempt.
 */
export const localDeliveryQueue = (
  options: { store?: QueueStore; clock?: Clock; visibilityTimeoutMs?: number } = {},
): LocalDeliveryQueue => {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const hiddenForMs = options.visibilityTimeoutMs ?? visibilityTimeoutMs;
  /** In send order, so the oldest visible messages go first. */
  const entries = new Map<string, Entry>();
  const sent = new EventEmitter<{ sent: [] }>();

  const add = (messages: readonly StoredMessage[]): void => {
    for (const stored of messages) {
      if (!entries.has(stored.id)) entries.set(stored.id, { ...stored, visibleAt: stored.message.not_before, receiveCount: 0 });
    }
    if (messages.length > 0) sent.emit('sent');
  };

  /** Stored first, then visible: a message is never received (and deleted) before its write is done. */
  const sendMany = async (messages: readonly DeliveryMessage[]): Promise<void> => {
    const stored = messages.map((message) => ({ id: randomUUID(), message }));
    await store?.put(stored);
    add(stored);
  };

  return {
    queue: { send: (message) => sendMany([message]), sendMany },
    sent,
    async start() {
      if (store) add(await store.load());
    },
    receive(max) {
      const now = clock.now();
      const leased: LeasedMessage[] = [];
      for (const entry of entries.values()) {
        if (leased.length >= max) break;
        if (entry.visibleAt > now) continue;
        entry.visibleAt = now + hiddenForMs;
        entry.receiveCount += 1;
        leased.push({ id: entry.id, message: entry.message, receiveCount: entry.receiveCount });
      }
      return leased;
    },
    async acknowledge(message) {
      const entry = entries.get(message.id);
      if (!entry) return;
      entries.delete(message.id);
      await store?.remove([entry]);
    },
    nextVisibleAt() {
      let earliest: number | undefined;
      for (const entry of entries.values()) earliest = Math.min(earliest ?? Infinity, entry.visibleAt);
      return earliest;
    },
    size: () => entries.size,
  };
};
