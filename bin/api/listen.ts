import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ServiceEvent } from '@project-automation-service/sdk';
import { webhookUserAgent } from '../../functions/adapters/runtime/webhook-runtime';
import { newId } from '../../functions/core/ids';
import { deliveryHeaders } from '../../functions/core/webhooks/dispatch';
import { eventPayload } from '../../functions/core/webhooks/event-payload';
import { generateWebhookSecret } from '../../functions/core/webhooks/signature';
import { type Command, type CommandContext, required, UsageError } from './command';
import { eventFilter, eventLine } from './events';
import { followEvents, newestEventId } from './event-follower';
import { interrupted } from './watch';

/** What `listen` keeps between runs, per API and key: its signing secret and the last event it handled. */
interface ListenState {
  secret: string;
  last_event_id?: string;
}

/** A forward gets as long as a webhook delivery attempt: any 2xx within 10 s. */
const forwardTimeoutMs = 10_000;

const stateDir = () =>
  process.env.SERVICE_CLI_STATE_DIR ?? join(process.env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state'), 'project-automation-service');

/** One file per API URL and key, named by a hash of both (the key itself is never written). */
const stateFile = (context: CommandContext) =>
  join(stateDir(), `listen-${createHash('sha256').update(`${context.apiUrl}\n${context.apiKey}`).digest('hex').slice(0, 16)}.json`);

const readState = async (file: string): Promise<ListenState | undefined> => {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as ListenState;
  } catch {
    return undefined;
  }
};

/** Written to a temporary file and renamed over the old one, so a crash never leaves half a file. */
const writeState = async (file: string, state: ListenState): Promise<void> => {
  await mkdir(stateDir(), { recursive: true, mode: 0o700 });
  await writeFile(`${file}.tmp`, JSON.stringify(state), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
};

/** POSTs the event to the local URL exactly as a webhook delivery would arrive: same body, same signed headers. */
const forward = async (url: string, event: ServiceEvent, secret: string): Promise<string> => {
  const payload = eventPayload(event as Parameters<typeof eventPayload>[0]);
  const nowMs = Date.now();
  const headers = deliveryHeaders({
    payload,
    secrets: [secret],
    eventId: event.id,
    eventType: event.type,
    deliveryId: newId('delivery', nowMs),
    attempt: 1,
    nowMs,
    userAgent: webhookUserAgent,
  });
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(forwardTimeoutMs),
    });
    await response.body?.cancel();
    return `${response.status}${response.ok ? '' : ' (not a 2xx: a webhook would retry this)'} [${Math.round(performance.now() - started)} ms]`;
  } catch (error) {
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${forwardTimeoutMs / 1000} s`
        : (((error as Error).cause as Error)?.message ?? (error as Error).message);
    return `failed: ${reason}`;
  }
};

export const listen: Command = {
  summary: 'forward your events to a local URL, signed like webhook deliveries',
  options: {
    'forward-to': { type: 'string', description: 'where to POST each event, e.g. http://localhost:4000/hooks (required)' },
    events: { type: 'string', description: 'comma list of event types to forward (default: all)' },
    'from-now': { type: 'boolean', description: 'skip what happened while listen was not running' },
  },
  async run(context) {
    const target = required(context, 'forward-to');
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new UsageError('--forward-to must be a URL, e.g. http://localhost:4000/hooks');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--forward-to must be an http:// or https:// URL');
    const forwarded = eventFilter(context, 'events');

    const file = stateFile(context);
    const state: ListenState = (await readState(file)) ?? { secret: generateWebhookSecret() };
    const resume = state.last_event_id !== undefined && context.values['from-now'] !== true;
    const after = resume ? state.last_event_id : await newestEventId(context.api);
    state.last_event_id = after;
    await writeState(file, state);

    context.out.error(`Ready. Forwarding events to ${url.href}`);
    context.out.error(`Your local webhook signing secret is ${state.secret} (the same every time for this API and key).`);
    context.out.error(
      resume ? `Resuming after ${after}: events that happened meanwhile come first.` : 'Following events from now on. Ctrl-C stops.',
    );
    for await (const event of followEvents(context.api, after, context.signal)) {
      if (forwarded(event)) {
        const outcome = await forward(url.href, event, state.secret);
        context.out.line(
          context.out.json ? JSON.stringify({ event: event.id, type: event.type, outcome }) : `${eventLine(event)}  → ${outcome}`,
        );
      }
      state.last_event_id = event.id;
      await writeState(file, state);
    }
    return interrupted;
  },
};
