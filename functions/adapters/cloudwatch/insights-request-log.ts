import {
  type CloudWatchLogsClient,
  GetQueryResultsCommand,
  type ResultField,
  StartQueryCommand,
  StopQueryCommand,
} from '@aws-sdk/client-cloudwatch-logs';
import type { ApiRequestQuery, ApiRequestRecord, RequestLogReader } from '../../core/requests/api-requests';
import type { Tenant } from '../../core/tenancy';

/** How far back the page looks: a week of the API's log (kept a month), which bounds what a query scans. */
export const lookbackSeconds = 7 * 86_400;

const fields = [
  'request_id',
  'at',
  'account_id',
  'mode',
  'method',
  'path',
  'status',
  'duration_ms',
  'credential_id',
  'credential_hint',
] as const;

/** Values put into the query are checked, never escaped: ids, modes and validated filters only. */
const safeValue = /^[A-Za-z0-9/_.~-]*$/;
const literal = (value: string): string => {
  if (!safeValue.test(value)) throw new Error(`not a value for a log query: ${JSON.stringify(value)}`);
  return `"${value}"`;
};

/** The Logs Insights query of a tenant's requests, filters and limit applied by the engine. */
export const insightsQueryOf = (tenant: Tenant, query: ApiRequestQuery): string => {
  const filters = [
    `message = "api request"`,
    `account_id = ${literal(tenant.accountId)}`,
    `mode = ${literal(tenant.mode)}`,
    ...(query.method ? [`method = ${literal(query.method)}`] : []),
    ...(query.status_class
      ? [`status >= ${Number(query.status_class[0]) * 100} and status < ${(Number(query.status_class[0]) + 1) * 100}`]
      : []),
    ...(query.path_prefix ? [`substr(path, 0, ${query.path_prefix.length}) = ${literal(query.path_prefix)}`] : []),
    ...(query.credential_id ? [`credential_id = ${literal(query.credential_id)}`] : []),
  ];
  return [`fields ${fields.join(', ')}`, `filter ${filters.join(' and ')}`, 'sort @timestamp desc', `limit ${query.limit}`].join('\n| ');
};

const recordOf = (row: ResultField[]): ApiRequestRecord => {
  const value = (name: string): string => row.find((f) => f.field === name)?.value ?? '';
  return {
    request_id: value('request_id'),
    at: value('at'),
    account_id: value('account_id'),
    mode: value('mode') === 'test' ? 'test' : 'live',
    method: value('method'),
    path: value('path'),
    status: Number(value('status')),
    duration_ms: Number(value('duration_ms')),
    credential_id: value('credential_id'),
    credential_hint: value('credential_hint'),
  };
};

export interface InsightsReaderOptions {
  client: CloudWatchLogsClient;
  /** The API functions' log group (`ApiLogs`); the function may query no other. */
  logGroupName: string;
  now?: () => number;
  /** Between polls of the query's results. */
  pollIntervalMs?: number;
  /** The longest the page waits for the query; then it is stopped and the page says so. */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The Requests page in AWS: a Logs Insights query of the API's log group, polled until it completes. */
export const insightsRequestLogReader = (options: InsightsReaderOptions): RequestLogReader => ({
  async recent(tenant, query) {
    const now = Math.floor((options.now ?? Date.now)() / 1000);
    const { queryId } = await options.client.send(
      new StartQueryCommand({
        logGroupName: options.logGroupName,
        startTime: now - lookbackSeconds,
        endTime: now,
        queryString: insightsQueryOf(tenant, query),
        limit: query.limit,
      }),
    );
    if (!queryId) throw new Error('Logs Insights started no query');
    const sleep = options.sleep ?? pause;
    const interval = options.pollIntervalMs ?? 250;
    const deadline = options.timeoutMs ?? 8_000;
    for (let waited = 0; ; waited += interval) {
      const answer = await options.client.send(new GetQueryResultsCommand({ queryId }));
      if (answer.status === 'Complete') return (answer.results ?? []).map(recordOf);
      if (answer.status !== 'Running' && answer.status !== 'Scheduled') {
        throw new Error(`the request log query ended ${answer.status ?? 'without a status'}`);
      }
      if (waited >= deadline) {
        await options.client.send(new StopQueryCommand({ queryId })).catch(() => undefined);
        throw new Error(`the request log query did not complete in ${deadline} ms`);
      }
      await sleep(interval);
    }
  },
});
