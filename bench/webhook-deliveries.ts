import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, ScanCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from '../functions/adapters/dynamodb/client';
import { dynamoEventRepository, outboxItemsOfEvents } from '../functions/adapters/dynamodb/event-repository';
import { entityTypes, keys } from '../functions/adapters/dynamodb/keys';
import { newEvent } from '../functions/core/events/event';
import { eventCatalogue, type EventType } from '../functions/core/events/event-types';
import type { Tenant } from '../functions/core/tenancy';
import type { CpuMeter, CpuShare } from './cpu-usage';
import type { CallMeter, CallTally } from './dynamodb-calls';
import { type BenchRuntime, newBenchAccount } from './local-runtime';
import { pairKey, type RunTracker, type WebhookReceiver } from './webhook-receiver';
import { percentile } from './stats';

/**
 * Webhook deliveries through the local runtime, end to end: events written with the outbox
 * (`dynamoEventRepository.record`, a state change), fanned out from DynamoDB Local's stream,
 * queued on the local delivery queue (in this process's memory, as `npm start -- --in-memory` keeps
 * it), dispatched, and received by a real HTTP receiver.
 */

export const benchEventType: EventType = 'deployment.completed';

export interface ThroughputSpec {
  name: string;
  webhooks: number;
  events: number;
}

export interface WebhookSettings {
  throughput: ThroughputSpec[];
  /** Events of the unmeasured run before the others (1 webhook): the JVM's JIT compiles DynamoDB Local's paths in it. */
  warmupEvents: number;
  /** Transactions written at once while a throughput run records its events. */
  recordConcurrency: number;
  /** Events per transaction in a throughput run (a producer recording a burst: the puts and each counter once). */
  eventsPerTransaction: number;
  /** The latency runs: `events` events, one every `intervalMs`, to one webhook. */
  latency: LatencySpec[];
  /** A run waits at most this long for its deliveries, then reports what is missing. */
  maxWaitMs: number;
  /** Calls of each kind the DynamoDB Local probe makes. */
  probeCalls: number;
}

export interface LatencySpec {
  events: number;
  intervalMs: number;
}

export interface WebhookContext {
  runtime: BenchRuntime;
  receiver: WebhookReceiver;
  /** The bench's own table access (its calls are not metered). */
  table: TableRef;
  meter: CallMeter;
  cpu: CpuMeter;
  /** A tenant with one webhook, whose events mark how far the stream and the queue have got. */
  sentinel: Tenant;
}

export interface Spread {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

const spread = (values: readonly number[]): Spread => ({
  p50: percentile(values, 50),
  p99: percentile(values, 99),
  max: percentile(values, 100),
  count: values.length,
});

/** Where a delivery's time went, from the service's own timestamps (ms resolution, wall clock). */
export interface Stages {
  /** State change (record() resolved) → fan-out of its event began (the delivery's created_at). */
  streamToFanOut: Spread;
  /** Fan-out began → the dispatcher began the first attempt (attempts[0].attempted_at). */
  fanOutToDispatch: Spread;
  /** The dispatcher began the first attempt → its request arrived at the receiver. */
  dispatchToArrival: Spread;
}

export interface DeliveryOutcome {
  /** Deliveries in the table by status, when the run ended. */
  statuses: Record<string, number>;
  /** Deliveries with more than one attempt. */
  retried: number;
  stages: Stages;
  /** From the first record() call: when the last delivery was created (fan-out done) and the last first attempt began. */
  fanOutDoneMs: number;
  lastDispatchMs: number;
}

export interface ThroughputResult extends DeliveryOutcome {
  name: string;
  webhooks: number;
  events: number;
  expected: number;
  recordConcurrency: number;
  eventsPerTransaction: number;
  /** First write of the events → the last one committed. */
  recordMs: number;
  /** The transactions that wrote the events. */
  recordTransactions: number;
  /** Transactions DynamoDB cancelled for a conflict (on the event counters), retried. */
  recordConflicts: number;
  /** Distinct (event, webhook) pairs the receiver saw by the end of the wait. */
  received: number;
  missing: number;
  /** Pairs that arrived only after the wait gave up (while the bench waited for the runtime to catch up). */
  late: number;
  /** Requests beyond the first for a pair (at-least-once). */
  duplicates: number;
  /** Requests with X-Service-Attempt > 1. */
  retryArrivals: number;
  timedOut: boolean;
  /** First write of the events → first arrival. */
  firstArrivalMs: number;
  /** The delivery period: the first event committed → the last first arrival (or the deadline). */
  elapsedMs: number;
  deliveriesPerSecond: number;
  /** Per delivery: record() resolved → first arrival. */
  endToEnd: Spread;
  /** Deliveries created per second by the fan-out, until it was done. */
  fanOutPerSecond: number;
  /**
   * First arrivals per second once the fan-out was done (the queue and dispatcher alone), when
   * that lasted at least a second; NaN otherwise.
   */
  afterFanOutPerSecond: number;
  /** The runtime's DynamoDB calls from the first record() call until the queue was empty again. */
  dynamodb: CallTally;
  /** Calls per delivery received. */
  callsPerDelivery: number;
  /** CPU used while the run lasted. */
  cpu: CpuShare;
  /** After the run: time until the queue was empty and a sentinel event went through the stream. */
  catchUpMs: number;
}

export interface LatencyResult extends DeliveryOutcome {
  events: number;
  intervalMs: number;
  received: number;
  missing: number;
  duplicates: number;
  timedOut: boolean;
  /** Per event: record() resolved → first attempt arrived. */
  latency: Spread;
  dynamodb: CallTally;
  cpu: CpuShare;
}

interface Recorded {
  id: string;
  startMs: number;
  resolvedMs: number;
  resolvedWall: number;
  conflicts: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

const isTransactionConflict = (error: unknown): boolean =>
  error instanceof TransactionCanceledException && (error.CancellationReasons ?? []).some((r) => r.Code === 'TransactionConflict');

/**
 * One event, written through the outbox as a state change. Concurrent events of one tenant update
 * the same counters, so DynamoDB may cancel the transaction for a conflict: it is retried.
 */
const recordEvent = async (table: TableRef, tenant: Tenant, sequence: number): Promise<Recorded> => {
  const events = dynamoEventRepository(table);
  const event = newEvent(benchEventType, { ...eventCatalogue[benchEventType].example, bench_sequence: sequence }, Date.now());
  const startMs = performance.now();
  for (let conflicts = 0; ; conflicts += 1) {
    try {
      await events.record(tenant, event);
      return { id: event.id, startMs, resolvedMs: performance.now(), resolvedWall: Date.now(), conflicts };
    } catch (error) {
      if (!isTransactionConflict(error) || conflicts >= 50) throw error;
      await sleep(Math.random() * 5 * Math.min(conflicts + 1, 8));
    }
  }
};

/** Events `first`… written in one transaction, as a producer recording a burst would write them; retried on a conflict. */
const recordBatch = async (table: TableRef, tenant: Tenant, first: number, count: number): Promise<Recorded[]> => {
  const events = Array.from({ length: count }, (_, i) =>
    newEvent(benchEventType, { ...eventCatalogue[benchEventType].example, bench_sequence: first + i }, Date.now()),
  );
  const startMs = performance.now();
  for (let conflicts = 0; ; conflicts += 1) {
    try {
      await table.client.send(new TransactWriteCommand({ TransactItems: outboxItemsOfEvents(table.tableName, tenant, events) }));
      const resolvedMs = performance.now();
      const resolvedWall = Date.now();
      return events.map((event, i) => ({ id: event.id, startMs, resolvedMs, resolvedWall, conflicts: i === 0 ? conflicts : 0 }));
    } catch (error) {
      if (!isTransactionConflict(error) || conflicts >= 50) throw error;
      await sleep(Math.random() * 5 * Math.min(conflicts + 1, 8));
    }
  }
};

/** `count` events, `perTransaction` to a transaction, `concurrency` transactions at a time. */
const recordMany = async (
  table: TableRef,
  tenant: Tenant,
  count: number,
  concurrency: number,
  perTransaction: number,
): Promise<Recorded[]> => {
  const recorded: Recorded[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const first = next;
      next = Math.min(count, next + perTransaction);
      recorded.push(...(await recordBatch(table, tenant, first, next - first)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.ceil(count / perTransaction)) }, worker));
  return recorded;
};

/** A fresh account with a test key and `count` webhooks made through POST /v1/webhooks, each to the receiver. */
const tenantWithWebhooks = async (
  ctx: Pick<WebhookContext, 'runtime' | 'receiver'>,
  run: string,
  count: number,
): Promise<{ tenant: Tenant; webhookIds: string[] }> => {
  const { account, key } = await newBenchAccount(ctx.runtime.table, `webhooks-${run}`, 'test');
  const webhookIds: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await fetch(`http://127.0.0.1:${ctx.runtime.port}/v1/webhooks`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: ctx.receiver.url(run, i), events: [benchEventType], description: `bench ${run} ${i}` }),
    });
    const answer = (await response.json()) as { data?: { id?: string } };
    if (response.status !== 201 || !answer.data?.id)
      throw new Error(`could not create webhook ${i} of ${run}: HTTP ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
    webhookIds.push(answer.data.id);
  }
  return { tenant: { accountId: account.id, mode: 'test' }, webhookIds };
};

/**
 * Waits (bounded) until the runtime's delivery queue is empty: every message acknowledged, so every
 * dispatch (its result write included) has ended. False if it is not by the deadline.
 */
const queueDrained = async (runtime: BenchRuntime, timeoutMs: number): Promise<boolean> => {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (runtime.queuedDeliveries() === 0) return true;
    if (performance.now() > deadline) return false;
    await sleep(25);
  }
};

/**
 * Waits until the runtime has caught up: the queue is empty and an event recorded now has gone
 * through the stream, the fan-out and the queue to the receiver. Returns how long that took.
 */
export const settle = async (ctx: WebhookContext, timeoutMs = 120_000): Promise<number> => {
  const started = performance.now();
  await queueDrained(ctx.runtime, timeoutMs);
  const tracker = ctx.receiver.track('sentinel');
  const { id } = await recordEvent(ctx.table, ctx.sentinel, 0);
  await tracker.waitUntil(() => tracker.first.has(pairKey(0, id)), started + timeoutMs);
  if (!tracker.first.has(pairKey(0, id))) throw new Error(`the runtime did not deliver a sentinel event within ${timeoutMs / 1000} s`);
  return performance.now() - started;
};

/** After a run: NaN and a warning, not a crash, when the runtime does not catch up (the next run then starts behind). */
const settleAfterRun = (ctx: WebhookContext): Promise<number> =>
  settle(ctx).catch((error: unknown) => {
    console.log(`    the runtime did not catch up after the run: ${error instanceof Error ? error.message : String(error)}`);
    return Number.NaN;
  });

/** The sentinel tenant: one webhook to the receiver's `sentinel` run. */
export const sentinelTenant = async (runtime: BenchRuntime, receiver: WebhookReceiver): Promise<Tenant> =>
  (await tenantWithWebhooks({ runtime, receiver }, 'sentinel', 1)).tenant;

interface StoredDelivery {
  event_id: string;
  status: string;
  created_at: string;
  attempt_count: number;
  attempts?: { number: number; attempted_at: string }[];
}

const deliveriesOf = async (table: TableRef, tenant: Tenant, webhookId: string): Promise<StoredDelivery[]> => {
  const items: StoredDelivery[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.deliveries(tenant, webhookId), ':prefix': keys.deliverySortKeyPrefix },
        ProjectionExpression: 'event_id, #status, created_at, attempt_count, attempts',
        ExpressionAttributeNames: { '#status': 'status' },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...((page.Items ?? []) as StoredDelivery[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
};

/** The size of a stored succeeded delivery (its item without the attempt) and of its attempt record, bytes. */
export const deliverySizes = async (table: TableRef): Promise<{ item: number; attempt: number }> => {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new ScanCommand({
        TableName: table.tableName,
        FilterExpression: 'entity = :delivery AND #status = :succeeded',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':delivery': entityTypes.delivery, ':succeeded': 'succeeded' },
        ExclusiveStartKey: startKey,
      }),
    );
    const item = page.Items?.[0];
    if (item) {
      const attempts = (item.attempts ?? []) as unknown[];
      return { item: JSON.stringify({ ...item, attempts: [] }).length, attempt: JSON.stringify(attempts[0] ?? {}).length };
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { item: 0, attempt: 0 };
};

/** Reads the run's deliveries back and splits each delivery's time into stages. */
const outcomeOf = async (
  ctx: WebhookContext,
  tenant: Tenant,
  webhookIds: readonly string[],
  recorded: ReadonlyMap<string, Recorded>,
  tracker: RunTracker,
  t0Wall: number,
): Promise<DeliveryOutcome> => {
  const statuses: Record<string, number> = {};
  const streamToFanOut: number[] = [];
  const fanOutToDispatch: number[] = [];
  const dispatchToArrival: number[] = [];
  let retried = 0;
  let fanOutDone = Number.NaN;
  let lastDispatch = Number.NaN;
  for (const [index, webhookId] of webhookIds.entries()) {
    for (const delivery of await deliveriesOf(ctx.table, tenant, webhookId)) {
      statuses[delivery.status] = (statuses[delivery.status] ?? 0) + 1;
      if (delivery.attempt_count > 1) retried += 1;
      const created = Date.parse(delivery.created_at);
      const first = delivery.attempts?.find((a) => a.number === 1);
      const dispatched = first ? Date.parse(first.attempted_at) : Number.NaN;
      const event = recorded.get(delivery.event_id);
      const arrival = tracker.first.get(pairKey(index, delivery.event_id));
      if (event) streamToFanOut.push(created - event.resolvedWall);
      if (Number.isFinite(dispatched)) fanOutToDispatch.push(dispatched - created);
      if (arrival && Number.isFinite(dispatched)) dispatchToArrival.push(arrival.wallMs - dispatched);
      fanOutDone = Math.max(Number.isNaN(fanOutDone) ? -Infinity : fanOutDone, created - t0Wall);
      if (Number.isFinite(dispatched)) lastDispatch = Math.max(Number.isNaN(lastDispatch) ? -Infinity : lastDispatch, dispatched - t0Wall);
    }
  }
  return {
    statuses,
    retried,
    stages: {
      streamToFanOut: spread(streamToFanOut),
      fanOutToDispatch: spread(fanOutToDispatch),
      dispatchToArrival: spread(dispatchToArrival),
    },
    fanOutDoneMs: fanOutDone,
    lastDispatchMs: lastDispatch,
  };
};

const duplicatesOf = (tracker: RunTracker): number => [...tracker.counts.values()].reduce((sum, n) => sum + n - 1, 0);

/**
 * `spec.events` events written as a producer writes a burst (`eventsPerTransaction` to a
 * transaction, `recordConcurrency` transactions at once), each to `spec.webhooks` webhooks: the
 * rate is the deliveries over the delivery period, from the first event committed until every
 * (event, webhook) pair has arrived, so the bench's own writes do not set it.
 */
export const runThroughput = async (ctx: WebhookContext, spec: ThroughputSpec, settings: WebhookSettings): Promise<ThroughputResult> => {
  const run = `throughput-${spec.name}`;
  const { tenant, webhookIds } = await tenantWithWebhooks(ctx, run, spec.webhooks);
  const expected = spec.webhooks * spec.events;
  const tracker = ctx.receiver.track(run);

  ctx.meter.reset();
  await ctx.cpu.restart();
  const t0 = performance.now();
  const t0Wall = Date.now();
  const recordedList = await recordMany(ctx.table, tenant, spec.events, settings.recordConcurrency, settings.eventsPerTransaction);
  const recordMs = performance.now() - t0;
  const firstCommitted = Math.min(...recordedList.map((r) => r.resolvedMs));
  const recorded = new Map(recordedList.map((r) => [r.id, r]));
  const allArrived = (): boolean => tracker.first.size >= expected;
  await tracker.waitUntil(allArrived, t0 + settings.maxWaitMs, () =>
    console.log(`    … ${tracker.first.size}/${expected} after ${((performance.now() - t0) / 1000).toFixed(0)} s`),
  );
  const timedOut = !allArrived();
  // What had arrived when the wait ended: later arrivals do not count (they are reported as late).
  const firstArrivals = [...tracker.first.values()];
  const received = firstArrivals.length;
  const lastArrival = timedOut ? performance.now() : Math.max(...firstArrivals.map((a) => a.atMs));
  // The last acknowledgements follow the last arrivals: count the calls until the queue is empty.
  await queueDrained(ctx.runtime, timedOut ? 1_000 : 30_000);
  const dynamodb = ctx.meter.read();
  const cpu = await ctx.cpu.read();

  const outcome = await outcomeOf(ctx, tenant, webhookIds, recorded, tracker, t0Wall);
  const endToEnd = firstArrivals.flatMap((a) => {
    const event = recorded.get(a.eventId);
    return event ? [a.atMs - event.resolvedMs] : [];
  });
  const elapsedMs = lastArrival - firstCommitted;
  const afterFanOut = firstArrivals.filter((a) => a.atMs - t0 > outcome.fanOutDoneMs);
  const afterFanOutMs = lastArrival - t0 - outcome.fanOutDoneMs;
  const catchUpMs = await settleAfterRun(ctx);
  return {
    name: spec.name,
    webhooks: spec.webhooks,
    events: spec.events,
    expected,
    recordConcurrency: settings.recordConcurrency,
    eventsPerTransaction: settings.eventsPerTransaction,
    recordMs,
    recordTransactions: Math.ceil(spec.events / settings.eventsPerTransaction),
    recordConflicts: recordedList.reduce((sum, r) => sum + r.conflicts, 0),
    received,
    missing: expected - received,
    late: tracker.first.size - received,
    duplicates: duplicatesOf(tracker),
    retryArrivals: tracker.arrivals.filter((a) => a.attempt > 1).length,
    timedOut,
    firstArrivalMs: firstArrivals.length > 0 ? Math.min(...firstArrivals.map((a) => a.atMs)) - t0 : Number.NaN,
    elapsedMs,
    deliveriesPerSecond: (received / elapsedMs) * 1000,
    endToEnd: spread(endToEnd),
    fanOutPerSecond: (expected / outcome.fanOutDoneMs) * 1000,
    afterFanOutPerSecond: afterFanOutMs >= 1_000 ? (afterFanOut.length / afterFanOutMs) * 1000 : Number.NaN,
    dynamodb,
    callsPerDelivery: dynamodb.calls / Math.max(1, received),
    cpu,
    catchUpMs,
    ...outcome,
  };
};

/** `spec.events` events, one every `spec.intervalMs`, to one webhook: latency rather than queueing. */
export const runLatency = async (ctx: WebhookContext, spec: LatencySpec, settings: WebhookSettings): Promise<LatencyResult> => {
  const { events, intervalMs } = spec;
  const run = `latency-${intervalMs}ms`;
  const { tenant, webhookIds } = await tenantWithWebhooks(ctx, run, 1);
  const tracker = ctx.receiver.track(run);

  ctx.meter.reset();
  await ctx.cpu.restart();
  const t0 = performance.now();
  const t0Wall = Date.now();
  const pending: Promise<Recorded>[] = [];
  for (let i = 0; i < events; i += 1) {
    await sleep(t0 + i * intervalMs - performance.now());
    pending.push(recordEvent(ctx.table, tenant, i));
  }
  const recordedList = await Promise.all(pending);
  const recorded = new Map(recordedList.map((r) => [r.id, r]));
  const allArrived = (): boolean => tracker.first.size >= events;
  await tracker.waitUntil(allArrived, t0 + settings.maxWaitMs);
  const timedOut = !allArrived();
  const received = tracker.first.size;
  const latency = recordedList.flatMap((event) => {
    const arrival = tracker.first.get(pairKey(0, event.id));
    return arrival ? [arrival.atMs - event.resolvedMs] : [];
  });
  await queueDrained(ctx.runtime, timedOut ? 1_000 : 30_000);
  const dynamodb = ctx.meter.read();
  const cpu = await ctx.cpu.read();
  const outcome = await outcomeOf(ctx, tenant, webhookIds, recorded, tracker, t0Wall);
  await settleAfterRun(ctx);
  return {
    events,
    intervalMs,
    received,
    missing: events - received,
    duplicates: duplicatesOf(tracker),
    timedOut,
    latency: spread(latency),
    dynamodb,
    cpu,
    ...outcome,
  };
};
