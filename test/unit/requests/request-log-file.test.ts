import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendRequestLine, fileRequestLogReader } from '../../../functions/adapters/local/request-log-file';
import { type ApiRequestRecord, parseApiRequestQuery } from '../../../functions/core/requests/api-requests';
import { ApiError } from '../../../functions/core/errors';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'request-log-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const record = (n: number, overrides: Partial<ApiRequestRecord> = {}): ApiRequestRecord => ({
  request_id: `req-${n}`,
  at: new Date(Date.UTC(2026, 10, 24, 12, 0, n)).toISOString(),
  account_id: 'acct_1',
  mode: 'live',
  method: 'GET',
  path: '/v1/projects',
  status: 200,
  duration_ms: n,
  credential_id: 'key_1',
  credential_hint: 'sk_live_…a1b2',
  ...overrides,
});

describe("the local runtime's request log", () => {
  it("reads back the tenant's requests newest first, never another account's or mode's", async () => {
    const file = join(dir, 'logs', 'api-requests.jsonl');
    appendRequestLine(file, record(1));
    appendRequestLine(file, record(2, { account_id: 'acct_2' }));
    appendRequestLine(file, record(3, { mode: 'test' }));
    appendRequestLine(file, record(4, { method: 'POST', status: 201 }));
    const found = await fileRequestLogReader(file).recent({ accountId: 'acct_1', mode: 'live' }, { limit: 25 });
    expect(found.map((r) => r.request_id)).toEqual(['req-4', 'req-1']);
  });

  it('applies the filters and the page size', async () => {
    const file = join(dir, 'api-requests.jsonl');
    appendRequestLine(file, record(1, { status: 404, path: '/v1/projects/proj_x' }));
    appendRequestLine(file, record(2, { status: 500, path: '/v1/webhooks' }));
    appendRequestLine(file, record(3, { status: 422, credential_id: 'key_2', method: 'POST' }));
    appendRequestLine(file, record(4, { status: 401 }));
    const reader = fileRequestLogReader(file);
    const tenant = { accountId: 'acct_1', mode: 'live' as const };
    const ids = async (params: string) =>
      (await reader.recent(tenant, parseApiRequestQuery(new URLSearchParams(params)))).map((r) => r.request_id);
    expect(await ids('status_class=4xx')).toEqual(['req-4', 'req-3', 'req-1']);
    expect(await ids('status_class=4xx&path_prefix=/v1/projects/')).toEqual(['req-1']);
    expect(await ids('credential_id=key_2')).toEqual(['req-3']);
    expect(await ids('method=post')).toEqual(['req-3']);
    expect(await ids('status_class=5xx')).toEqual(['req-2']);
    const many = join(dir, 'many.jsonl');
    for (let n = 0; n < 30; n++) appendRequestLine(many, record(n));
    expect(await fileRequestLogReader(many).recent(tenant, { limit: 25 })).toHaveLength(25);
  });

  it('skips lines it cannot read and answers an empty list before the first request', async () => {
    const file = join(dir, 'api-requests.jsonl');
    expect(await fileRequestLogReader(file).recent({ accountId: 'acct_1', mode: 'live' }, { limit: 25 })).toEqual([]);
    await writeFile(file, `not json\n${JSON.stringify(record(1))}\n{"half":`);
    const found = await fileRequestLogReader(file).recent({ accountId: 'acct_1', mode: 'live' }, { limit: 25 });
    expect(found.map((r) => r.request_id)).toEqual(['req-1']);
  });
});

describe('the Requests filters', () => {
  it('names every refused value', () => {
    let error: unknown;
    try {
      parseApiRequestQuery(new URLSearchParams('method=TRACE&status_class=6xx&path_prefix=v1" or 1&credential_id=a b&per_page=7'));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('validation_error');
    expect((error as ApiError).errors?.map((i) => i.field)).toEqual(['per_page', 'method', 'status_class', 'path_prefix', 'credential_id']);
  });

  it('defaults to 25 requests and no filter', () => {
    expect(parseApiRequestQuery(new URLSearchParams(''))).toEqual({ limit: 25 });
  });
});
