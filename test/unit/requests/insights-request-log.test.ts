import { CloudWatchLogsClient, GetQueryResultsCommand, StartQueryCommand, StopQueryCommand } from '@aws-sdk/client-cloudwatch-logs';
import { mockClient } from 'aws-sdk-client-mock';
import { insightsQueryOf, insightsRequestLogReader, lookbackSeconds } from '../../../functions/adapters/cloudwatch/insights-request-log';

const logs = mockClient(CloudWatchLogsClient);
const tenant = { accountId: 'acct_1', mode: 'live' as const };
const now = Date.parse('2026-11-24T12:00:00Z');

const row = (values: Record<string, string>) => Object.entries(values).map(([field, value]) => ({ field, value }));

const reader = (overrides: { timeoutMs?: number } = {}) =>
  insightsRequestLogReader({
    client: new CloudWatchLogsClient({ region: 'us-east-1' }),
    logGroupName: 'svc-ApiLogs',
    now: () => now,
    pollIntervalMs: 10,
    sleep: async () => undefined,
    ...overrides,
  });

beforeEach(() => logs.reset());

describe('the Logs Insights request log reader', () => {
  it("queries the API's log group over the last week for the tenant's request lines, newest first, and maps the rows", async () => {
    logs.on(StartQueryCommand).resolves({ queryId: 'q-1' });
    logs
      .on(GetQueryResultsCommand)
      .resolvesOnce({ status: 'Running', results: [] })
      .resolves({
        status: 'Complete',
        results: [
          row({
            request_id: 'req-2',
            at: '2026-11-24T11:59:00.000Z',
            account_id: 'acct_1',
            mode: 'live',
            method: 'POST',
            path: '/v1/projects',
            status: '201',
            duration_ms: '42',
            credential_id: 'key_1',
            credential_hint: 'sk_live_…a1b2',
          }),
        ],
      });

    const records = await reader().recent(tenant, { limit: 25 });

    expect(records).toEqual([
      {
        request_id: 'req-2',
        at: '2026-11-24T11:59:00.000Z',
        account_id: 'acct_1',
        mode: 'live',
        method: 'POST',
        path: '/v1/projects',
        status: 201,
        duration_ms: 42,
        credential_id: 'key_1',
        credential_hint: 'sk_live_…a1b2',
      },
    ]);
    const start = logs.commandCalls(StartQueryCommand)[0]!.args[0].input;
    expect(start).toMatchObject({ logGroupName: 'svc-ApiLogs', endTime: now / 1000, startTime: now / 1000 - lookbackSeconds, limit: 25 });
    expect(start.queryString).toContain('account_id = "acct_1"');
    expect(start.queryString).toContain('mode = "live"');
    expect(start.queryString).toContain('sort @timestamp desc');
    expect(logs.commandCalls(GetQueryResultsCommand)).toHaveLength(2);
  });

  it('puts each filter into the query', () => {
    const query = insightsQueryOf(tenant, {
      limit: 50,
      method: 'DELETE',
      status_class: '4xx',
      path_prefix: '/v1/projects',
      credential_id: 'key_9',
    });
    expect(query).toContain('method = "DELETE"');
    expect(query).toContain('status >= 400 and status < 500');
    expect(query).toContain('substr(path, 0, 12) = "/v1/projects"');
    expect(query).toContain('credential_id = "key_9"');
    expect(query).toContain('limit 50');
  });

  it('refuses to build a query from a value that could change its meaning', () => {
    expect(() => insightsQueryOf({ accountId: 'acct_1" or account_id != "x', mode: 'live' }, { limit: 25 })).toThrow(/not a value/);
  });

  it('stops a query that does not complete in time and says so', async () => {
    logs.on(StartQueryCommand).resolves({ queryId: 'q-2' });
    logs.on(GetQueryResultsCommand).resolves({ status: 'Running', results: [] });
    logs.on(StopQueryCommand).resolves({ success: true });
    await expect(reader({ timeoutMs: 30 }).recent(tenant, { limit: 25 })).rejects.toThrow(/did not complete/);
    expect(logs.commandCalls(StopQueryCommand)[0]!.args[0].input).toEqual({ queryId: 'q-2' });
  });

  it('reports a failed query', async () => {
    logs.on(StartQueryCommand).resolves({ queryId: 'q-3' });
    logs.on(GetQueryResultsCommand).resolves({ status: 'Failed' });
    await expect(reader().recent(tenant, { limit: 25 })).rejects.toThrow(/Failed/);
  });
});
