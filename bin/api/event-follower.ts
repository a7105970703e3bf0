import type { ServiceClient, ServiceEvent } from '@project-automation-service/sdk';
import { sleep } from './output';

/**
 * How old the first event of an account must be before a follower with no anchor takes it: the
 * API holds a forward read back 5 s (until every event created before it is stored); the rest is a
 * margin for the difference between this machine's clock and the service's.
 */
const firstEventSettleMs = 10_000;

/** The newest event now, to start following after it; undefined when the account has none yet. */
export const newestEventId = async (api: ServiceClient): Promise<string | undefined> =>
  (await api.get('/v1/events', { params: { query: { per_page: 1 } } })).data[0]?.id;

/** The oldest event, once it is settled (see above). */
const settledOldest = async (api: ServiceClient): Promise<ServiceEvent | undefined> => {
  const [oldest] = (await api.get('/v1/events', { params: { query: { per_page: 1, order: 'asc' } } })).data as ServiceEvent[];
  return oldest && Date.parse(oldest.created_at) <= Date.now() - firstEventSettleMs ? oldest : undefined;
};

/**
 * Every event after `after` (or, with none, from the account's first event), oldest first, each
 * once: `GET /v1/events?starting_after=<last id>` never skips or repeats an event, so the caller
 * can store the id of each event it has handled and resume from it later.
 */
export async function* followEvents(
  api: ServiceClient,
  after: string | undefined,
  signal: AbortSignal,
  pollMs = 1000,
): AsyncGenerator<ServiceEvent> {
  let anchor = after;
  while (!signal.aborted) {
    if (anchor === undefined) {
      const first = await settledOldest(api);
      if (first) {
        yield first;
        anchor = first.id;
        continue;
      }
      await sleep(pollMs, signal);
      continue;
    }
    const { data } = await api.get('/v1/events', { params: { query: { starting_after: anchor, per_page: 100 } }, signal });
    for (const event of data as ServiceEvent[]) {
      yield event;
      anchor = event.id;
    }
    if (data.length < 100) await sleep(pollMs, signal);
  }
}
