import { checkedFetch } from './support/contract';
import { dynamoEventRepository } from '../../functions/adapters/dynamodb/event-repository';
import type { ServiceEvent } from '../../functions/core/events/event';
import { eventCatalogue } from '../../functions/core/events/event-types';
import { followSettleMs } from '../../functions/core/events/list-events';
import { derivedId } from '../../functions/core/ids';
import type { Tenant } from '../../functions/core/tenancy';
import { as } from './support/http';
import { eventually } from './support/receiver';
import { newAccount, runtimeTable } from './support/runtime';

/** GET /v1/events?starting_after=…: a forward read a follower (the CLI's `listen`) resumes from. */

/** An event of `type` with its catalogue example as data (the answers are checked against its schema), told apart by `n`. */
const event = (
  id: string,
  createdAtMs: number,
  n: number,
  type: 'workflow.started' | 'workflow.completed' = 'workflow.started',
): ServiceEvent => ({
  id,
  type,
  created_at: new Date(createdAtMs).toISOString(),
  data: { ...eventCatalogue[type].example, duration_ms: n },
});

/** Events written straight into the table with chosen ids, in the order given (not id order). */
const store = async (tenant: Tenant, events: ServiceEvent[]): Promise<void> => {
  const repository = dynamoEventRepository(await runtimeTable());
  for (const e of events) await repository.record(tenant, e);
};

/** Follows the stream page by page, as a follower would: the last id read is the next anchor. */
const follow = async (api: ReturnType<typeof as>, from: string, perPage: number): Promise<string[]> => {
  const seen: string[] = [];
  let anchor = from;
  for (;;) {
    const answer = await api.get(`/events?starting_after=${anchor}&per_page=${perPage}`);
    expect(answer.status).toBe(200);
    const ids = (answer.body.data as ServiceEvent[]).map((e) => e.id);
    if (ids.length === 0) return seen;
    seen.push(...ids);
    anchor = ids[ids.length - 1] as string;
  }
};

describe('following events with starting_after', () => {
  it('reads every event after the anchor once, oldest first, across page boundaries and within one millisecond', async () => {
    const account = await newAccount();
    const tenant: Tenant = { accountId: account.account.id, mode: 'live' };
    const api = as(account.live.key);
    const base = Date.now() - 60_000;
    // Seven events in the same millisecond (their order is their random ULID part), and others around them,
    // stored out of id order.
    const sameMs = Array.from({ length: 7 }, (_, i) => event(derivedId('event', base + 10, `same-${i}`), base + 10, i));
    const before = event(derivedId('event', base, 'before'), base, 100);
    const after = [1, 2, 3].map((k) => event(derivedId('event', base + 10 + k, `after-${k}`), base + 10 + k, 200 + k));
    await store(tenant, [...after, ...sameMs.slice(3), before, ...sameMs.slice(0, 3)]);
    const inIdOrder = [before, ...sameMs, ...after].map((e) => e.id).sort();

    const anchor = inIdOrder[2] as string;
    for (const perPage of [1, 2, 3, 100]) {
      expect(await follow(api, anchor, perPage)).toEqual(inIdOrder.slice(3));
    }
    expect(await follow(api, inIdOrder[inIdOrder.length - 1] as string, 5)).toEqual([]);
  });

  it('answers oldest first with true meta and a next link that continues the same forward read', async () => {
    const account = await newAccount();
    const tenant: Tenant = { accountId: account.account.id, mode: 'live' };
    const api = as(account.live.key);
    const base = Date.now() - 60_000;
    const events = Array.from({ length: 5 }, (_, i) => event(derivedId('event', base + i, `e${i}`), base + i, i));
    await store(tenant, events);
    const first = await api.get(`/events?starting_after=${events[0]?.id}&per_page=2`);
    expect(first.body.data.map((e: ServiceEvent) => e.id)).toEqual([events[1]?.id, events[2]?.id]);
    expect(first.body.meta).toEqual({ page: 1, per_page: 2, total: 4, total_pages: 2 });
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toContain(`starting_after=${events[0]?.id}`);
    const second = await checkedFetch()(next as string, { headers: { Authorization: `Bearer ${account.live.key}` } });
    const body = (await second.json()) as { data: ServiceEvent[] };
    expect(body.data.map((e) => e.id)).toEqual([events[3]?.id, events[4]?.id]);
    // A cursor of this forward read is refused for another anchor.
    const cursor = new URL(next as string).searchParams.get('cursor');
    const other = await api.get(`/events?starting_after=${events[1]?.id}&per_page=2&page=2&cursor=${cursor}`);
    expect(other.status).toBe(422);
    expect(other.body.error.details.field).toBe('cursor');
  });

  it('holds an event back until it is settled, then lists it', async () => {
    const account = await newAccount();
    const tenant: Tenant = { accountId: account.account.id, mode: 'live' };
    const api = as(account.live.key);
    const old = Date.now() - 60_000;
    const anchor = event(derivedId('event', old, 'anchor'), old, 0);
    const now = Date.now();
    const fresh = event(derivedId('event', now, 'fresh'), now, 1);
    await store(tenant, [anchor, fresh]);

    const early = await api.get(`/events?starting_after=${anchor.id}`);
    // Unless the machine was too busy to ask in time, the fresh event is not listed yet.
    if (Date.now() < now + followSettleMs) expect(early.body.data).toEqual([]);
    // The ordinary list shows it at once.
    expect((await api.get('/events')).body.data.map((e: ServiceEvent) => e.id)).toContain(fresh.id);
    const listed = await eventually(
      async () => {
        const answer = await api.get(`/events?starting_after=${anchor.id}`);
        return answer.body.data.length > 0 ? answer.body.data : undefined;
      },
      followSettleMs + 20_000,
      () => 'the fresh event was never listed after its anchor',
      250,
    );
    expect(listed.map((e: ServiceEvent) => e.id)).toEqual([fresh.id]);
    expect(Date.now()).toBeGreaterThanOrEqual(now + followSettleMs);
  });

  it('filters by type on the forward read', async () => {
    const account = await newAccount();
    const tenant: Tenant = { accountId: account.account.id, mode: 'live' };
    const api = as(account.live.key);
    const base = Date.now() - 60_000;
    const events = Array.from({ length: 4 }, (_, i) =>
      event(derivedId('event', base + i, `t${i}`), base + i, i, i % 2 === 0 ? 'workflow.started' : 'workflow.completed'),
    );
    await store(tenant, events);
    const answer = await api.get(`/events?starting_after=${events[0]?.id}&type=workflow.completed`);
    expect(answer.body.data.map((e: ServiceEvent) => e.id)).toEqual([events[1]?.id, events[3]?.id]);
  });

  it.each([
    ['a malformed id', 'starting_after=evt_nope', 'starting_after'],
    ['an id of another kind', `starting_after=wf_01JD2Q9R7W3T0N8M4K6H5G2F1E`, 'starting_after'],
    ['descending order', 'starting_after=ANCHOR&order=desc', 'order'],
  ])('refuses %s with 422', async (_what, query, field) => {
    const account = await newAccount();
    const base = Date.now() - 60_000;
    const anchor = event(derivedId('event', base, 'a'), base, 0);
    await store({ accountId: account.account.id, mode: 'live' }, [anchor]);
    const answer = await as(account.live.key).get(`/events?${query.replace('ANCHOR', anchor.id)}`);
    expect(answer.status).toBe(422);
    expect(answer.body.error.details.field).toBe(field);
  });

  it('refuses an anchor of another account or mode, which names no place in this stream', async () => {
    const owner = await newAccount();
    const stranger = await newAccount();
    const base = Date.now() - 60_000;
    const anchor = event(derivedId('event', base, 'private'), base, 0);
    await store({ accountId: owner.account.id, mode: 'live' }, [anchor]);
    for (const key of [stranger.live.key, owner.test.key]) {
      const answer = await as(key).get(`/events?starting_after=${anchor.id}`);
      expect(answer.status).toBe(422);
      expect(answer.body.error.details).toEqual({ field: 'starting_after', issue: 'is not an event of this account and mode' });
    }
  });
});
