import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../functions/adapters/dynamodb/keys';
import { type ApiCallCost, apiCallCost, floorUsdPerMillion } from './api-cost';
import { type CallMeter, meterDynamoCalls } from './dynamodb-calls';
import { type HttpSpec, type LoadResult, runClosedLoop, runHttpLoad } from './http-load';
import { type BenchRuntime, localDocumentClient, newBenchAccount } from './local-runtime';
import { type Check, fixed, heading, passFail, printTable } from './report';

/** Section 2: latency and throughput of the local runtime (HTTP server + handlers + DynamoDB Local). */

export interface HttpSettings {
  /** Measured requests per concurrency level. */
  requests: Record<number, number>;
  warmupRequests: number;
}

export interface HttpSection {
  results: LoadResult[];
  /** A plain GetItem on DynamoDB Local at the same concurrency: what the emulator alone costs. */
  reference: LoadResult[];
  /** The cost of one million calls of each kind, from the concurrency-1 runs. */
  costs: ApiCallCost[];
  checks: Check[];
}

type Scenario = Omit<HttpSpec, 'concurrency' | 'requests' | 'port'>;

const projectBody = (i: number): string =>
  JSON.stringify({
    name: `bench project ${i}`,
    repository: `https://github.com/bench/project-${i}`,
    description: 'created by npm run bench',
  });

const createOneProject = async (port: number, key: string): Promise<string> => {
  const response = await fetch(`http://127.0.0.1:${port}/v1/projects`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: projectBody(0),
  });
  const answer = (await response.json()) as { data?: { id?: string } };
  if (response.status !== 201 || !answer.data?.id) throw new Error(`could not create the project to read: HTTP ${response.status}`);
  return answer.data.id;
};

const scenarios = (projectId: string, key: string): Scenario[] => {
  const auth = { Authorization: `Bearer ${key}`, Accept: 'application/json' };
  return [
    { name: 'GET /v1/projects/{id}', method: 'GET', path: `/v1/projects/${projectId}`, headers: auth, expectedStatus: 200 },
    {
      name: 'POST /v1/projects',
      method: 'POST',
      path: '/v1/projects',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: projectBody,
      expectedStatus: 201,
    },
  ];
};

const levels = (settings: HttpSettings): [concurrency: number, requests: number][] =>
  Object.entries(settings.requests).map(([c, n]) => [Number(c), n]);

/** Each scenario at each concurrency, after a warm-up at that concurrency. */
const runScenarios = async (
  port: number,
  list: readonly Scenario[],
  settings: HttpSettings,
  meter: CallMeter,
): Promise<{ results: LoadResult[]; costs: ApiCallCost[] }> => {
  const results: LoadResult[] = [];
  const costs: ApiCallCost[] = [];
  let index = 1;
  for (const scenario of list) {
    for (const [concurrency, requests] of levels(settings)) {
      const spec: HttpSpec = { ...scenario, port, concurrency, requests };
      await runHttpLoad({ ...spec, requests: settings.warmupRequests }, index);
      index += settings.warmupRequests;
      meter.reset();
      const result = await runHttpLoad(spec, index);
      const calls = meter.read();
      index += requests;
      if (concurrency === 1) costs.push(apiCallCost(result.name, requests, calls.byOperation, result.p50Ms));
      console.log(`  ${result.name} c=${concurrency}: ${fixed(result.requestsPerSecond, 0)} req/s`);
      results.push(result);
    }
  }
  return { results, costs };
};

/** The project's own GetItem, straight to DynamoDB Local: the floor under the GET route. */
const runReference = async (runtime: BenchRuntime, accountId: string, projectId: string, settings: HttpSettings): Promise<LoadResult[]> => {
  const client = localDocumentClient(runtime.dynamodbEndpoint);
  const command = () => new GetCommand({ TableName: runtime.tableName, Key: keys.project({ accountId, mode: 'live' }, projectId) });
  const attempt = async (): Promise<undefined | { error: string; detail: string }> =>
    (await client.send(command())).Item ? undefined : { error: 'no item', detail: 'GetItem found no item' };
  try {
    const results: LoadResult[] = [];
    for (const [concurrency, requests] of levels(settings)) {
      await runClosedLoop({ name: 'warm-up', concurrency, requests: settings.warmupRequests, attempt });
      results.push(await runClosedLoop({ name: 'GetItem on DynamoDB Local (SDK, no HTTP)', concurrency, requests, attempt }));
    }
    return results;
  } finally {
    client.destroy();
  }
};

const errorText = (result: LoadResult): string => {
  const entries = Object.entries(result.errors);
  return entries.length === 0 ? 'none' : entries.map(([what, n]) => `${n}× ${what}`).join(', ');
};

const printResults = (results: readonly LoadResult[], reference: readonly LoadResult[], warmup: number): void => {
  printTable(
    'Local runtime: latency and throughput',
    [
      { header: 'Request' },
      { header: 'Conc.' },
      { header: 'Requests' },
      { header: 'p50 ms' },
      { header: 'p99 ms' },
      { header: 'max ms' },
      { header: 'req/s' },
      { header: 'All expected' },
      { header: 'Errors', align: 'left' },
    ],
    [...results, ...reference].map((r) => [
      r.name,
      r.concurrency,
      r.requests,
      fixed(r.p50Ms, 2),
      fixed(r.p99Ms, 2),
      fixed(r.maxMs, 1),
      fixed(r.requestsPerSecond, 0),
      passFail(r.ok === r.requests),
      errorText(r),
    ]),
    [
      `Each run after ${warmup} warm-up requests at the same concurrency; keep-alive connections to 127.0.0.1; rate limit set to 1e9/s.`,
      'The load generator runs in the same node process (and event loop) as the local server; DynamoDB Local is a separate JVM.',
      'A GET makes 2 DynamoDB calls (credential, project), a POST 2 (credential, transaction); the last rows time one call alone.',
    ],
  );
  for (const r of results.filter((result) => result.firstError !== undefined)) {
    console.log(`  first unexpected answer of ${r.name} at c=${r.concurrency}: ${r.firstError}`);
  }
};

const usd = (value: number): string => `$${fixed(value, 3)}`;

const printCosts = (costs: readonly ApiCallCost[]): void => {
  printTable(
    'Cost of one million API calls of each kind (AWS list prices, us-east-1, on-demand, arm64)',
    [
      { header: 'Call' },
      { header: 'Lambda MB' },
      { header: 'ms (c=1 p50)' },
      { header: 'Read units' },
      { header: 'Write units' },
      { header: 'HTTP API' },
      { header: 'Lambda' },
      { header: 'DynamoDB' },
      { header: 'Total' },
      { header: '× floor' },
    ],
    costs.map((c) => [
      c.name,
      c.memoryMb,
      fixed(c.durationMs, 1),
      fixed(c.readUnits, 2),
      fixed(c.writeUnits, 2),
      usd(c.usd.httpApi),
      usd(c.usd.lambda),
      usd(c.usd.dynamodb),
      usd(c.usd.total),
      fixed(c.usd.total / floorUsdPerMillion, 2),
    ]),
    [
      `Floor ${usd(floorUsdPerMillion)}: the HTTP API request ($1.00), one Lambda invocation ($0.20) and one read unit ($0.125).`,
      'DynamoDB calls per request counted during the measured c=1 run; units taken as 1 per read (≤ 4 KB, strongly consistent) and',
      'per write (≤ 1 KB), 2 per item of a transaction (counted as 1 item). Duration: the request’s p50 time in the local runtime',
      '(HTTP server and load generator included: an upper bound of the billed duration), at ServiceFunction’s default memory.',
    ],
  );
};

const checksOf = (results: readonly LoadResult[]): Check[] =>
  results.map((r) => ({
    section: 'http',
    name: `${r.name} c=${r.concurrency}: every answer ${r.name.startsWith('POST') ? 201 : 200}`,
    pass: r.ok === r.requests,
    detail: `${r.ok}/${r.requests}; p50 ${fixed(r.p50Ms, 1)} ms, p99 ${fixed(r.p99Ms, 1)} ms, ${fixed(r.requestsPerSecond, 0)} req/s`,
  }));

export const benchHttp = async (runtime: BenchRuntime, settings: HttpSettings): Promise<HttpSection> => {
  heading('2. Local runtime: HTTP latency and throughput');
  const { account, key } = await newBenchAccount(runtime.table, 'http');
  const projectId = await createOneProject(runtime.port, key);
  const meter = meterDynamoCalls(runtime.dynamodbEndpoint);
  let measured: Awaited<ReturnType<typeof runScenarios>>;
  try {
    measured = await runScenarios(runtime.port, scenarios(projectId, key), settings, meter);
  } finally {
    meter.close();
  }
  const { results, costs } = measured;
  const reference = await runReference(runtime, account.id, projectId, settings);
  printResults(results, reference, settings.warmupRequests);
  printCosts(costs);
  return { results, reference, costs, checks: checksOf(results) };
};
