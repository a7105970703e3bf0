import { cpus } from 'node:os';
import { type CpuShare, meterCpu } from './cpu-usage';
import {
  type CallMeter,
  type CallTally,
  markAsBenchCalls,
  meterDynamoCalls,
  queueOperationPrefix,
  serviceCalls,
  streamOperations,
} from './dynamodb-calls';
import { type ProbeResult, probeDynamoCapacity } from './dynamodb-probe';
import { type BenchRuntime, localDocumentClient } from './local-runtime';
import { type Check, type Figure, fixed, heading, printTable } from './report';
import {
  type LatencyResult,
  runLatency,
  runThroughput,
  sentinelTenant,
  settle,
  type Spread,
  type ThroughputResult,
  type WebhookContext,
  type WebhookSettings,
} from './webhook-deliveries';
import { type DeliveryCost, deliveryCost, listPrices } from './webhook-cost';
import { deliverySizes } from './webhook-deliveries';
import { startWebhookReceiver } from './webhook-receiver';

/** Section 4: webhook deliveries through the local runtime, from the state change to the receiver's 2xx. */

export type { WebhookSettings } from './webhook-deliveries';

export interface WebhookSection {
  throughput: ThroughputResult[];
  latency: LatencyResult[];
  /** The runtime's DynamoDB calls per second while nothing happens (the pollers alone). */
  idle: CallTally;
  /** Sentinel round trips of the warm-up, ms: the latency of a single event on an idle runtime. */
  warmupRoundTripsMs: number[];
  /** DynamoDB Local's rate per call type at the pipeline's concurrency, measured before the runs. */
  probe: ProbeResult[];
  /** Per throughput run: the calls each delivery cost and the rate DynamoDB Local served them at. */
  load: DynamoLoad[];
  cost: DeliveryCost[];
  /** Issue 17's targets: deliveries/s for both runs, state change → first attempt p99 at 50 events/s. */
  checks: Check[];
  figures: Figure[];
}

export interface DynamoLoad {
  run: string;
  /** The run's calls per delivery, the bench's own record() transactions included. */
  callsPerDelivery: Record<string, number>;
  totalPerDelivery: number;
  /** The run's DynamoDB Local calls per second (the runtime's and the bench's record() calls). */
  callsPerSecond: number;
}

const idleWindowMs = 2_000;
const probeConcurrency = 10;
/** Sentinel events sent before measuring: loads the code paths and warms DynamoDB Local's JIT. */
const warmupRounds = 5;

const seconds = (ms: number): string => fixed(ms / 1000, 2);

const cpuText = (cpu: CpuShare): string =>
  `${fixed(cpu.nodePercent, 0)}/${cpu.javaPercent === undefined ? '?' : fixed(cpu.javaPercent, 0)}`;

const statusText = (statuses: Record<string, number>): string =>
  Object.entries(statuses)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ') || 'none';

const perDelivery = (tally: CallTally, op: string, deliveries: number): string =>
  deliveries > 0 ? fixed((tally.byOperation[op]?.calls ?? 0) / deliveries, 2) : '—';

const meanMs = (tally: CallTally, op: string): string => {
  const entry = tally.byOperation[op];
  return entry && entry.calls > 0 ? fixed(entry.totalMs / entry.calls, 2) : '—';
};

/** Calls per delivery received: the service's own (as in AWS), the local queue's (SQS in AWS) and the stream poller's. */
export interface CallSplit {
  service: number;
  localQueue: number;
  stream: number;
}

export const callSplitOf = (tally: CallTally, deliveries: number): CallSplit => {
  const sum = (keep: (op: string) => boolean): number =>
    Object.entries(tally.byOperation)
      .filter(([op]) => keep(op))
      .reduce((total, [, c]) => total + c.calls, 0) / Math.max(1, deliveries);
  return {
    service: serviceCalls(tally) / Math.max(1, deliveries),
    localQueue: sum((op) => op.startsWith(queueOperationPrefix)),
    stream: sum((op) => streamOperations.includes(op)),
  };
};

/** At most this many DynamoDB calls per successful delivery (issue 17), the service's own. */
export const maxServiceCallsPerDelivery = 5;

const loadOf = (r: ThroughputResult): DynamoLoad => {
  const perDelivery: Record<string, number> = {};
  for (const [op, calls] of Object.entries(r.dynamodb.byOperation)) perDelivery[op] = calls.calls / Math.max(1, r.received);
  // The bench's own transactions that wrote the events, shared by the events' deliveries.
  perDelivery.TransactWriteItems =
    (perDelivery.TransactWriteItems ?? 0) + (r.recordTransactions + r.recordConflicts) / Math.max(1, r.received);
  return {
    run: r.name,
    callsPerDelivery: Object.fromEntries(Object.entries(perDelivery).map(([op, n]) => [op, Math.round(n * 100) / 100])),
    totalPerDelivery: Object.values(perDelivery).reduce((sum, n) => sum + n, 0),
    callsPerSecond: ((r.dynamodb.calls + r.recordTransactions + r.recordConflicts) / r.dynamodb.elapsedMs) * 1000,
  };
};

const printProbe = (probe: readonly ProbeResult[], load: readonly DynamoLoad[]): void => {
  printTable(
    `DynamoDB Local alone: calls per second at concurrency ${probeConcurrency}, against what the runs asked of it`,
    [{ header: 'Operation' }, { header: 'calls/s' }, { header: 'mean ms' }],
    probe.map((p) => [p.operation, fixed(p.callsPerSecond, 0), fixed(p.meanMs, 2)]),
    [
      'Measured on the runtime’s table after the warm-up, before the runs (1.5 KB items under keys of their own; a transaction = put +',
      'counter update; every kind warmed up first). The runtime’s pollers keep running meanwhile, as they do in the runs.',
      ...load.map(
        (l) =>
          `${l.run}: ${fixed(l.totalPerDelivery, 1)} DynamoDB calls per delivery (the bench’s record() included) at ${fixed(l.callsPerSecond, 0)} calls/s for the whole run.`,
      ),
    ],
  );
};

const printThroughput = (results: readonly ThroughputResult[]): void => {
  printTable(
    'Webhook deliveries: throughput over the delivery period (first event committed → every (event, webhook) pair answered 2xx)',
    [
      { header: 'Run' },
      { header: 'Webhooks' },
      { header: 'Events' },
      { header: 'Deliveries' },
      { header: 'Received' },
      { header: 'Missing' },
      { header: 'Dupl.' },
      { header: 'Write s' },
      { header: '1st arrival s' },
      { header: 'Fan-out done s' },
      { header: 'Last arrival s' },
      { header: 'Deliveries/s' },
      { header: 'Fan-out /s' },
      { header: 'After fan-out /s', align: 'right' },
      { header: 'e2e p50 s' },
      { header: 'e2e p99 s' },
      { header: 'CPU node/JVM %' },
    ],
    results.map((r) => [
      r.name,
      r.webhooks,
      r.events,
      r.expected,
      r.received,
      r.missing,
      r.duplicates,
      seconds(r.recordMs),
      seconds(r.firstArrivalMs),
      seconds(r.fanOutDoneMs),
      `${seconds(r.elapsedMs)}${r.timedOut ? ' (gave up)' : ''}`,
      fixed(r.deliveriesPerSecond, 0),
      fixed(r.fanOutPerSecond, 0),
      fixed(r.afterFanOutPerSecond, 0),
      seconds(r.endToEnd.p50),
      seconds(r.endToEnd.p99),
      cpuText(r.cpu),
    ]),
    [
      `Events written as a producer writes a burst: ${results[0]?.eventsPerTransaction ?? '?'} to an outbox transaction (their puts, each counter once),`,
      `${results[0]?.recordConcurrency ?? '?'} transactions at once. Deliveries/s = deliveries ÷ (first event committed → last arrival); the other times`,
      'count from the first write.',
      'Fan-out done = the last delivery item created (its created_at); e2e = one delivery from its record() resolving to its arrival.',
      'Fan-out /s = deliveries created per second until then; after fan-out /s = arrivals per second once it was done (the queue',
      'poller and dispatcher alone; — when that lasted under 1 s). The lower of the two stages sets the rate.',
      `CPU: this node process (runtime, pollers, receiver, bench) and DynamoDB Local's JVM, % of one core (${cpus().length} cores here).`,
      ...results.map(
        (r) =>
          `${r.name}: ${r.timedOut ? `GAVE UP after ${seconds(r.elapsedMs)} s with ${r.missing} missing (${r.late} of them arrived later); ` : ''}` +
          `deliveries ${statusText(r.statuses)}; ${r.retried} retried, ${r.retryArrivals} arrivals with attempt > 1; ` +
          `${r.recordTransactions} write transactions, ${r.recordConflicts} conflicts retried; stream and queue caught up ${seconds(r.catchUpMs)} s after the last arrival.`,
      ),
      'Duplicates: requests beyond the first per (event, webhook) seen until the queue was empty; a redelivery after the',
      '30 s visibility timeout would come later and is not waited for.',
    ],
  );
};

const printLatency = (results: readonly LatencyResult[], warmupMs: readonly number[], throughput: readonly ThroughputResult[]): void => {
  const single = throughput.find((r) => r.webhooks === 1);
  printTable(
    'Webhook deliveries: latency (record() resolved → first attempt arrives at the receiver), 1 webhook, events paced',
    [
      { header: 'Run' },
      { header: 'Events' },
      { header: 'Every ms' },
      { header: 'Received' },
      { header: 'Dupl.' },
      { header: 'p50 ms' },
      { header: 'p99 ms' },
      { header: 'max ms' },
      { header: 'CPU node/JVM %' },
    ],
    results.map((r) => [
      `latency-${r.intervalMs}ms`,
      r.events,
      r.intervalMs,
      `${r.received}${r.timedOut ? ' (gave up)' : ''}`,
      r.duplicates,
      fixed(r.latency.p50, 1),
      fixed(r.latency.p99, 1),
      fixed(r.latency.max, 1),
      cpuText(r.cpu),
    ]),
    [
      ...results.map((r) => {
        const offered = 1000 / r.intervalMs;
        const load =
          single === undefined
            ? ''
            : ` Offered ${fixed(offered, 0)} events/s = ${fixed((offered / single.deliveriesPerSecond) * 100, 0)}% of the 1-webhook throughput measured above` +
              `${
                offered >= single.deliveriesPerSecond
                  ? ': more than this runtime delivers here, so deliveries queue up for the whole run (this is not latency alone)'
                  : offered >= 0.5 * single.deliveriesPerSecond
                    ? ': busy enough that events often wait for the one before them (queueing inflates the numbers)'
                    : ''
              }.`;
        return `latency-${r.intervalMs}ms: deliveries ${statusText(r.statuses)}.${load}`;
      }),
      `Warm-up: ${warmupMs.length} single events on the idle runtime took ${warmupMs.map((ms) => fixed(ms, 0)).join(', ')} ms`,
      '(queue-empty check + record + delivery; the first one loads the code paths).',
    ],
  );
};

const stageRow = (run: string, stage: string, s: Spread): (string | number)[] => [
  run,
  stage,
  fixed(s.p50, 0),
  fixed(s.p99, 0),
  fixed(s.max, 0),
  s.count,
];

const printStages = (throughput: readonly ThroughputResult[], latency: readonly LatencyResult[]): void => {
  const runs: [string, ThroughputResult | LatencyResult][] = [
    ...throughput.map((r): [string, ThroughputResult] => [r.name, r]),
    ...latency.map((r): [string, LatencyResult] => [`latency-${r.intervalMs}ms`, r]),
  ];
  printTable(
    'Where a delivery’s time goes (the service’s own timestamps, ms resolution)',
    [
      { header: 'Run' },
      { header: 'Stage', align: 'left' },
      { header: 'p50 ms' },
      { header: 'p99 ms' },
      { header: 'max ms' },
      { header: 'n' },
    ],
    runs.flatMap(([name, r]) => [
      stageRow(name, 'state change → fan-out starts (stream)', r.stages.streamToFanOut),
      stageRow('', 'fan-out starts → first attempt starts (queue)', r.stages.fanOutToDispatch),
      stageRow('', 'first attempt starts → arrives (dispatch + HTTP)', r.stages.dispatchToArrival),
    ]),
    [
      'Fan-out starts: the delivery’s created_at (taken as fanOutEvent begins). First attempt starts: attempts[0].attempted_at',
      '(taken as dispatchDelivery begins, before its reads, claim and POST).',
      ...throughput.map((r) =>
        r.stages.streamToFanOut.p50 >= r.stages.fanOutToDispatch.p50
          ? `${r.name}: deliveries wait mostly before their fan-out (p50 ${seconds(r.stages.streamToFanOut.p50)} s): the stream poller + fan-out handler is the narrower stage.`
          : `${r.name}: deliveries wait mostly in the delivery queue (p50 ${seconds(r.stages.fanOutToDispatch.p50)} s): the queue poller and dispatcher are the narrower stage.`,
      ),
    ],
  );
};

const printCalls = (throughput: readonly ThroughputResult[], latency: readonly LatencyResult[], idle: CallTally): void => {
  const runs: [string, CallTally, number][] = [
    ...throughput.map((r): [string, CallTally, number] => [r.name, r.dynamodb, r.received]),
    ...latency.map((r): [string, CallTally, number] => [`lat-${r.intervalMs}ms`, r.dynamodb, r.received]),
  ];
  const operations = [...new Set(runs.flatMap(([, tally]) => Object.keys(tally.byOperation)).concat(Object.keys(idle.byOperation)))].sort(
    (a, b) => (runs[0]?.[1].byOperation[b]?.calls ?? 0) - (runs[0]?.[1].byOperation[a]?.calls ?? 0),
  );
  const idlePerSecond = (op: string): string => fixed(((idle.byOperation[op]?.calls ?? 0) / idle.elapsedMs) * 1000, 1);
  printTable(
    'DynamoDB Local calls made by the runtime, per delivery received (mean round trip in ms)',
    [
      { header: 'Operation' },
      { header: 'Idle /s' },
      ...runs.flatMap(([name]) => [{ header: `${name} /delivery` }, { header: `${name} ms` }]),
    ],
    [
      ...operations.map((op) => [op, idlePerSecond(op), ...runs.flatMap(([, tally, n]) => [perDelivery(tally, op, n), meanMs(tally, op)])]),
      [
        'all',
        fixed((idle.calls / idle.elapsedMs) * 1000, 1),
        ...runs.flatMap(([, tally, n]) => [
          n > 0 ? fixed(tally.calls / n, 2) : '—',
          fixed(tally.calls > 0 ? Object.values(tally.byOperation).reduce((s, c) => s + c.totalMs, 0) / tally.calls : Number.NaN, 2),
        ]),
      ],
    ],
    [
      'Counted from node’s http client (diagnostics channel, X-Amz-Target) while the run lasted, until the queue was empty: the',
      'fan-out and dispatcher handlers, the stream poller (DescribeStream, GetRecords) and the local delivery queue’s store',
      '(`queue …`: SQS in AWS; this in-memory runtime keeps its queue in memory, so it makes none); the bench’s own calls',
      '(the TransactWriteItems that record the events, and its checks) are not counted. A batch (BatchWriteItem, a',
      'TransactWriteItems of up to 100 items) is one call.',
      ...runs.map(([name, tally, n]) => {
        const split = callSplitOf(tally, n);
        return (
          `${name}: ${fixed(split.service, 2)} calls per delivery by the service itself (fan-out and dispatcher, as in AWS; at most ` +
          `${maxServiceCallsPerDelivery} asked), ${fixed(split.localQueue, 2)} by the local delivery queue (SQS in AWS), ${fixed(split.stream, 2)} by the stream poller.`
        );
      }),
    ],
  );
};

const printCost = (
  latency: readonly LatencyResult[],
  throughput: readonly ThroughputResult[],
  sizes: { item: number; attempt: number },
) => {
  const calm = latency.at(-1);
  const tally = calm?.dynamodb ?? throughput[0]?.dynamodb;
  const mean = (op: string): number => {
    const entry = tally?.byOperation[op];
    return entry && entry.calls > 0 ? entry.totalMs / entry.calls : 0;
  };
  // The dispatcher: from the attempt’s start (webhook read, claim, POST) to its arrival, then the result's write.
  const dispatchMs = (calm?.stages.dispatchToArrival.p50 ?? 0) + mean('UpdateItem');
  const fanOutMs = mean('Query') + mean('TransactWriteItems') + mean('queue BatchWriteItem');
  const costs = (['burst', 'trickle'] as const).map((batching) => deliveryCost(batching, sizes.item, sizes.attempt, dispatchMs, fanOutMs));
  printTable(
    'Webhook deliveries in AWS: what one successful delivery costs at list prices',
    [
      { header: 'Batches' },
      { header: 'DynamoDB WRU' },
      { header: 'RRU' },
      { header: 'Lambda invocations' },
      { header: 'Lambda GB-s' },
      { header: 'SQS requests' },
      { header: '$ per million deliveries' },
    ],
    costs.map((c) => [
      c.batching === 'burst' ? 'full (a burst)' : 'single (a trickle)',
      fixed(c.writeUnits, 2),
      fixed(c.readUnits, 2),
      fixed(c.lambdaInvocations, 2),
      fixed(c.gbSeconds, 4),
      fixed(c.sqsRequests, 2),
      fixed(c.usdPerMillion, 2),
    ]),
    [
      `Delivery item ${sizes.item} bytes, its attempt record ${sizes.attempt} bytes (measured); fan-out: the put in a transaction (2 WRU per KB)`,
      'and its share of the counter; dispatcher: the claim and the result (1 WRU per KB each), the webhook read (0.5 RRU; the message carries the event’s body).',
      `Worker time per delivery: dispatcher ${fixed(dispatchMs, 0)} ms, fan-out ${fixed(fanOutMs, 0)} ms per batch (measured here, 1 GB, arm64).`,
      `List prices: DynamoDB $${listPrices.writeUnitUsd}/M WRU, $${listPrices.readUnitUsd}/M RRU; Lambda $${listPrices.lambdaRequestUsd}/M requests,`,
      `$${listPrices.lambdaGbSecondUsd}/GB-s (arm64); SQS $${listPrices.sqsRequestUsd}/M requests. Full batches: 100 events per stream batch,`,
      '10 messages per SQS batch; single: one of each per delivery. Stream reads by Lambda are free.',
    ],
  );
  return costs;
};

/** Issue 17's targets for the local runtime on this 2-core machine. */
export const TARGET_DELIVERIES_PER_SECOND = 200;
export const TARGET_FIRST_ATTEMPT_P99_MS = 250;

const checksOf = (throughput: readonly ThroughputResult[], latency: readonly LatencyResult[]): Check[] => [
  ...throughput.map((r) => ({
    section: 'webhooks',
    name: `deliveries/s ≥ ${TARGET_DELIVERIES_PER_SECOND}, ${r.name} (${r.webhooks} × ${r.events})`,
    pass: r.deliveriesPerSecond >= TARGET_DELIVERIES_PER_SECOND && r.missing === 0,
    detail: `${fixed(r.deliveriesPerSecond, 0)}/s, ${r.received}/${r.expected} delivered`,
  })),
  ...latency
    .filter((r) => r.intervalMs === 20)
    .map((r) => ({
      section: 'webhooks',
      name: `state change → first attempt p99 < ${TARGET_FIRST_ATTEMPT_P99_MS} ms at 50 events/s`,
      pass: r.latency.p99 < TARGET_FIRST_ATTEMPT_P99_MS && r.missing === 0,
      detail: `p50 ${fixed(r.latency.p50, 1)} ms, p99 ${fixed(r.latency.p99, 1)} ms over ${r.events} events`,
    })),
];

const figuresOf = (throughput: readonly ThroughputResult[], latency: readonly LatencyResult[]): Figure[] => [
  ...throughput.map((r) => ({
    section: 'webhooks',
    name: `deliveries/s, ${r.name} (${r.webhooks} webhook${r.webhooks === 1 ? '' : 's'} × ${r.events} events)`,
    value:
      `${fixed(r.deliveriesPerSecond, 0)}/s: ${r.received}/${r.expected} in ${seconds(r.elapsedMs)} s` +
      `${r.timedOut ? ` (gave up, ${r.missing} missing)` : ''}, ${r.duplicates} duplicate${r.duplicates === 1 ? '' : 's'}`,
  })),
  ...throughput.map((r) => {
    const split = callSplitOf(r.dynamodb, r.received);
    return {
      section: 'webhooks',
      name: `DynamoDB calls per delivery, ${r.name}`,
      value:
        `${fixed(split.service, 2)} by the service (at most ${maxServiceCallsPerDelivery} asked: ${split.service <= maxServiceCallsPerDelivery ? 'met' : 'MISSED'}), ` +
        `${fixed(split.localQueue, 2)} by the local queue, ${fixed(split.stream, 2)} by the stream poller`,
    };
  }),
  ...latency.map((r) => ({
    section: 'webhooks',
    name: `latency state change → first attempt (${r.events} events, 1 per ${r.intervalMs} ms)`,
    value: `p50 ${fixed(r.latency.p50, 1)} ms, p99 ${fixed(r.latency.p99, 1)} ms, max ${fixed(r.latency.max, 1)} ms${r.missing > 0 ? `, ${r.missing} missing` : ''}`,
  })),
];

export const benchWebhooks = async (runtime: BenchRuntime, settings: WebhookSettings): Promise<WebhookSection> => {
  heading('4. Webhook deliveries');
  const receiver = await startWebhookReceiver();
  const client = localDocumentClient(runtime.dynamodbEndpoint);
  markAsBenchCalls(client);
  let meter: CallMeter | undefined;
  try {
    meter = meterDynamoCalls(runtime.dynamodbEndpoint);
    const ctx: WebhookContext = {
      runtime,
      receiver,
      table: { client, tableName: runtime.tableName },
      meter,
      cpu: await meterCpu(),
      sentinel: await sentinelTenant(runtime, receiver),
    };
    console.log(`Receiver on 127.0.0.1:${receiver.port}; warming up with ${warmupRounds} single events…`);
    const warmupRoundTripsMs: number[] = [];
    for (let i = 0; i < warmupRounds; i += 1) warmupRoundTripsMs.push(await settle(ctx));
    meter.reset();
    await new Promise((resolve) => setTimeout(resolve, idleWindowMs));
    const idle = meter.read();
    // DynamoDB Local's JIT compiles its paths during the first thousands of calls: a run it is not measured on.
    console.log(`  warm-up run (not measured): 1 webhook × ${settings.warmupEvents} events…`);
    const warmup = await runThroughput(ctx, { name: 'warm-up', webhooks: 1, events: settings.warmupEvents }, settings);
    console.log(
      `  warm-up run: ${warmup.received}/${warmup.expected} in ${seconds(warmup.elapsedMs)} s = ${fixed(warmup.deliveriesPerSecond, 0)} deliveries/s`,
    );
    console.log(`  DynamoDB Local alone: ${settings.probeCalls} calls of each kind at concurrency ${probeConcurrency}…`);
    const probe = await probeDynamoCapacity(ctx.table, settings.probeCalls, probeConcurrency);
    await settle(ctx);

    const throughput: ThroughputResult[] = [];
    for (const spec of settings.throughput) {
      console.log(`  ${spec.name}: ${spec.webhooks} webhook(s) × ${spec.events} events = ${spec.webhooks * spec.events} deliveries…`);
      const result = await runThroughput(ctx, spec, settings);
      console.log(
        `  ${spec.name}: ${result.received}/${result.expected} in ${seconds(result.elapsedMs)} s = ${fixed(result.deliveriesPerSecond, 0)} deliveries/s`,
      );
      throughput.push(result);
    }
    const latency: LatencyResult[] = [];
    for (const spec of settings.latency) {
      console.log(`  latency: ${spec.events} events, one every ${spec.intervalMs} ms, 1 webhook…`);
      const result = await runLatency(ctx, spec, settings);
      console.log(`  latency: p50 ${fixed(result.latency.p50, 1)} ms, p99 ${fixed(result.latency.p99, 1)} ms`);
      latency.push(result);
    }
    if (receiver.strays > 0) console.log(`  (${receiver.strays} request(s) at the receiver matched no run)`);

    printThroughput(throughput);
    printLatency(latency, warmupRoundTripsMs, throughput);
    printStages(throughput, latency);
    printCalls(throughput, latency, idle);
    const load = throughput.map(loadOf);
    printProbe(probe, load);
    const cost = printCost(latency, throughput, await deliverySizes(ctx.table));
    return {
      throughput,
      latency,
      idle,
      warmupRoundTripsMs,
      probe,
      load,
      cost,
      checks: checksOf(throughput, latency),
      figures: [
        ...figuresOf(throughput, latency),
        ...cost.map((c) => ({
          section: 'webhooks',
          name: `cost per million deliveries in AWS, ${c.batching === 'burst' ? 'full batches' : 'single events'}`,
          value: `$${fixed(c.usdPerMillion, 2)} (${fixed(c.writeUnits, 1)} WRU, ${fixed(c.lambdaInvocations, 2)} Lambda invocations per delivery)`,
        })),
      ],
    };
  } finally {
    meter?.close();
    client.destroy();
    await receiver.close();
  }
};
