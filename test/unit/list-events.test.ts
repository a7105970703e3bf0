import type { EventRepository, ServiceEvent } from '../../functions/core/events/event';
import { followSettleMs, listEvents } from '../../functions/core/events/list-events';
import type { ListQuery } from '../../functions/core/pagination';

const tenant = { accountId: 'acct_1', mode: 'live' as const };
const anchor: ServiceEvent = {
  id: 'evt_01JD2Q9R7W3T0N8M4K6H5G2F1E',
  type: 'workflow.started',
  created_at: '2026-11-21T10:00:00.000Z',
  data: {},
};
const query = (order: 'asc' | 'desc'): ListQuery<'created_at'> => ({ page: 1, perPage: 20, sort: 'created_at', order });

const repository = () => {
  const calls: unknown[] = [];
  const events: EventRepository = {
    get: async (_tenant, id) => (id === anchor.id ? anchor : undefined),
    list: async (_tenant, _query, filters) => {
      calls.push(filters);
      return { items: [], total: 0 };
    },
  };
  return { events, calls };
};

describe('listEvents', () => {
  it('reads forward from a known anchor, holding back events younger than the settle time', async () => {
    const { events, calls } = repository();
    await listEvents(tenant, query('asc'), { startingAfter: anchor.id, type: 'workflow.completed' }, { events, now: () => 1_000_000 });
    expect(calls).toEqual([{ type: 'workflow.completed', after: { id: anchor.id, settledBeforeMs: 1_000_000 - followSettleMs } }]);
  });

  it('lists as before without an anchor', async () => {
    const { events, calls } = repository();
    await listEvents(tenant, query('desc'), {}, { events, now: () => 0 });
    expect(calls).toEqual([{ type: undefined }]);
  });

  it('refuses descending order and unknown anchors with the field named', async () => {
    const { events, calls } = repository();
    await expect(listEvents(tenant, query('desc'), { startingAfter: anchor.id }, { events, now: () => 0 })).rejects.toMatchObject({
      code: 'validation_error',
      details: { field: 'order' },
    });
    await expect(
      listEvents(tenant, query('asc'), { startingAfter: 'evt_01JD2Q9R7W3T0N8M4K6H5G2F1F' }, { events, now: () => 0 }),
    ).rejects.toMatchObject({ code: 'validation_error', details: { field: 'starting_after' } });
    expect(calls).toEqual([]);
  });
});
