import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { dynamoTokenBucketStore } from '../functions/adapters/dynamodb/rate-limit-store';
import { createRateLimiter, type RateLimitSettings } from '../functions/core/rate-limiter';
import { localDocumentClient, type BenchRuntime } from './local-runtime';
import { type Check, fixed, heading, printTable } from './report';

/**
 * Section: what the shared rate limit costs. Streams of requests go through limiters (one per
 * simulated function instance) on the runtime's table, a simulated clock pacing them, and every
 * write unit DynamoDB Local reports (ReturnConsumedCapacity) is counted: the target is at most
 * 0.1 write units per request in the steady state of a credential under its limit.
 */
export const rateLimitTargets = { steadyWcuPerRequest: 0.1 } as const;

export interface RateLimitSettingsOfBench {
  seconds: number;
}

interface Scenario {
  name: string;
  instances: number;
  perSecond: number;
}

export interface RateLimitRow extends Scenario {
  requests: number;
  allowed: number;
  writeUnits: number;
  wcuPerRequest: number;
}

const scenarios: Scenario[] = [
  { name: 'steady, 1 instance, 40 req/s', instances: 1, perSecond: 40 },
  { name: 'steady, 4 instances, 40 req/s', instances: 4, perSecond: 40 },
  { name: 'over the limit, 1 instance, 200 req/s', instances: 1, perSecond: 200 },
];

const limit: RateLimitSettings = { perSecond: 50, burst: 100 };
const warmupSeconds = 5;

const runScenario = async (runtime: BenchRuntime, scenario: Scenario, seconds: number, index: number): Promise<RateLimitRow> => {
  const client = localDocumentClient(runtime.dynamodbEndpoint);
  let writeUnits = 0;
  client.middlewareStack.add(
    (next) => async (args) => {
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity }).ConsumedCapacity;
      writeUnits += consumed?.WriteCapacityUnits ?? 0;
      return result;
    },
    { step: 'initialize', name: 'benchRateLimitCapacity' },
  );
  // A refused condition is billed as a write too, but reports no capacity: counted as 1 each below.
  const table = { client, tableName: runtime.tableName };
  let now = Date.UTC(2030, 0, 1) + index * 3_600_000;
  const clock = { now: () => now };
  const stores = Array.from({ length: scenario.instances }, () => dynamoTokenBucketStore(table, limit));
  const limiters = stores.map((store) => createRateLimiter(limit, clock, store));
  const credential = `key_bench_ratelimit_${index}_${Date.now()}`;
  const send = async (count: number): Promise<number> => {
    let allowed = 0;
    for (let i = 0; i < count; i += 1) {
      if ((await (limiters[i % limiters.length] as (typeof limiters)[number])(credential)).allowed) allowed += 1;
      now += 1000 / scenario.perSecond;
    }
    return allowed;
  };
  // The first seconds grow each instance's batch from 1; the steady state is what follows.
  await send(warmupSeconds * scenario.perSecond);
  writeUnits = 0;
  const attemptedBefore = stores.reduce((sum, store) => sum + store.writes(), 0);
  const requests = seconds * scenario.perSecond;
  const allowed = await send(requests);
  const attempted = stores.reduce((sum, store) => sum + store.writes(), 0) - attemptedBefore;
  const refusedWrites = Math.max(0, attempted - Math.round(writeUnits));
  const total = writeUnits + refusedWrites;
  client.destroy();
  return { ...scenario, requests, allowed, writeUnits: total, wcuPerRequest: total / requests };
};

export const benchRateLimit = async (
  runtime: BenchRuntime,
  settings: RateLimitSettingsOfBench,
): Promise<{ rows: RateLimitRow[]; checks: Check[] }> => {
  heading('Rate limit: write units per request');
  const rows: RateLimitRow[] = [];
  for (const [index, scenario] of scenarios.entries()) rows.push(await runScenario(runtime, scenario, settings.seconds, index));
  printTable(
    `The shared limit (${limit.perSecond}/s, burst ${limit.burst}) over ${settings.seconds} s of simulated time after ${warmupSeconds} s of warm-up, on DynamoDB Local`,
    [{ header: 'Scenario' }, { header: 'Requests' }, { header: 'Allowed' }, { header: 'Write units' }, { header: 'WCU / request' }],
    rows.map((r) => [r.name, r.requests, r.allowed, fixed(r.writeUnits, 0), fixed(r.wcuPerRequest, 3)]),
    [
      'Each lease is one conditional UpdateItem (1 WCU); a refused condition is billed as a write too and counted here.',
      'Over the limit, a refused lease still costs its write: a caller at 4× the limit pays about one write per 429 answered to it.',
    ],
  );
  const steady = rows.filter((r) => r.name.startsWith('steady'));
  return {
    rows,
    checks: steady.map((r) => ({
      section: 'ratelimit',
      name: `${r.name}: ≤ ${rateLimitTargets.steadyWcuPerRequest} extra WCU per request`,
      pass: r.wcuPerRequest <= rateLimitTargets.steadyWcuPerRequest && r.allowed === r.requests,
      detail: `${fixed(r.wcuPerRequest, 3)} WCU per request, ${r.allowed}/${r.requests} allowed`,
    })),
  };
};
