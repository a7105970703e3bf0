import { startLoopbackServer } from './loopback-server';

/**
 * The bench's webhook receiver: a real HTTP server on 127.0.0.1 that answers every POST with 200
 * and notes when it arrived and which event (X-Service-Event-Id) and attempt it carried. The URL
 * path says which run and which webhook a request was sent to: `/<run>/<webhook index>`.
 */

export interface Arrival {
  run: string;
  webhook: number;
  eventId: string;
  deliveryId: string;
  /** X-Service-Attempt: 1 for a first attempt. */
  attempt: number;
  /** performance.now() when the request's headers arrived (same clock as the bench's timings). */
  atMs: number;
  /** Date.now() at the same moment, to compare with the service's own timestamps. */
  wallMs: number;
}

/** What one run saw: the first arrival of every (event, webhook) pair, and how often each came. */
export interface RunTracker {
  readonly run: string;
  /** Key `${webhook}|${eventId}` → the first arrival of that pair. */
  readonly first: Map<string, Arrival>;
  /** Key → number of requests for that pair (more than 1: a duplicate). */
  readonly counts: Map<string, number>;
  /** Every request of the run, in arrival order. */
  readonly arrivals: Arrival[];
  /**
   * Resolves when `done()` holds (checked at each arrival), or at `deadlineMs` (performance.now()),
   * whichever comes first; `progress` is called every `progressEveryMs` meanwhile.
   */
  waitUntil(done: () => boolean, deadlineMs: number, progress?: () => void, progressEveryMs?: number): Promise<void>;
}

export interface WebhookReceiver {
  readonly port: number;
  /** The URL of webhook `index` of run `run`. */
  url(run: string, index: number): string;
  /** Starts recording the requests of run `run` (earlier ones of that run are not kept). */
  track(run: string): RunTracker;
  /** Requests that matched no tracked run, or carried no event id. */
  readonly strays: number;
  close(): Promise<void>;
}

export const pairKey = (webhook: number, eventId: string): string => `${webhook}|${eventId}`;

const headerValue = (value: string | string[] | undefined): string => (Array.isArray(value) ? (value[0] ?? '') : (value ?? ''));

const newTracker = (run: string): RunTracker & { add(arrival: Arrival): void } => {
  const first = new Map<string, Arrival>();
  const counts = new Map<string, number>();
  const arrivals: Arrival[] = [];
  let wake: (() => void) | undefined;
  return {
    run,
    first,
    counts,
    arrivals,
    add(arrival) {
      arrivals.push(arrival);
      const key = pairKey(arrival.webhook, arrival.eventId);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (!first.has(key)) first.set(key, arrival);
      wake?.();
    },
    async waitUntil(done, deadlineMs, progress, progressEveryMs = 10_000) {
      let nextProgress = performance.now() + progressEveryMs;
      while (!done() && performance.now() < deadlineMs) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.max(0, Math.min(deadlineMs, nextProgress) - performance.now()));
          wake = () => {
            if (!done()) return;
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
        if (progress && performance.now() >= nextProgress && !done()) {
          progress();
          nextProgress += progressEveryMs;
        }
      }
    },
  };
};

export const startWebhookReceiver = async (): Promise<WebhookReceiver> => {
  const trackers = new Map<string, ReturnType<typeof newTracker>>();
  let strays = 0;

  const server = await startLoopbackServer((req, res) => {
    const atMs = performance.now();
    const wallMs = Date.now();
    const [, run = '', index = ''] = (req.url ?? '').split('/');
    const eventId = headerValue(req.headers['x-service-event-id']);
    const tracker = trackers.get(run);
    if (tracker && eventId !== '' && /^\d+$/.test(index)) {
      tracker.add({
        run,
        webhook: Number(index),
        eventId,
        deliveryId: headerValue(req.headers['x-service-delivery-id']),
        attempt: Number(headerValue(req.headers['x-service-attempt'])) || 0,
        atMs,
        wallMs,
      });
    } else {
      strays += 1;
    }
    // Read the body (the sender waits for the answer after sending it), then answer 200.
    req.resume();
    req.once('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '2' });
      res.end('ok');
    });
  });
  const { port } = server;

  return {
    port,
    url: (run, index) => `http://127.0.0.1:${port}/${run}/${index}`,
    track(run) {
      const tracker = newTracker(run);
      trackers.set(run, tracker);
      return tracker;
    },
    get strays() {
      return strays;
    },
    close: server.close,
  };
};
