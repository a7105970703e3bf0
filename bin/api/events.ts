import { eventTypes, type ServiceEvent } from '@project-automation-service/sdk';
import {
  argument,
  type CommandContext,
  type CommandGroup,
  listOption,
  listOptions,
  pageQuery,
  optionalString,
  UsageError,
} from './command';
import { followEvents, newestEventId } from './event-follower';
import { printList, readList } from './list-result';
import { table } from './output';
import { interrupted } from './watch';

/** The --events (or --type) list, checked against the catalogue. */
export const eventFilter = (context: CommandContext, name: string): ((event: ServiceEvent) => boolean) => {
  const wanted = listOption(context, name);
  if (!wanted) return () => true;
  const unknown = wanted.filter((type) => !(eventTypes as readonly string[]).includes(type));
  if (unknown.length > 0) throw new UsageError(`unknown event type ${unknown.join(', ')}; the types are ${eventTypes.join(', ')}`);
  return (event) => wanted.includes(event.type);
};

export const eventLine = (event: ServiceEvent) => `${event.created_at}  ${event.type.padEnd(26)} ${event.id}`;

export const events: CommandGroup = {
  name: 'events',
  summary: 'list and follow what happened',
  commands: {
    list: {
      summary: 'list events, newest first',
      options: {
        ...listOptions,
        type: { type: 'string', description: 'only this event type' },
        'starting-after': { type: 'string', description: 'only events after this event id, oldest first' },
      },
      async run(context) {
        const query = {
          ...pageQuery(context),
          type: optionalString(context, 'type'),
          starting_after: optionalString(context, 'starting-after'),
        } as Record<string, unknown>;
        const { items, meta } = await readList<ServiceEvent>(
          context,
          () => context.api.paginate('/v1/events', { params: { query } }),
          () => context.api.get('/v1/events', { params: { query } }),
        );
        printList(context, items, meta, () =>
          table(
            ['CREATED', 'TYPE', 'ID'],
            items.map((e) => [e.created_at, e.type, e.id]),
          ),
        );
        return 0;
      },
    },
    get: {
      summary: 'show an event with its data',
      args: '<event_id>',
      async run(context) {
        const { data } = await context.api.get('/v1/events/{id}', { params: { path: { id: argument(context, 0, 'the event id') } } });
        const event = data as ServiceEvent;
        context.out.result(event, () => `${eventLine(event)}\n${JSON.stringify(event.data, null, 2)}`);
        return 0;
      },
    },
    tail: {
      summary: 'print events as they happen (Ctrl-C stops)',
      options: {
        type: { type: 'string', description: 'comma list of event types to show' },
        since: { type: 'string', description: 'start after this event id instead of now' },
      },
      async run(context) {
        const show = eventFilter(context, 'type');
        const after = optionalString(context, 'since') ?? (await newestEventId(context.api));
        context.out.error('Following events (Ctrl-C stops)…');
        for await (const event of followEvents(context.api, after, context.signal)) {
          if (show(event)) context.out.line(context.out.json ? JSON.stringify(event) : eventLine(event));
        }
        return interrupted;
      },
    },
  },
};
