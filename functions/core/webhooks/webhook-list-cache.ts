import type { Clock } from '../clock';
import type { Tenant } from '../tenancy';
import type { Webhook, WebhookRepository } from './webhook';

/**
 * Each account's webhooks, read once for the many events of a burst. A list is kept a few seconds
 * and forgotten as soon as a webhook changes; it is never used for an event recorded after it was
 * read, so a webhook created before an event always gets the event, even when the change has not
 * reached this function yet (in AWS the fan-out of another shard may write it).
 */
export interface WebhookListCache {
  /** The tenant's webhooks, from a read that began after `recordedAtMs` and at most the time to live ago. */
  webhooksFor(tenant: Tenant, recordedAtMs: number): Promise<Webhook[]>;
  /** A webhook changed: every list is read again. */
  invalidate(): void;
}

/** How long a list is used at most: a few seconds, so that a change this process cannot see still shows soon. */
export const webhookListTtlMs = 5_000;

/** Lists kept at most: past it, the expired ones go. */
const maxLists = 1_000;

interface CachedList {
  readAtMs: number;
  webhooks: Promise<Webhook[]>;
}

export const webhookListCache = (
  repository: Pick<WebhookRepository, 'all'>,
  clock: Clock,
  ttlMs: number = webhookListTtlMs,
): WebhookListCache => {
  const lists = new Map<string, CachedList>();
  const keyOf = (tenant: Tenant): string => `${tenant.mode}/${tenant.accountId}`;

  const dropExpired = (nowMs: number): void => {
    for (const [key, list] of lists) if (nowMs - list.readAtMs >= ttlMs) lists.delete(key);
  };

  return {
    webhooksFor(tenant, recordedAtMs) {
      const key = keyOf(tenant);
      const nowMs = clock.now();
      const cached = lists.get(key);
      if (cached && cached.readAtMs > recordedAtMs && nowMs - cached.readAtMs < ttlMs) return cached.webhooks;
      if (lists.size >= maxLists) dropExpired(nowMs);
      // The time is taken before the read begins: the list holds every webhook written before it.
      const fresh: CachedList = { readAtMs: nowMs, webhooks: repository.all(tenant) };
      lists.set(key, fresh);
      fresh.webhooks.catch(() => {
        if (lists.get(key) === fresh) lists.delete(key);
      });
      return fresh.webhooks;
    },
    invalidate() {
      lists.clear();
    },
  };
};
