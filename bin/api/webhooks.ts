import type { EventType } from '@project-automation-service/sdk';
import {
  argument,
  choiceOption,
  type CommandGroup,
  integerOption,
  listOption,
  listOptions,
  pageQuery,
  optionalString,
  required,
  UsageError,
  idempotencyOption,
} from './command';
import { conditionOf, etagLine, ifMatchOption, withEtag } from './conditional';
import { printList, readList } from './list-result';
import { table } from './output';

type Webhook = { id: string; url: string; events: string[]; active: boolean; status: string; description?: string | null };

/** What a webhook subscribes to: event types, or `*`; the API refuses an unknown type with the list of known ones. */
type Subscription = EventType | '*';

const webhookTable = (items: Webhook[]) =>
  table(
    ['ID', 'STATUS', 'ACTIVE', 'URL', 'EVENTS'],
    items.map((w) => [w.id, w.status, w.active ? 'yes' : 'no', w.url, w.events.join(',')]),
  );
type Attempt = { status_code: number | null; duration_ms: number; error: string | null; error_message: string | null };
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
  summary: 'register, test, inspect, change and delete webhooks; rotate their secrets; their deliveries',
  commands: {
    list: {
      summary: 'list webhooks',
      options: listOptions,
      async run(context) {
        const query = { ...pageQuery(context) };
        const { items, meta } = await readList<Webhook>(
          context,
          () => context.api.paginate('/v1/webhooks', { params: { query } }),
          () => context.api.get('/v1/webhooks', { params: { query } }),
        );
        printList(context, items, meta, () => webhookTable(items));
        return 0;
      },
    },
    create: {
      summary: 'register a webhook (its signing secret is shown this once)',
      options: {
        url: { type: 'string', description: 'where events are POSTed: https in live mode (required)' },
        events: { type: 'string', description: 'event types, comma-separated, or * for every type (required)' },
        description: { type: 'string', description: 'what it is for' },
        ...idempotencyOption,
      },
      async run(context) {
        required(context, 'events');
        const registered = await context.api.post('/v1/webhooks', {
          body: {
            url: required(context, 'url'),
            events: listOption(context, 'events') as Subscription[],
            description: optionalString(context, 'description'),
          },
        });
        const created = registered.data as Webhook & { secret: string };
        context.out.result(
          withEtag(registered),
          () => `Registered webhook ${created.id}.\nSigning secret (shown this once; store it now): ${created.secret}`,
        );
        return 0;
      },
    },
    get: {
      summary: 'show a webhook',
      args: '<webhook_id>',
      async run(context) {
        const read = await context.api.get('/v1/webhooks/{id}', { params: { path: { id: argument(context, 0, 'the webhook id') } } });
        const hook = read.data as Webhook;
        context.out.result(
          withEtag(read),
          () => webhookTable([hook]) + (hook.description ? `\n\n${hook.description}` : '') + etagLine(read),
        );
        return 0;
      },
    },
    update: {
      summary: "change a webhook's URL, events, description, or pause and resume it",
      args: '<webhook_id>',
      options: {
        url: { type: 'string', description: 'its new URL' },
        events: { type: 'string', description: 'its new event types, comma-separated, or *' },
        description: { type: 'string', description: 'its new description' },
        active: {
          type: 'string',
          description: 'false pauses it; true resumes it (and re-enables a failed one)',
          values: ['true', 'false'],
        },
        ...ifMatchOption,
      },
      async run(context) {
        const id = argument(context, 0, 'the webhook id');
        const active = choiceOption(context, 'active', ['true', 'false']);
        const changes = {
          url: optionalString(context, 'url'),
          events: listOption(context, 'events') as Subscription[] | undefined,
          description: optionalString(context, 'description'),
          active: active === undefined ? undefined : active === 'true',
        };
        if (Object.values(changes).every((value) => value === undefined)) {
          throw new UsageError('give at least one of --url, --events, --description and --active');
        }
        const changed = await context.api.patch('/v1/webhooks/{id}', {
          params: { path: { id }, ...conditionOf(context) },
          body: changes,
        });
        const hook = changed.data as Webhook;
        context.out.result(withEtag(changed), () => webhookTable([hook]) + etagLine(changed));
        return 0;
      },
    },
    delete: {
      summary: 'delete a webhook (it gets no more deliveries)',
      args: '<webhook_id>',
      options: { ...ifMatchOption },
      async run(context) {
        const id = argument(context, 0, 'the webhook id');
        await context.api.delete('/v1/webhooks/{id}', { params: { path: { id }, ...conditionOf(context) } });
        context.out.result({ id, deleted: true }, () => `Deleted webhook ${id}.`);
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
          ...pageQuery(context),
          status: optionalString(context, 'status'),
          event_type: optionalString(context, 'event-type'),
        } as Record<string, unknown>;
        const init = { params: { path: { id }, query } };
        const { items, meta } = await readList<Delivery>(
          context,
          () => context.api.paginate('/v1/webhooks/{id}/deliveries', init),
          () => context.api.get('/v1/webhooks/{id}/deliveries', init),
        );
        printList(context, items, meta, () =>
          table(
            ['ID', 'STATUS', 'EVENT', 'EVENT ID', 'CREATED'],
            items.map((d) => [d.id, d.status, d.event_type, d.event_id, d.created_at]),
          ),
        );
        return 0;
      },
    },
    test: {
      summary: 'send one signed example event to the webhook now, and show how its receiver answered',
      args: '<webhook_id>',
      options: {
        'event-type': { type: 'string', description: 'the example event to send (default workflow.completed)' },
      },
      async run(context) {
        const id = argument(context, 0, 'the webhook id');
        const { data } = await context.api.post('/v1/webhooks/{id}/test', {
          params: { path: { id } },
          body: { event_type: (optionalString(context, 'event-type') ?? 'workflow.completed') as EventType },
        });
        const delivery = data as Omit<Delivery, 'attempts'> & { attempts: Attempt[] };
        const attempt = delivery.attempts.at(-1);
        context.out.result(delivery, () =>
          [
            `Sent a test ${delivery.event_type} as ${delivery.id}: ${delivery.status}.`,
            attempt
              ? `  answered ${attempt.status_code ?? '-'}${attempt.error ? ` (${attempt.error}: ${attempt.error_message ?? ''})` : ''} in ${attempt.duration_ms} ms`
              : '',
          ]
            .filter(Boolean)
            .join('\n'),
        );
        return delivery.status === 'succeeded' ? 0 : 1;
      },
    },
    'rotate-secret': {
      summary: 'make a new signing secret (shown this once); the old one keeps signing beside it for --expires-in seconds',
      args: '<webhook_id>',
      options: {
        'expires-in': { type: 'string', description: 'seconds the old secret keeps signing, 0 to 604800 (default 86400)' },
      },
      async run(context) {
        const id = argument(context, 0, 'the webhook id');
        const expiresIn = integerOption(context, 'expires-in');
        const { data } = await context.api.post('/v1/webhooks/{id}/rotate-secret', {
          params: { path: { id } },
          body: expiresIn === undefined ? {} : { expires_in: expiresIn },
        });
        const rotated = data as Webhook & { secret: string; previous_secret_expires_at: string | null };
        context.out.result(
          rotated,
          () =>
            `New signing secret of ${rotated.id} (shown this once; store it now): ${rotated.secret}` +
            (rotated.previous_secret_expires_at ? `\nThe old one also signs until ${rotated.previous_secret_expires_at}.` : ''),
        );
        return 0;
      },
    },
    recover: {
      summary: 'queue again the failed and skipped deliveries created since --since (500 a call)',
      args: '<webhook_id>',
      options: {
        since: { type: 'string', description: 'an ISO 8601 time, e.g. 2026-11-29T00:00:00Z (required)' },
        ...idempotencyOption,
      },
      async run(context) {
        const id = argument(context, 0, 'the webhook id');
        const { data } = await context.api.post('/v1/webhooks/{id}/recover', {
          params: { path: { id } },
          body: { since: required(context, 'since') },
        });
        context.out.result(
          data,
          () =>
            `Queued ${data.requeued} deliver${data.requeued === 1 ? 'y' : 'ies'} of ${id} again.` +
            (data.has_more ? ' More wait: run it again with the same --since.' : ''),
        );
        return 0;
      },
    },
    redeliver: {
      summary: 'send a delivery again (a new sequence of attempts of the same event)',
      args: '<webhook_id> <delivery_id>',
      options: { ...idempotencyOption },
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
