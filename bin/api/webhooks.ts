import { argument, type CommandGroup, integerOption, listOptions, optionalString } from './command';
import { table } from './output';

type Webhook = { id: string; url: string; events: string[]; active: boolean; status: string };
type Delivery = {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts?: unknown[];
  attempt_count?: number;
  created_at: string;
};

export const webhooks: CommandGroup = {
  name: 'webhooks',
  summary: 'inspect webhooks and their deliveries',
  commands: {
    list: {
      summary: 'list webhooks',
      options: listOptions,
      async run(context) {
        const query = { per_page: integerOption(context, 'per-page') };
        const items: Webhook[] = [];
        if (context.values.all)
          for await (const hook of context.api.paginate('/v1/webhooks', { params: { query } })) items.push(hook as Webhook);
        else items.push(...((await context.api.get('/v1/webhooks', { params: { query } })).data as Webhook[]));
        context.out.result({ data: items }, () =>
          table(
            ['ID', 'STATUS', 'ACTIVE', 'URL', 'EVENTS'],
            items.map((w) => [w.id, w.status, w.active ? 'yes' : 'no', w.url, w.events.join(',')]),
          ),
        );
        return 0;
      },
    },
    deliveries: {
      summary: "list a webhook's deliveries, newest first",
      args: '<webhook_id>',
      options: {
        ...listOptions,
        status: {
          type: 'string',
          description: 'pending, succeeded, failed or skipped',
          values: ['pending', 'succeeded', 'failed', 'skipped'],
        },
        'event-type': { type: 'string', description: 'only this event type' },
      },
      async run(context) {
        const id = argument(context, 0, 'the webhook id');
        const query = {
          per_page: integerOption(context, 'per-page'),
          status: optionalString(context, 'status'),
          event_type: optionalString(context, 'event-type'),
        } as Record<string, unknown>;
        const init = { params: { path: { id }, query } };
        const items: Delivery[] = [];
        if (context.values.all) for await (const d of context.api.paginate('/v1/webhooks/{id}/deliveries', init)) items.push(d as Delivery);
        else items.push(...((await context.api.get('/v1/webhooks/{id}/deliveries', init)).data as Delivery[]));
        context.out.result({ data: items }, () =>
          table(
            ['ID', 'STATUS', 'EVENT', 'EVENT ID', 'CREATED'],
            items.map((d) => [d.id, d.status, d.event_type, d.event_id, d.created_at]),
          ),
        );
        return 0;
      },
    },
    redeliver: {
      summary: 'send a delivery again (a new sequence of attempts of the same event)',
      args: '<webhook_id> <delivery_id>',
      async run(context) {
        const id = argument(context, 0, 'the webhook id');
        const deliveryId = argument(context, 1, 'the delivery id');
        const { data } = await context.api.post('/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver', {
          params: { path: { id, delivery_id: deliveryId } },
        });
        context.out.result(data, () => `Queued ${deliveryId} again (${(data as Delivery).status}).`);
        return 0;
      },
    },
  },
};
